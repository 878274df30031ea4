// JSON reading and writing of table metadata (spec: "Table Metadata Fields" and
// "Appendix C: JSON serialization"), without exceptions.
#include <algorithm>
#include <cctype>
#include <exception>
#include <utility>

#include "floe/core/json_depth.h"
#include "floe/iceberg/table_metadata.h"
#include "floe/iceberg/table_metadata_json.h"
#include "floe/schema/json.h"

namespace floe::iceberg {

using nlohmann::json;

namespace ja = json_access;

namespace {


Result<const json*> RequiredArray(const json& obj, std::string_view key, int format_version) {
  FLOE_ASSIGN_OR_RETURN(const json* v, ja::OptionalArray(obj, key, kJsonWording));
  if (v == nullptr) {
    return Status::InvalidArgument("missing required key '" + std::string(key) + "' (required in format v" +
                                   std::to_string(format_version) + ")");
  }
  return v;
}

// v1 partition fields may lack field ids: the reference implementation assigned them
// sequentially from 1000.
json FillV1PartitionFieldIds(json fields) {
  if (!fields.is_array()) return fields;
  int next = kPartitionFieldIdStart;
  for (auto& f : fields) {
    if (f.is_object() && !f.contains("field-id")) f["field-id"] = next;
    ++next;
  }
  return fields;
}

Result<schema::PartitionSpec> ParseSpec(const json& j, int format_version) {
  if (format_version == 1 && j.is_object() && j.contains("fields")) {
    json copy = j;
    copy["fields"] = FillV1PartitionFieldIds(j["fields"]);
    return schema::PartitionSpecFromJson(copy);
  }
  return schema::PartitionSpecFromJson(j);
}

Result<SnapshotLogEntry> SnapshotLogEntryFromJson(const json& j) {
  FLOE_RETURN_IF_ERROR(ja::ExpectObject(j, {kJsonWording, "snapshot log entry"}));
  SnapshotLogEntry e;
  FLOE_ASSIGN_OR_RETURN(e.timestamp_ms, ja::RequireInt64(j, "timestamp-ms", kJsonWording));
  FLOE_ASSIGN_OR_RETURN(e.snapshot_id, ja::RequireInt64(j, "snapshot-id", kJsonWording));
  return e;
}

Result<MetadataLogEntry> MetadataLogEntryFromJson(const json& j) {
  FLOE_RETURN_IF_ERROR(ja::ExpectObject(j, {kJsonWording, "metadata log entry"}));
  MetadataLogEntry e;
  FLOE_ASSIGN_OR_RETURN(e.timestamp_ms, ja::RequireInt64(j, "timestamp-ms", kJsonWording));
  FLOE_ASSIGN_OR_RETURN(e.metadata_file, ja::RequireString(j, "metadata-file", kJsonWording));
  return e;
}

Status ParseStatistics(const json& j, std::string_view key, std::vector<StatisticsFile>& out) {
  FLOE_ASSIGN_OR_RETURN(const json* array, ja::OptionalArray(j, key, kJsonWording));
  return ParseJsonArray(array, key, out, StatisticsFileFromJson);
}

}  // namespace

Result<nlohmann::json> ParseJsonText(std::string_view text, std::string_view what) {
  FLOE_RETURN_IF_ERROR(CheckJsonDepth(text, what));
  try {
    return json::parse(text.begin(), text.end());
  } catch (const std::exception& e) {
    return Status::InvalidArgument(std::string(what) + ": invalid JSON: " + e.what());
  }
}

// --- Snapshots, refs, statistics ---------------------------------------------------------

Result<Snapshot> SnapshotFromJson(const json& j) {
  FLOE_RETURN_IF_ERROR(ja::ExpectObject(j, {kJsonWording, "snapshot"}));
  Snapshot s;
  FLOE_ASSIGN_OR_RETURN(s.snapshot_id, ja::RequireInt64(j, "snapshot-id", kJsonWording));
  FLOE_ASSIGN_OR_RETURN(s.parent_snapshot_id, ja::OptionalInt64(j, "parent-snapshot-id", kJsonWording));
  FLOE_ASSIGN_OR_RETURN(auto seq, ja::OptionalInt64(j, "sequence-number", kJsonWording));
  s.sequence_number = seq.value_or(0);
  FLOE_ASSIGN_OR_RETURN(s.timestamp_ms, ja::RequireInt64(j, "timestamp-ms", kJsonWording));
  FLOE_ASSIGN_OR_RETURN(auto manifest_list, ja::OptionalString(j, "manifest-list", kJsonWording));
  if (manifest_list) {
    s.manifest_list = std::move(*manifest_list);
  } else if (ja::Find(j, "manifests") != nullptr) {
    FLOE_ASSIGN_OR_RETURN(s.v1_manifests, ja::RequireStringList(j, "manifests", kJsonWording));
  } else {
    return ja::Missing("manifest-list", kJsonWording);
  }
  if (ja::Find(j, "summary") != nullptr) {
    FLOE_ASSIGN_OR_RETURN(s.summary, ja::OptionalStringMap(j, "summary", kJsonWording));
    if (s.summary.find(kSummaryOperation) == s.summary.end()) {
      return ja::Missing("operation", kJsonWording).WithContext("summary");
    }
  }
  FLOE_ASSIGN_OR_RETURN(s.schema_id, ja::OptionalInt(j, "schema-id", kJsonWording));
  FLOE_ASSIGN_OR_RETURN(s.first_row_id, ja::OptionalInt64(j, "first-row-id", kJsonWording));
  FLOE_ASSIGN_OR_RETURN(s.added_rows, ja::OptionalInt64(j, "added-rows", kJsonWording));
  FLOE_ASSIGN_OR_RETURN(s.key_id, ja::OptionalInt(j, "key-id", kJsonWording));
  return s;
}

json SnapshotToJson(const Snapshot& s, int format_version) {
  json j = json::object();
  j["snapshot-id"] = s.snapshot_id;
  if (s.parent_snapshot_id) j["parent-snapshot-id"] = *s.parent_snapshot_id;
  if (format_version > 1) j["sequence-number"] = s.sequence_number;
  j["timestamp-ms"] = s.timestamp_ms;
  if (!s.summary.empty()) {
    json summary = json::object();
    for (const auto& [k, v] : s.summary) summary[k] = v;
    j["summary"] = std::move(summary);
  }
  if (!s.manifest_list.empty() || s.v1_manifests.empty()) {
    j["manifest-list"] = s.manifest_list;
  } else {
    j["manifests"] = s.v1_manifests;
  }
  if (s.schema_id) j["schema-id"] = *s.schema_id;
  if (s.first_row_id) j["first-row-id"] = *s.first_row_id;
  if (s.added_rows) j["added-rows"] = *s.added_rows;
  if (s.key_id) j["key-id"] = *s.key_id;
  return j;
}

Result<SnapshotRef> SnapshotRefFromJson(const json& j) {
  FLOE_RETURN_IF_ERROR(ja::ExpectObject(j, {kJsonWording, "snapshot ref"}));
  SnapshotRef r;
  FLOE_ASSIGN_OR_RETURN(r.snapshot_id, ja::RequireInt64(j, "snapshot-id", kJsonWording));
  FLOE_ASSIGN_OR_RETURN(std::string type, ja::RequireString(j, "type", kJsonWording));
  std::transform(type.begin(), type.end(), type.begin(), [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  if (type == "branch") {
    r.type = SnapshotRefType::kBranch;
  } else if (type == "tag") {
    r.type = SnapshotRefType::kTag;
  } else {
    return Status::InvalidArgument("'type' must be \"branch\" or \"tag\", got \"" + type + "\"");
  }
  FLOE_ASSIGN_OR_RETURN(r.min_snapshots_to_keep, ja::OptionalInt(j, "min-snapshots-to-keep", kJsonWording));
  FLOE_ASSIGN_OR_RETURN(r.max_snapshot_age_ms, ja::OptionalInt64(j, "max-snapshot-age-ms", kJsonWording));
  FLOE_ASSIGN_OR_RETURN(r.max_ref_age_ms, ja::OptionalInt64(j, "max-ref-age-ms", kJsonWording));
  if (r.type == SnapshotRefType::kTag && (r.min_snapshots_to_keep || r.max_snapshot_age_ms)) {
    return Status::InvalidArgument("tags cannot have min-snapshots-to-keep or max-snapshot-age-ms (branch-only)");
  }
  if (r.min_snapshots_to_keep && *r.min_snapshots_to_keep <= 0) {
    return Status::InvalidArgument("'min-snapshots-to-keep' must be greater than 0");
  }
  if (r.max_snapshot_age_ms && *r.max_snapshot_age_ms <= 0) {
    return Status::InvalidArgument("'max-snapshot-age-ms' must be greater than 0");
  }
  if (r.max_ref_age_ms && *r.max_ref_age_ms <= 0) {
    return Status::InvalidArgument("'max-ref-age-ms' must be greater than 0");
  }
  return r;
}

void SnapshotRefToJson(const SnapshotRef& r, json& out) {
  out["snapshot-id"] = r.snapshot_id;
  out["type"] = std::string(SnapshotRefTypeName(r.type));
  if (r.min_snapshots_to_keep) out["min-snapshots-to-keep"] = *r.min_snapshots_to_keep;
  if (r.max_snapshot_age_ms) out["max-snapshot-age-ms"] = *r.max_snapshot_age_ms;
  if (r.max_ref_age_ms) out["max-ref-age-ms"] = *r.max_ref_age_ms;
}

Result<StatisticsFile> StatisticsFileFromJson(const json& j) {
  FLOE_RETURN_IF_ERROR(ja::ExpectObject(j, {kJsonWording, "statistics file"}));
  StatisticsFile f;
  FLOE_ASSIGN_OR_RETURN(f.snapshot_id, ja::RequireInt64(j, "snapshot-id", kJsonWording));
  f.json = ja::DumpCompact(j);
  return f;
}

json StatisticsFileToJson(const StatisticsFile& f) {
  json j = json::parse(f.json, nullptr, /*allow_exceptions=*/false);
  if (!j.is_object()) j = json::object();  // only for a hand-built entry with bad text
  j["snapshot-id"] = f.snapshot_id;
  return j;
}

// --- Table metadata ------------------------------------------------------------------------

namespace {

Status ParseSchemas(const json& j, TableMetadata& m) {
  FLOE_ASSIGN_OR_RETURN(const json* schemas, ja::OptionalArray(j, "schemas", kJsonWording));
  if (schemas != nullptr) {
    for (size_t i = 0; i < schemas->size(); ++i) {
      auto s = schema::SchemaFromJson((*schemas)[i]);
      if (!s.ok()) return s.status().WithContext(Indexed("schemas", i));
      m.schemas.push_back(std::move(s).value());
    }
    FLOE_ASSIGN_OR_RETURN(m.current_schema_id, ja::RequireInt(j, "current-schema-id", kJsonWording));
    return Status::OK();
  }
  if (m.format_version > 1) return RequiredArray(j, "schemas", m.format_version).status();
  const json* single = ja::Find(j, "schema");
  if (single == nullptr) {
    return Status::InvalidArgument("missing required key 'schemas' (or v1 'schema')");
  }
  json copy = *single;
  if (copy.is_object() && !copy.contains("schema-id")) copy["schema-id"] = 0;
  auto s = schema::SchemaFromJson(copy);
  if (!s.ok()) return s.status().WithContext("schema");
  m.current_schema_id = s->schema_id;
  m.schemas.push_back(std::move(s).value());
  return Status::OK();
}

Status ParseSpecs(const json& j, TableMetadata& m) {
  FLOE_ASSIGN_OR_RETURN(const json* specs, ja::OptionalArray(j, "partition-specs", kJsonWording));
  if (specs != nullptr) {
    for (size_t i = 0; i < specs->size(); ++i) {
      auto s = ParseSpec((*specs)[i], m.format_version);
      if (!s.ok()) return s.status().WithContext(Indexed("partition-specs", i));
      m.partition_specs.push_back(std::move(s).value());
    }
    FLOE_ASSIGN_OR_RETURN(m.default_spec_id, ja::RequireInt(j, "default-spec-id", kJsonWording));
  } else {
    if (m.format_version > 1) return RequiredArray(j, "partition-specs", m.format_version).status();
    FLOE_ASSIGN_OR_RETURN(const json* fields, ja::OptionalArray(j, "partition-spec", kJsonWording));
    if (fields == nullptr) return Status::InvalidArgument("missing required key 'partition-specs' (or v1 'partition-spec')");
    json spec = json::object();
    spec["spec-id"] = 0;
    spec["fields"] = *fields;
    auto s = ParseSpec(spec, m.format_version);
    if (!s.ok()) return s.status().WithContext("partition-spec");
    m.default_spec_id = 0;
    m.partition_specs.push_back(std::move(s).value());
  }
  FLOE_ASSIGN_OR_RETURN(auto last_partition_id, ja::OptionalInt(j, "last-partition-id", kJsonWording));
  if (last_partition_id) {
    m.last_partition_id = *last_partition_id;
  } else if (m.format_version > 1) {
    return ja::Missing("last-partition-id", kJsonWording);
  } else {
    m.last_partition_id = kPartitionFieldIdStart - 1;
    for (const auto& spec : m.partition_specs) {
      for (const auto& f : spec.fields) m.last_partition_id = std::max(m.last_partition_id, f.field_id);
    }
  }
  return Status::OK();
}

Status ParseSortOrders(const json& j, TableMetadata& m) {
  FLOE_ASSIGN_OR_RETURN(const json* orders, ja::OptionalArray(j, "sort-orders", kJsonWording));
  if (orders == nullptr) {
    if (m.format_version > 1) return RequiredArray(j, "sort-orders", m.format_version).status();
    m.sort_orders.push_back(schema::SortOrder{});  // unsorted, id 0
    m.default_sort_order_id = kUnsortedOrderId;
    return Status::OK();
  }
  for (size_t i = 0; i < orders->size(); ++i) {
    auto o = schema::SortOrderFromJson((*orders)[i]);
    if (!o.ok()) return o.status().WithContext(Indexed("sort-orders", i));
    m.sort_orders.push_back(std::move(o).value());
  }
  FLOE_ASSIGN_OR_RETURN(m.default_sort_order_id, ja::RequireInt(j, "default-sort-order-id", kJsonWording));
  return Status::OK();
}

Status ParseRefs(const json& j, TableMetadata& m) {
  FLOE_ASSIGN_OR_RETURN(const json* refs, ja::OptionalObject(j, "refs", kJsonWording));
  if (refs != nullptr) {
    for (auto it = refs->begin(); it != refs->end(); ++it) {
      auto r = SnapshotRefFromJson(it.value());
      if (!r.ok()) return r.status().WithContext("refs." + it.key());
      m.refs.emplace(it.key(), std::move(r).value());
    }
  }
  // The spec: "There is always a main branch reference pointing to the current-snapshot-id
  // even if the refs map is null."
  if (m.current_snapshot_id && m.refs.find(kMainBranch) == m.refs.end()) {
    m.refs.emplace(std::string(kMainBranch), SnapshotRef{*m.current_snapshot_id, SnapshotRefType::kBranch, {}, {}, {}});
  }
  return Status::OK();
}

Status ParseMetadata(const json& j, TableMetadata& m) {
  FLOE_RETURN_IF_ERROR(ja::ExpectObject(j, {kJsonWording, "table metadata"}));
  FLOE_ASSIGN_OR_RETURN(m.format_version, ja::RequireInt(j, "format-version", kJsonWording));
  if (m.format_version < 1) {
    return Status::InvalidArgument("'format-version' must be 1, 2 or 3, got " + std::to_string(m.format_version));
  }
  if (m.format_version > kMaxReadFormatVersion) {
    return Status::Unsupported("format-version " + std::to_string(m.format_version) +
                               " is newer than Floe reads (up to " + std::to_string(kMaxReadFormatVersion) + ")");
  }
  if (m.format_version == 1) {
    FLOE_ASSIGN_OR_RETURN(auto uuid, ja::OptionalString(j, "table-uuid", kJsonWording));
    m.table_uuid = uuid.value_or("");
  } else {
    FLOE_ASSIGN_OR_RETURN(m.table_uuid, ja::RequireString(j, "table-uuid", kJsonWording));
  }
  FLOE_ASSIGN_OR_RETURN(m.location, ja::RequireString(j, "location", kJsonWording));
  if (m.format_version == 1) {
    FLOE_ASSIGN_OR_RETURN(auto seq, ja::OptionalInt64(j, "last-sequence-number", kJsonWording));
    m.last_sequence_number = seq.value_or(0);
  } else {
    FLOE_ASSIGN_OR_RETURN(m.last_sequence_number, ja::RequireInt64(j, "last-sequence-number", kJsonWording));
  }
  FLOE_ASSIGN_OR_RETURN(m.last_updated_ms, ja::RequireInt64(j, "last-updated-ms", kJsonWording));
  FLOE_ASSIGN_OR_RETURN(m.last_column_id, ja::RequireInt(j, "last-column-id", kJsonWording));
  FLOE_RETURN_IF_ERROR(ParseSchemas(j, m));
  FLOE_RETURN_IF_ERROR(ParseSpecs(j, m));
  FLOE_ASSIGN_OR_RETURN(m.properties, ja::OptionalStringMap(j, "properties", kJsonWording));
  FLOE_ASSIGN_OR_RETURN(m.current_snapshot_id, ja::OptionalInt64(j, "current-snapshot-id", kJsonWording));
  if (m.current_snapshot_id == -1) m.current_snapshot_id.reset();  // the legacy "no snapshot" value
  {
    FLOE_ASSIGN_OR_RETURN(const json* snapshots, ja::OptionalArray(j, "snapshots", kJsonWording));
    FLOE_RETURN_IF_ERROR(ParseJsonArray(snapshots, "snapshots", m.snapshots, SnapshotFromJson));
  }
  {
    FLOE_ASSIGN_OR_RETURN(const json* log, ja::OptionalArray(j, "snapshot-log", kJsonWording));
    FLOE_RETURN_IF_ERROR(ParseJsonArray(log, "snapshot-log", m.snapshot_log, SnapshotLogEntryFromJson));
  }
  {
    FLOE_ASSIGN_OR_RETURN(const json* log, ja::OptionalArray(j, "metadata-log", kJsonWording));
    FLOE_RETURN_IF_ERROR(ParseJsonArray(log, "metadata-log", m.metadata_log, MetadataLogEntryFromJson));
  }
  FLOE_RETURN_IF_ERROR(ParseSortOrders(j, m));
  FLOE_RETURN_IF_ERROR(ParseRefs(j, m));
  FLOE_RETURN_IF_ERROR(ParseStatistics(j, "statistics", m.statistics));
  FLOE_RETURN_IF_ERROR(ParseStatistics(j, "partition-statistics", m.partition_statistics));
  FLOE_ASSIGN_OR_RETURN(m.next_row_id, ja::OptionalInt64(j, "next-row-id", kJsonWording));
  return ValidateTableMetadata(m);
}

}  // namespace

Result<TableMetadata> TableMetadataFromJson(const json& j) {
  TableMetadata m;
  Status st = ParseMetadata(j, m);
  if (!st.ok()) return st.WithContext("table metadata");
  return m;
}

Result<TableMetadata> ParseTableMetadata(std::string_view text) {
  FLOE_ASSIGN_OR_RETURN(json j, ParseJsonText(text, "table metadata"));
  return TableMetadataFromJson(j);
}

json TableMetadataToJson(const TableMetadata& m) {
  json j = json::object();
  j["format-version"] = m.format_version;
  if (!m.table_uuid.empty()) j["table-uuid"] = m.table_uuid;
  j["location"] = m.location;
  if (m.format_version > 1) j["last-sequence-number"] = m.last_sequence_number;
  j["last-updated-ms"] = m.last_updated_ms;
  j["last-column-id"] = m.last_column_id;

  json schemas = json::array();
  for (const auto& s : m.schemas) schemas.push_back(schema::SchemaToJson(s));
  j["schemas"] = std::move(schemas);
  j["current-schema-id"] = m.current_schema_id;

  json specs = json::array();
  for (const auto& s : m.partition_specs) specs.push_back(schema::PartitionSpecToJson(s));
  j["partition-specs"] = std::move(specs);
  j["default-spec-id"] = m.default_spec_id;
  j["last-partition-id"] = m.last_partition_id;

  if (m.format_version == 1) {
    // v1 readers require the singular forms: the current schema and the default spec's fields.
    if (const schema::Schema* current = m.CurrentSchema()) j["schema"] = schema::SchemaToJson(*current);
    json fields = json::array();
    if (const schema::PartitionSpec* spec = m.DefaultSpec()) {
      json spec_json = schema::PartitionSpecToJson(*spec);
      if (spec_json.is_object() && spec_json.contains("fields")) fields = spec_json["fields"];
    }
    j["partition-spec"] = std::move(fields);
  }

  json properties = json::object();
  for (const auto& [k, v] : m.properties) properties[k] = v;
  j["properties"] = std::move(properties);
  // -1 rather than null or absence: understood by every reader, old and new.
  j["current-snapshot-id"] = m.current_snapshot_id.value_or(-1);

  json refs = json::object();
  for (const auto& [name, ref] : m.refs) {
    json r = json::object();
    SnapshotRefToJson(ref, r);
    refs[name] = std::move(r);
  }
  j["refs"] = std::move(refs);

  json snapshots = json::array();
  for (const auto& s : m.snapshots) snapshots.push_back(SnapshotToJson(s, m.format_version));
  j["snapshots"] = std::move(snapshots);

  json snapshot_log = json::array();
  for (const auto& e : m.snapshot_log) {
    snapshot_log.push_back(json{{"timestamp-ms", e.timestamp_ms}, {"snapshot-id", e.snapshot_id}});
  }
  j["snapshot-log"] = std::move(snapshot_log);

  json metadata_log = json::array();
  for (const auto& e : m.metadata_log) {
    metadata_log.push_back(json{{"timestamp-ms", e.timestamp_ms}, {"metadata-file", e.metadata_file}});
  }
  j["metadata-log"] = std::move(metadata_log);

  json orders = json::array();
  for (const auto& o : m.sort_orders) orders.push_back(schema::SortOrderToJson(o));
  j["sort-orders"] = std::move(orders);
  j["default-sort-order-id"] = m.default_sort_order_id;

  json statistics = json::array();
  for (const auto& f : m.statistics) statistics.push_back(StatisticsFileToJson(f));
  j["statistics"] = std::move(statistics);
  json partition_statistics = json::array();
  for (const auto& f : m.partition_statistics) partition_statistics.push_back(StatisticsFileToJson(f));
  j["partition-statistics"] = std::move(partition_statistics);

  if (m.next_row_id) j["next-row-id"] = *m.next_row_id;
  return j;
}

std::string SerializeTableMetadata(const TableMetadata& m) {
  // Without throwing on invalid UTF-8 in a hand-built value.
  return ja::DumpCompact(TableMetadataToJson(m));
}

}  // namespace floe::iceberg
