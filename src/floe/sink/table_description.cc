#include "floe/sink/table_description.h"

#include <algorithm>
#include <bit>
#include <cstdint>
#include <map>
#include <variant>
#include <vector>

#include "floe/delta/delta_log.h"
#include "floe/delta/history.h"
#include "floe/iceberg/table_scan.h"
#include "floe/schema/json.h"
#include "floe/sink/open_sink.h"
#include "floe/storage/file_io.h"

namespace floe::sink {
namespace {

using nlohmann::json;

// Enough for a page to stay readable; the oldest commits matter least to an operator.
constexpr std::size_t kMaxSnapshots = 500;
constexpr std::size_t kMaxPartitions = 200;

bool Has(const TopicConfig& topic, TableFormat format) {
  return std::find(topic.formats.begin(), topic.formats.end(), format) != topic.formats.end();
}

json Formats(const TopicConfig& topic) {
  json out = json::array();
  // No formats listed means Iceberg (open_sink.h).
  if (Has(topic, TableFormat::kIceberg) || !Has(topic, TableFormat::kDelta)) out.push_back("iceberg");
  if (Has(topic, TableFormat::kDelta)) out.push_back("delta");
  return out;
}

// Data files by size, in powers of two: bucket k holds sizes in [2^k, 2^(k+1)). The
// histogram spans the smallest to the largest file with empty buckets kept, so it draws as is.
class SizeHistogram {
 public:
  void Add(std::int64_t bytes) {
    ++counts_[std::bit_width(static_cast<std::uint64_t>(std::max<std::int64_t>(bytes, 1))) - 1];
  }
  json ToJson() const {
    json out = json::array();
    if (counts_.empty()) return out;
    for (int k = counts_.begin()->first; k <= counts_.rbegin()->first; ++k) {
      auto it = counts_.find(k);
      out.push_back({{"min_bytes", std::int64_t{1} << k},
                     {"max_bytes", (std::int64_t{1} << (k + 1)) - 1},
                     {"count", it == counts_.end() ? 0 : it->second}});
    }
    return out;
  }

 private:
  std::map<int, std::int64_t> counts_;
};

struct PartitionTotals {
  json values;
  std::int64_t files = 0, records = 0, bytes = 0;
};

class FileSummary {
 public:
  void Add(const json& partition_values, std::int64_t bytes, std::int64_t records) {
    ++count_;
    bytes_ += bytes;
    records_ += records;
    histogram_.Add(bytes);
    auto& p = partitions_[partition_values.dump()];
    p.values = partition_values;
    ++p.files;
    p.records += records;
    p.bytes += bytes;
  }
  json Files() const {
    return {{"count", count_}, {"bytes", bytes_}, {"records", records_}, {"size_histogram", histogram_.ToJson()}};
  }
  json Partitions() const {
    std::vector<const PartitionTotals*> sorted;
    for (const auto& [_, p] : partitions_) sorted.push_back(&p);
    std::sort(sorted.begin(), sorted.end(), [](auto* a, auto* b) { return a->bytes > b->bytes; });
    json out = json::array();
    for (std::size_t i = 0; i < sorted.size() && i < kMaxPartitions; ++i) {
      out.push_back({{"values", sorted[i]->values},
                     {"files", sorted[i]->files},
                     {"records", sorted[i]->records},
                     {"bytes", sorted[i]->bytes}});
    }
    return out;
  }

