#include "floe/iceberg/table_metadata.h"

#include <algorithm>
#include <chrono>
#include <set>
#include <utility>

#include <nlohmann/json.hpp>

#include "floe/core/uuid.h"

namespace floe::iceberg {
namespace {

bool FieldEqual(const schema::NestedField& a, const schema::NestedField& b);

bool TypeEqual(const schema::TypePtr& a, const schema::TypePtr& b) {
  if (a == b) return true;
  if (!a || !b) return false;
  if (a->id() != b->id() || a->precision() != b->precision() || a->scale() != b->scale() ||
      a->length() != b->length() || a->fields().size() != b->fields().size()) {
    return false;
  }
  for (size_t i = 0; i < a->fields().size(); ++i) {
    if (!FieldEqual(a->fields()[i], b->fields()[i])) return false;
  }
  return true;
}

bool FieldEqual(const schema::NestedField& a, const schema::NestedField& b) {
  return a.id == b.id && a.name == b.name && a.required == b.required && a.doc == b.doc &&
         a.initial_default_json == b.initial_default_json && a.write_default_json == b.write_default_json &&
         TypeEqual(a.type, b.type);
}

bool FieldsEqual(const std::vector<schema::NestedField>& a, const std::vector<schema::NestedField>& b) {
  if (a.size() != b.size()) return false;
  for (size_t i = 0; i < a.size(); ++i) {
    if (!FieldEqual(a[i], b[i])) return false;
  }
  return true;
}

bool IsV3OnlyType(schema::TypeId id) {
  switch (id) {
    case schema::TypeId::kTimestampNs:
    case schema::TypeId::kTimestampTzNs:
    case schema::TypeId::kUnknown:
    case schema::TypeId::kVariant:
      return true;
    default:
      return false;
  }
}

bool IsNonNullDefault(const std::optional<std::string>& json) { return json.has_value() && *json != "null"; }

Status CheckFieldsFormatVersion(const std::vector<schema::NestedField>& fields, int format_version) {
  for (const auto& f : fields) {
    if (!f.type) return Status::InvalidArgument("field '" + f.name + "' (id " + std::to_string(f.id) + ") has no type");
    if (IsV3OnlyType(f.type->id())) {
      return Status::InvalidArgument("field '" + f.name + "' (id " + std::to_string(f.id) + "): type " +
                                     f.type->ToString() + " requires format version 3, the table is v" +
                                     std::to_string(format_version));
    }
    if (IsNonNullDefault(f.initial_default_json) || IsNonNullDefault(f.write_default_json)) {
      return Status::InvalidArgument("field '" + f.name + "' (id " + std::to_string(f.id) +
                                     "): default values require format version 3, the table is v" +
                                     std::to_string(format_version));
    }
    FLOE_RETURN_IF_ERROR(CheckFieldsFormatVersion(f.type->fields(), format_version));
  }
  return Status::OK();
}

Status CheckTransformSource(const schema::Transform& transform, int source_id, const schema::Schema& schema,
                            const std::string& what, bool allow_missing_void) {
  const schema::NestedField* source = schema.FindById(source_id);
  if (source == nullptr) {
    if (allow_missing_void && transform.kind == schema::TransformKind::kVoid) return Status::OK();
    return Status::InvalidArgument(what + " references source column id " + std::to_string(source_id) +
                                   ", which schema " + std::to_string(schema.schema_id) + " does not have");
  }
  if (!source->type || !source->type->is_primitive()) {
    return Status::InvalidArgument(what + " has source column '" + source->name + "' (id " + std::to_string(source_id) +
                                   ") of non-primitive type " + (source->type ? source->type->ToString() : "?"));
  }
  auto result = transform.ResultType(*source->type);
  if (!result.ok()) {
    return Status::InvalidArgument(what + ": transform " + transform.ToString() + " cannot apply to column '" +
                                   source->name + "' of type " + source->type->ToString() + ": " +
                                   result.status().message());
  }
  return Status::OK();
}

template <typename T, typename IdFn>
Status CheckUniqueIds(const std::vector<T>& items, IdFn id_of, std::string_view what) {
  std::set<std::int64_t> seen;
  for (const auto& item : items) {
    if (!seen.insert(id_of(item)).second) {
      return Status::InvalidArgument("duplicate " + std::string(what) + " " + std::to_string(id_of(item)));
    }
  }
  return Status::OK();
}

}  // namespace

// --- Snapshot / refs ------------------------------------------------------------------------

std::string_view Snapshot::operation() const {
  auto it = summary.find(kSummaryOperation);
  return it == summary.end() ? std::string_view() : std::string_view(it->second);
}

std::optional<std::string_view> Snapshot::SummaryValue(std::string_view key) const {
  auto it = summary.find(key);
  if (it == summary.end()) return std::nullopt;
  return std::string_view(it->second);
}

bool StatisticsFile::operator==(const StatisticsFile& other) const {
  if (snapshot_id != other.snapshot_id) return false;
  if (json == other.json) return true;
  auto a = nlohmann::json::parse(json, nullptr, /*allow_exceptions=*/false);
  auto b = nlohmann::json::parse(other.json, nullptr, /*allow_exceptions=*/false);
  return !a.is_discarded() && !b.is_discarded() && a == b;
}

std::string_view SnapshotRefTypeName(SnapshotRefType type) {
  return type == SnapshotRefType::kBranch ? "branch" : "tag";
}

// --- Lookups ------------------------------------------------------------------------------

const schema::Schema* TableMetadata::CurrentSchema() const { return SchemaById(current_schema_id); }

const schema::Schema* TableMetadata::SchemaById(int schema_id) const {
  for (const auto& s : schemas) {
    if (s.schema_id == schema_id) return &s;
  }
  return nullptr;
}

const schema::PartitionSpec* TableMetadata::DefaultSpec() const { return SpecById(default_spec_id); }

const schema::PartitionSpec* TableMetadata::SpecById(int spec_id) const {
  for (const auto& s : partition_specs) {
    if (s.spec_id == spec_id) return &s;
  }
  return nullptr;
}

const schema::SortOrder* TableMetadata::DefaultSortOrder() const { return SortOrderById(default_sort_order_id); }

const schema::SortOrder* TableMetadata::SortOrderById(int order_id) const {
  for (const auto& o : sort_orders) {
    if (o.order_id == order_id) return &o;
  }
  return nullptr;
}

const Snapshot* TableMetadata::SnapshotById(std::int64_t snapshot_id) const {
  for (const auto& s : snapshots) {
    if (s.snapshot_id == snapshot_id) return &s;
  }
  return nullptr;
}

const Snapshot* TableMetadata::CurrentSnapshot() const {
  return current_snapshot_id ? SnapshotById(*current_snapshot_id) : nullptr;
}

const SnapshotRef* TableMetadata::Ref(std::string_view name) const {
  auto it = refs.find(name);
  return it == refs.end() ? nullptr : &it->second;
}

std::optional<std::int64_t> TableMetadata::RefSnapshotId(std::string_view name) const {
  if (const SnapshotRef* ref = Ref(name)) return ref->snapshot_id;
  // Metadata built by hand may carry only current-snapshot-id; the spec says main follows it.
  if (name == kMainBranch) return current_snapshot_id;
  return std::nullopt;
}

std::int64_t TableMetadata::NextSequenceNumber() const {
  return format_version > 1 ? last_sequence_number + 1 : 0;
}

std::optional<std::string_view> TableMetadata::Property(std::string_view key) const {
  auto it = properties.find(key);
  if (it == properties.end()) return std::nullopt;
  return std::string_view(it->second);
}

// --- Equality -----------------------------------------------------------------------------

bool SameSchema(const schema::Schema& a, const schema::Schema& b) {
  return a.identifier_field_ids == b.identifier_field_ids && FieldsEqual(a.fields, b.fields);
}

bool SchemaEqual(const schema::Schema& a, const schema::Schema& b) {
  return a.schema_id == b.schema_id && SameSchema(a, b);
}

bool SameSpec(const schema::PartitionSpec& a, const schema::PartitionSpec& b) {
  if (a.fields.size() != b.fields.size()) return false;
  for (size_t i = 0; i < a.fields.size(); ++i) {
    const auto& x = a.fields[i];
    const auto& y = b.fields[i];
    if (x.source_id != y.source_id || x.name != y.name || !(x.transform == y.transform)) return false;
  }
  return true;
}

bool SpecEqual(const schema::PartitionSpec& a, const schema::PartitionSpec& b) {
  if (a.spec_id != b.spec_id || !SameSpec(a, b)) return false;
  for (size_t i = 0; i < a.fields.size(); ++i) {
    if (a.fields[i].field_id != b.fields[i].field_id) return false;
  }
  return true;
}

bool SameSortOrder(const schema::SortOrder& a, const schema::SortOrder& b) {
  if (a.fields.size() != b.fields.size()) return false;
  for (size_t i = 0; i < a.fields.size(); ++i) {
    const auto& x = a.fields[i];
    const auto& y = b.fields[i];
    if (x.source_id != y.source_id || !(x.transform == y.transform) || x.direction != y.direction ||
        x.null_order != y.null_order) {
      return false;
    }
  }
  return true;
}

bool SortOrderEqual(const schema::SortOrder& a, const schema::SortOrder& b) {
  return a.order_id == b.order_id && SameSortOrder(a, b);
}

namespace {
template <typename T, typename Eq>
bool VectorsEqual(const std::vector<T>& a, const std::vector<T>& b, Eq eq) {
  if (a.size() != b.size()) return false;
  for (size_t i = 0; i < a.size(); ++i) {
    if (!eq(a[i], b[i])) return false;
  }
  return true;
}
}  // namespace

bool operator==(const TableMetadata& a, const TableMetadata& b) {
  return a.format_version == b.format_version && a.table_uuid == b.table_uuid && a.location == b.location &&
         a.last_sequence_number == b.last_sequence_number && a.last_updated_ms == b.last_updated_ms &&
         a.last_column_id == b.last_column_id && a.current_schema_id == b.current_schema_id &&
         a.default_spec_id == b.default_spec_id && a.last_partition_id == b.last_partition_id &&
         a.properties == b.properties && a.current_snapshot_id == b.current_snapshot_id &&
         a.snapshots == b.snapshots && a.snapshot_log == b.snapshot_log && a.metadata_log == b.metadata_log &&
         a.default_sort_order_id == b.default_sort_order_id && a.refs == b.refs && a.statistics == b.statistics &&
         a.partition_statistics == b.partition_statistics && a.next_row_id == b.next_row_id &&
         VectorsEqual(a.schemas, b.schemas, SchemaEqual) && VectorsEqual(a.partition_specs, b.partition_specs, SpecEqual) &&
         VectorsEqual(a.sort_orders, b.sort_orders, SortOrderEqual);
}

// --- Validation ---------------------------------------------------------------------------

Status CheckSpecCompatible(const schema::PartitionSpec& spec, const schema::Schema& schema) {
  std::set<std::string> names;
  std::set<int> ids;
  for (const auto& f : spec.fields) {
    std::string what = "partition spec " + std::to_string(spec.spec_id) + ": field '" + f.name + "'";
    if (f.name.empty()) return Status::InvalidArgument("partition spec " + std::to_string(spec.spec_id) + ": a field has an empty name");
    if (!names.insert(f.name).second) return Status::InvalidArgument(what + " is defined twice");
    if (!ids.insert(f.field_id).second) {
      return Status::InvalidArgument(what + " reuses partition field id " + std::to_string(f.field_id));
    }
    FLOE_RETURN_IF_ERROR(CheckTransformSource(f.transform, f.source_id, schema, what, /*allow_missing_void=*/true));
  }
  return Status::OK();
}

Status CheckSortOrderCompatible(const schema::SortOrder& order, const schema::Schema& schema) {
  for (size_t i = 0; i < order.fields.size(); ++i) {
    const auto& f = order.fields[i];
    std::string what = "sort order " + std::to_string(order.order_id) + ": field #" + std::to_string(i);
    FLOE_RETURN_IF_ERROR(CheckTransformSource(f.transform, f.source_id, schema, what, /*allow_missing_void=*/false));
  }
  return Status::OK();
}

Status CheckSchemaFormatVersion(const schema::Schema& schema, int format_version) {
  if (format_version >= 3) return Status::OK();
  return CheckFieldsFormatVersion(schema.fields, format_version)
      .WithContext("schema " + std::to_string(schema.schema_id));
}

Status ValidateTableMetadata(const TableMetadata& m) {
  if (m.format_version < 1 || m.format_version > kMaxReadFormatVersion) {
    return Status::Unsupported("format-version " + std::to_string(m.format_version) + " is not supported (1 to " +
                               std::to_string(kMaxReadFormatVersion) + ")");
  }
  if (m.format_version > 1 && m.table_uuid.empty()) {
    return Status::InvalidArgument("table-uuid is required in format v" + std::to_string(m.format_version));
  }
  if (m.location.empty()) return Status::InvalidArgument("location is empty");
  FLOE_RETURN_IF_ERROR(CheckUniqueIds(m.schemas, [](const schema::Schema& s) { return s.schema_id; }, "schema-id"));
  FLOE_RETURN_IF_ERROR(
      CheckUniqueIds(m.partition_specs, [](const schema::PartitionSpec& s) { return s.spec_id; }, "spec-id"));
  FLOE_RETURN_IF_ERROR(
      CheckUniqueIds(m.sort_orders, [](const schema::SortOrder& s) { return s.order_id; }, "sort order-id"));
  FLOE_RETURN_IF_ERROR(CheckUniqueIds(m.snapshots, [](const Snapshot& s) { return s.snapshot_id; }, "snapshot-id"));
  if (m.CurrentSchema() == nullptr) {
    return Status::InvalidArgument("current-schema-id " + std::to_string(m.current_schema_id) +
                                   " is not among the schemas");
  }
  if (m.DefaultSpec() == nullptr) {
    return Status::InvalidArgument("default-spec-id " + std::to_string(m.default_spec_id) +
                                   " is not among the partition-specs");
  }
  if (m.DefaultSortOrder() == nullptr) {
    return Status::InvalidArgument("default-sort-order-id " + std::to_string(m.default_sort_order_id) +
                                   " is not among the sort-orders");
  }
  if (m.current_snapshot_id && m.CurrentSnapshot() == nullptr) {
    return Status::InvalidArgument("current-snapshot-id " + std::to_string(*m.current_snapshot_id) +
                                   " is not among the snapshots");
  }
  for (const auto& [name, ref] : m.refs) {
    if (m.SnapshotById(ref.snapshot_id) == nullptr) {
      return Status::InvalidArgument("refs." + name + " points at snapshot " + std::to_string(ref.snapshot_id) +
                                     ", which is not among the snapshots");
    }
  }
  const SnapshotRef* main = m.Ref(kMainBranch);
  if (m.current_snapshot_id) {
    if (main != nullptr && main->snapshot_id != *m.current_snapshot_id) {
      return Status::InvalidArgument("current-snapshot-id " + std::to_string(*m.current_snapshot_id) +
                                     " does not match refs.main (" + std::to_string(main->snapshot_id) + ")");
    }
  } else if (main != nullptr) {
    return Status::InvalidArgument("refs.main exists (snapshot " + std::to_string(main->snapshot_id) +
                                   ") but current-snapshot-id is not set");
  }
  if (main != nullptr && main->type != SnapshotRefType::kBranch) {
    return Status::InvalidArgument("refs.main must be a branch, not a tag");
  }
  return Status::OK();
}

// --- New tables ---------------------------------------------------------------------------

Result<TableMetadata> NewTableMetadata(const schema::Schema& schema, const schema::PartitionSpec& spec,
                                       const schema::SortOrder& sort_order, std::string_view location,
                                       std::map<std::string, std::string, std::less<>> properties,
                                       std::optional<std::int64_t> now_ms) {
  TableMetadata m;
  m.format_version = kWriteFormatVersion;
  if (auto it = properties.find(kPropFormatVersion); it != properties.end()) {
    if (it->second.size() == 1 && it->second[0] >= '1' && it->second[0] <= '0' + kMaxWriteFormatVersion) {
      m.format_version = it->second[0] - '0';
    } else {
      return Status::Unsupported("table property format-version=" + it->second +
                                 ": Floe creates format version 1 to " + std::to_string(kMaxWriteFormatVersion) +
                                 " tables");
    }
    properties.erase(it);
  }
  while (!location.empty() && location.back() == '/') location.remove_suffix(1);
  if (location.empty()) return Status::InvalidArgument("new table: location is empty");

  schema::Schema fresh_schema = schema;
  fresh_schema.schema_id = 0;
  FLOE_RETURN_IF_ERROR(CheckSchemaFormatVersion(fresh_schema, m.format_version).WithContext("new table"));

  schema::PartitionSpec fresh_spec = spec;
  fresh_spec.spec_id = 0;
  int next_partition_id = kPartitionFieldIdStart;
  for (auto& f : fresh_spec.fields) f.field_id = next_partition_id++;
  FLOE_RETURN_IF_ERROR(CheckSpecCompatible(fresh_spec, fresh_schema).WithContext("new table"));

  schema::SortOrder fresh_order = sort_order;
  fresh_order.order_id = fresh_order.fields.empty() ? kUnsortedOrderId : kInitialSortOrderId;
  FLOE_RETURN_IF_ERROR(CheckSortOrderCompatible(fresh_order, fresh_schema).WithContext("new table"));

  m.table_uuid = floe::NewUuid();
  m.location = std::string(location);
  m.last_sequence_number = 0;
  m.last_updated_ms = now_ms ? *now_ms : NowMillis();
  m.last_column_id = fresh_schema.HighestFieldId();
  m.current_schema_id = 0;
  m.schemas.push_back(std::move(fresh_schema));
  m.default_spec_id = 0;
  m.last_partition_id = next_partition_id - 1;
  m.partition_specs.push_back(std::move(fresh_spec));
  m.default_sort_order_id = fresh_order.order_id;
  m.sort_orders.push_back(std::move(fresh_order));
  m.properties = std::move(properties);
  if (m.format_version >= 3) m.next_row_id = 0;
  FLOE_RETURN_IF_ERROR(ValidateTableMetadata(m).WithContext("new table"));
  return m;
}

// --- Small utilities ----------------------------------------------------------------------

bool IsValidUuid(std::string_view text) {
  if (text.size() != 36) return false;
  for (size_t i = 0; i < text.size(); ++i) {
    char c = text[i];
    if (i == 8 || i == 13 || i == 18 || i == 23) {
      if (c != '-') return false;
    } else if (!((c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F'))) {
      return false;
    }
  }
  return true;
}

std::int64_t NowMillis() {
  return std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::system_clock::now().time_since_epoch())
      .count();
}

}  // namespace floe::iceberg