 private:
  std::int64_t count_ = 0, bytes_ = 0, records_ = 0;
  SizeHistogram histogram_;
  std::map<std::string, PartitionTotals> partitions_;
};

std::int64_t SummaryInt(const iceberg::Snapshot& snapshot, std::string_view key) {
  auto v = snapshot.SummaryValue(key);
  if (!v) return 0;
  try {
    return std::stoll(std::string(*v));
  } catch (...) {  // another writer's summary: a missing number is shown as 0
    return 0;
  }
}

json LiteralText(const schema::PartitionValue& value) {
  if (!value) return nullptr;
  return std::visit(
      [](const auto& v) -> json {
        using T = std::decay_t<decltype(v)>;
        if constexpr (std::is_same_v<T, bool>) return v ? "true" : "false";
        else if constexpr (std::is_same_v<T, std::string>) return v;
        else return std::to_string(v);
      },
      *value);
}

Result<json> DescribeIceberg(catalog::TableCatalog& catalog, const catalog::TableIdentifier& id) {
  FLOE_ASSIGN_OR_RETURN(auto loaded, catalog.LoadTable(id));
  const auto& m = loaded.metadata;
  json out = {{"metadata_location", loaded.metadata_location},
              {"format_version", m.format_version},
              {"current_schema_id", m.current_schema_id},
              {"location", m.location}};
  // What every commit rewrites and every query reads first (docs/maintenance.md).
  auto metadata_bytes = storage::FileSizeAt(loaded.metadata_location);
  out["metadata_bytes"] = metadata_bytes.ok() ? json(*metadata_bytes) : json(nullptr);
  // When each schema first appeared: the first snapshot written with it.
  std::map<int, std::int64_t> since;
  for (const auto& s : m.snapshots) {
    if (s.schema_id && !since.count(*s.schema_id)) since[*s.schema_id] = s.timestamp_ms;
  }
  json schemas = json::array();
  for (const auto& s : m.schemas) {
    json j = schema::SchemaToJson(s);
    if (auto it = since.find(s.schema_id); it != since.end()) j["since_ms"] = it->second;
    schemas.push_back(std::move(j));
  }
  out["schemas"] = std::move(schemas);
  json snapshots = json::array();
  const std::size_t first = m.snapshots.size() > kMaxSnapshots ? m.snapshots.size() - kMaxSnapshots : 0;
  for (std::size_t i = first; i < m.snapshots.size(); ++i) {
    const auto& s = m.snapshots[i];
    snapshots.push_back({{"id", s.snapshot_id},
                         {"timestamp_ms", s.timestamp_ms},
                         {"operation", std::string(s.operation())},
                         {"added_records", SummaryInt(s, "added-records")},
                         {"added_files", SummaryInt(s, "added-data-files")},
                         {"schema_id", s.schema_id ? json(*s.schema_id) : json(nullptr)}});
  }
  out["snapshot_count"] = m.snapshots.size();
  out["snapshots"] = std::move(snapshots);
  out["current_snapshot_id"] = m.current_snapshot_id ? json(*m.current_snapshot_id) : json(nullptr);

  const schema::PartitionSpec* spec = nullptr;
  for (const auto& s : m.partition_specs) {
    if (s.spec_id == m.default_spec_id) spec = &s;
  }
  json fields = json::array();
  if (spec != nullptr) {
    for (const auto& f : spec->fields) fields.push_back(f.name + " (" + f.transform.ToString() + ")");
  }
  out["partition_fields"] = fields;
  FLOE_ASSIGN_OR_RETURN(auto files, iceberg::LiveDataFiles(m));
  FileSummary summary;
  for (const auto& f : files) {
    json values = json::object();
    const schema::PartitionSpec* file_spec = nullptr;
    for (const auto& s : m.partition_specs) {
      if (s.spec_id == f.spec_id) file_spec = &s;
    }
    for (std::size_t i = 0; i < f.partition.size(); ++i) {
      const std::string name = file_spec && i < file_spec->fields.size() ? file_spec->fields[i].name : std::to_string(i);
      values[name] = LiteralText(f.partition[i]);
    }
    summary.Add(values, f.file_size_in_bytes, f.record_count);
  }
  out["files"] = summary.Files();
  out["partitions"] = summary.Partitions();
  return out;
}

Result<json> DescribeDelta(const FloeConfig& config, const catalog::TableIdentifier& id) {
  FLOE_ASSIGN_OR_RETURN(auto io, storage::FileIO::Open(catalog::DefaultTableLocation(config.warehouse, id)));
  FLOE_ASSIGN_OR_RETURN(auto state, delta::LoadState(io));
  if (state.version < 0) return Status::NotFound("Delta table " + catalog::TableIdentifierToString(id) + " does not exist yet");
  json out = {{"version", state.version}, {"location", io.Uri("")}, {"partition_fields", state.partition_columns}};
  FLOE_ASSIGN_OR_RETURN(auto history, delta::ReadCommitHistory(io, kMaxSnapshots));
  json schemas = json::array();
  json snapshots = json::array();
  int schema_id = -1;
  for (const auto& c : history) {
    snapshots.push_back({{"id", c.version},
                         {"timestamp_ms", c.timestamp_ms},
                         {"operation", c.operation},
                         {"added_records", c.added_records},
                         {"added_files", c.added_files}});
    if (!c.schema) continue;
    // Delta has no schema ids: number the metaData actions in log order, as Iceberg would.
    json j = schema::SchemaToJson(*c.schema);
    j["schema-id"] = ++schema_id;
    j["since_ms"] = c.timestamp_ms;
    j["version"] = c.version;
    schemas.push_back(std::move(j));
  }
  if (schemas.empty()) {  // the metaData is older than the JSON commits left: show the current one
    json j = schema::SchemaToJson(state.schema);
    j["schema-id"] = schema_id = 0;
    schemas.push_back(std::move(j));
  }
  out["schemas"] = std::move(schemas);
  out["current_schema_id"] = schema_id;
  out["snapshots"] = std::move(snapshots);
  out["snapshot_count"] = state.version + 1;
  FileSummary summary;
  for (const auto& [path, add] : state.files) {
    json values = json::object();
    if (add.contains("partitionValues") && add["partitionValues"].is_object()) values = add["partitionValues"];
    std::int64_t records = 0;
    if (add.contains("stats") && add["stats"].is_string()) {
      auto stats = json::parse(add["stats"].get<std::string>(), nullptr, false);
      if (stats.is_object() && stats.contains("numRecords") && stats["numRecords"].is_number_integer()) {
        records = stats["numRecords"].get<std::int64_t>();
      }
    }
    summary.Add(values, add.value("size", std::int64_t{0}), records);
  }
  out["files"] = summary.Files();
  out["partitions"] = summary.Partitions();
  return out;
}

}  // namespace

json ListConfiguredTables(const FloeConfig& config) {
  json tables = json::array();
  for (const auto& topic : config.topics) {
    if (topic.name.empty() && topic.table.empty()) continue;
    auto id = TableFor(topic, config.defaults);
    if (!id.ok()) continue;
    tables.push_back({{"table", catalog::TableIdentifierToString(*id)},
                      {"topic", topic.name.empty() ? topic.pattern : topic.name},
                      {"formats", Formats(topic)}});
  }
  return {{"tables", std::move(tables)}};
}

Result<json> DescribeTable(const FloeConfig& config, catalog::TableCatalog& catalog, const std::string& table) {
  const json tables = ListConfiguredTables(config);  // kept: the loop reads into it
  for (const auto& entry : tables["tables"]) {
    if (entry["table"] != table) continue;
    FLOE_ASSIGN_OR_RETURN(auto id, catalog::ParseTableIdentifier(table));
    json out = {{"table", table}, {"topic", entry["topic"]}, {"formats", entry["formats"]}};
    for (const auto& format : entry["formats"]) {
      auto described = format == "delta" ? DescribeDelta(config, id) : DescribeIceberg(catalog, id);
      if (!described.ok()) return described.status();
      out[format.get<std::string>()] = std::move(*described);
    }
    return out;
  }
  return Status::NotFound("'" + table + "' is not the table of a configured topic");
}

}  // namespace floe::sink
