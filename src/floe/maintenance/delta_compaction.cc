#include "floe/maintenance/delta_compaction.h"

#include <spdlog/spdlog.h>

#include <parquet/file_reader.h>
#include <parquet/metadata.h>

#include <algorithm>
#include <chrono>
#include <map>
#include <set>
#include <tuple>
#include <utility>

#include "floe/core/arrow_interop.h"
#include "floe/core/percent_encoding.h"
#include "floe/delta/delta_log.h"
#include "floe/delta/file_references.h"
#include "floe/delta/protocol.h"
#include "floe/delta/stats.h"
#include "floe/maintenance/bin_pack_internal.h"
#include "floe/maintenance/merge_files_internal.h"
#include "floe/schema/partition.h"
#include "floe/schema/arrow_schema.h"

namespace floe::maintenance {
namespace {

using Json = nlohmann::json;

// A live add, as the plan sees it.
struct LiveFile {
  std::string log_path;  // the key of TableState::files (percent-encoded)
  std::string relative;  // decoded, relative to the root ("" for absolute paths)
  std::string uri;
  std::int64_t bytes = 0;
  std::int64_t rows = 0;
  std::int64_t modification_time = 0;
};

struct DeltaGroup {
  std::map<std::string, std::optional<std::string>> partition_values;
  std::vector<LiveFile> files;  // in the order they were added
  std::int64_t rows = 0;
  std::int64_t bytes = 0;
  std::int64_t rows_per_file = 0;
};

Result<std::shared_ptr<parquet::FileMetaData>> Footer(const std::string& uri) {
  std::string path;
  FLOE_ASSIGN_OR_RETURN(auto fs, storage::FileSystemForUri(uri, &path));
  FLOE_ASSIGN_OR_RETURN_ARROW(auto input, fs->OpenInputFile(path));
  try {
    return parquet::ParquetFileReader::Open(input)->metadata();
  } catch (const std::exception& e) {
    return Status::IoError("reading the footer of " + uri + ": " + e.what());
  }
}

// stats.numRecords of an add, or the row count of the file's footer when the writer left none.
Result<std::int64_t> RowCount(const Json& add, const std::string& uri) {
  if (add.contains("stats") && add["stats"].is_string()) {
    const Json stats = Json::parse(add["stats"].get<std::string>(), nullptr, false);
    if (stats.is_object() && stats.contains("numRecords") && stats["numRecords"].is_number_integer()) {
      return stats["numRecords"].get<std::int64_t>();
    }
  }
  FLOE_ASSIGN_OR_RETURN(auto footer, Footer(uri));
  return footer->num_rows();
}

Result<LiveFile> Describe(storage::FileIO& io, const std::string& log_path, const Json& add) {
  LiveFile f;
  f.log_path = log_path;
  FLOE_ASSIGN_OR_RETURN(f.uri, delta::DataFileUri(io, log_path));
  FLOE_ASSIGN_OR_RETURN(auto decoded, PercentDecode(log_path));
  if (decoded.find("://") == std::string::npos) f.relative = decoded;
  f.bytes = add.value("size", std::int64_t{0});
  f.modification_time = add.value("modificationTime", std::int64_t{0});
  FLOE_ASSIGN_OR_RETURN(f.rows, RowCount(add, f.uri));
  return f;
}

Result<std::map<std::string, std::optional<std::string>>> PartitionValues(const Json& add, const std::string& path) {
  std::map<std::string, std::optional<std::string>> out;
  if (!add.contains("partitionValues") || add["partitionValues"].is_null()) return out;
  if (!add["partitionValues"].is_object()) return Status::InvalidArgument("add " + path + ": partitionValues is not an object");
  for (const auto& [k, v] : add["partitionValues"].items()) {
    if (v.is_null()) out[k] = std::nullopt;
    else if (v.is_string()) out[k] = v.get<std::string>();
    else return Status::InvalidArgument("add " + path + ": partition value '" + k + "' is not a string");
  }
  return out;
}

Result<std::vector<DeltaGroup>> PlanDeltaGroups(storage::FileIO& io, const delta::TableState& state,
                                                const CompactionOptions& options) {
  std::map<std::map<std::string, std::optional<std::string>>, DeltaGroup> by_partition;
  for (const auto& [path, add] : state.files) {
    if (add.contains("deletionVector") && !add["deletionVector"].is_null()) continue;  // rows hidden by a DV
    const std::int64_t bytes = add.value("size", std::int64_t{0});
    // Cheap check first: most files of a compacted table are large, no need to read their stats.
    if (bytes >= options.target_file_size) continue;
    FLOE_ASSIGN_OR_RETURN(auto file, Describe(io, path, add));
    if (!IsSmallFile(file.bytes, file.rows, options)) continue;
    FLOE_ASSIGN_OR_RETURN(auto values, PartitionValues(add, path));
    DeltaGroup& g = by_partition[values];
    g.partition_values = std::move(values);
    g.files.push_back(std::move(file));
  }
  std::vector<DeltaGroup> groups;
  for (auto& [_, all] : by_partition) {
    std::vector<std::int64_t> sizes;
    for (const auto& f : all.files) sizes.push_back(f.bytes);
    DeltaGroup group;
    group.partition_values = std::move(all.partition_values);
    for (std::size_t i : FilesToMergeNow(sizes, options)) {
      group.rows += all.files[i].rows;
      group.bytes += all.files[i].bytes;
      group.files.push_back(std::move(all.files[i]));
    }
    group.rows_per_file = RowsPerMergedFile(group.bytes, group.rows, options);
    if (!WorthMerging(group.files.size(), group.rows, group.rows_per_file)) continue;
    std::sort(group.files.begin(), group.files.end(), [](const LiveFile& a, const LiveFile& b) {
      return std::tie(a.modification_time, a.log_path) < std::tie(b.modification_time, b.log_path);
    });
    groups.push_back(std::move(group));
  }
  return groups;
}

// The table's columns as its data files hold them: physical names, field ids, and without the
// partition columns (Delta keeps partition values in the log, not in the files).
schema::Schema FileSchema(const delta::TableState& state) {
  schema::Schema out = state.schema;
  const std::set<std::string> partition(state.partition_columns.begin(), state.partition_columns.end());
  out.fields.erase(std::remove_if(out.fields.begin(), out.fields.end(),
                                  [&](const schema::NestedField& f) { return partition.count(f.name) > 0; }),
                   out.fields.end());
  out.identifier_field_ids.clear();
  return out;
}

// The directory below data/ for a group's merged files: its first file's, so that files of a
// partition stay together (Floe writes data/<column>=<value>/…).
std::string OutputDirectory(const DeltaGroup& group) {
  std::string dir = group.files.front().relative;
  const auto slash = dir.rfind('/');
  dir = slash == std::string::npos ? "" : dir.substr(0, slash);
  if (dir == "data") return "";
  if (dir.rfind("data/", 0) == 0) return dir.substr(5);
  return dir;
}

std::int64_t NowMs() {
  return std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::system_clock::now().time_since_epoch())
      .count();
}

// A group and what replaces it in the log.
struct Swap {
  const DeltaGroup* group = nullptr;
  std::vector<delta::AddFile> adds;
};

// The merged files' sort keys: `sort_by` (the topic's) resolved on the table's columns, then
// found by field id among the files' (physical) columns. Delta has no sort order of its own.
std::vector<arrow::compute::SortKey> DeltaSortKeys(const delta::TableState& state, const schema::Schema& file_schema,
                                                   const std::vector<std::string>& sort_by) {
  if (sort_by.empty()) return {};
  auto order = schema::ParseSortOrder(sort_by, state.schema, 1);
  Status why = order.status();
  if (order.ok()) {
    auto keys = ArrowSortKeys(*order, file_schema);
    if (keys.ok()) return std::move(*keys);
    why = keys.status();
  }
  spdlog::info("compaction: merged files are not sorted: {}", why.ToString());
  return {};
}

Result<std::vector<Swap>> WriteDeltaMergedFiles(storage::FileIO& io, const delta::TableState& state,
                                                const std::vector<DeltaGroup>& groups,
                                                const std::vector<std::string>& sort_by) {
  const schema::Schema file_schema = FileSchema(state);
  FLOE_ASSIGN_OR_RETURN(auto arrow_schema, schema::ToArrowSchema(file_schema));
  const auto sort_keys = DeltaSortKeys(state, file_schema, sort_by);
  std::string root = io.Uri("x");  // the root as file URIs spell it, with its '/'
  root.pop_back();
  std::vector<Swap> swaps;
  for (const auto& group : groups) {
    std::vector<iceberg::DataFile> inputs;
    for (const auto& f : group.files) {
      iceberg::DataFile d;
      d.file_path = f.uri;
      d.record_count = f.rows;
      d.file_size_in_bytes = f.bytes;
      inputs.push_back(std::move(d));
    }
    MergeOutput output{&io, OutputDirectory(group), &file_schema, arrow_schema, 0, {}, group.rows_per_file, sort_keys, {}};
    FLOE_ASSIGN_OR_RETURN(auto merged, MergeDataFiles(inputs, output));
    Swap swap{&group, {}};
    for (const auto& m : merged) {
      delta::AddFile add;
      add.path = m.file_path.rfind(root, 0) == 0 ? m.file_path.substr(root.size()) : m.file_path;
      add.partition_values = group.partition_values;
      add.size = m.file_size_in_bytes;
      add.modification_time_ms = NowMs();
      FLOE_ASSIGN_OR_RETURN(auto footer, Footer(m.file_path));
      FLOE_ASSIGN_OR_RETURN(add.stats_json, delta::StatsJson(*footer, state.schema));
      swap.adds.push_back(std::move(add));
    }
    swaps.push_back(std::move(swap));
  }
  return swaps;
}

struct DeltaCommitted {
  std::int64_t version = 0;
  int attempts = 0;
  std::size_t files_after = 0;  // live adds of the version written
  std::vector<const Swap*> swaps;  // the groups the version took
};

// Writes the swaps as the next version; after losing put-if-absent, on the replayed log with
// the groups whose files are all still live (the others are given up).
Result<DeltaCommitted> CommitDeltaSwaps(storage::FileIO& io, delta::TableState state, const std::vector<Swap>& swaps,
                                        const CompactionOptions& options) {
  auto attempt = [&](int n) -> Result<std::optional<DeltaCommitted>> {
    if (n > 1) {
      FLOE_ASSIGN_OR_RETURN(state, delta::LoadState(io));
    }
    std::vector<const Swap*> taken;
    for (const auto& swap : swaps) {
      const auto& files = swap.group->files;
      if (std::all_of(files.begin(), files.end(), [&](const LiveFile& f) { return state.files.count(f.log_path) > 0; })) {
        taken.push_back(&swap);
      }
    }
    if (taken.empty()) return std::optional<DeltaCommitted>();
    delta::Commit commit;
    commit.operation = "OPTIMIZE";
    commit.data_change = false;
    commit.commit_info["floe.compaction"] = "bin-pack";
    for (const Swap* swap : taken) {
      for (const auto& f : swap->group->files) commit.removes.push_back(f.log_path);
      commit.adds.insert(commit.adds.end(), swap->adds.begin(), swap->adds.end());
    }
    if (n == 1 && options.before_first_commit) FLOE_RETURN_IF_ERROR(options.before_first_commit());
    FLOE_ASSIGN_OR_RETURN(auto version, delta::CommitVersion(io, state, commit));
    const std::size_t files_after = state.files.size() - commit.removes.size() + commit.adds.size();
    return std::optional<DeltaCommitted>(DeltaCommitted{version, n, files_after, std::move(taken)});
  };
  FLOE_ASSIGN_OR_RETURN(auto committed, RetryOnConflict(attempt, options.max_commit_attempts));
  if (!committed) {
    return Status::Conflict("the planned files of every partition are not live any more (another writer removed "
                            "them meanwhile); compact again to plan on the current version");
  }
  return std::move(*committed);
}

Result<DeltaCompactionReport> CompactDelta(storage::FileIO& io, const CompactionOptions& options) {
  FLOE_RETURN_IF_ERROR(CheckCompactionOptions(options));
  FLOE_ASSIGN_OR_RETURN(auto state, delta::LoadState(io));
  DeltaCompactionReport report;
  report.files_before = state.files.size();
  report.files_after = state.files.size();
  if (state.version < 0) return report;
  FLOE_RETURN_IF_ERROR(delta::CheckWritable(state.protocol, state.configuration, state.schema_string));
  FLOE_ASSIGN_OR_RETURN(auto groups, PlanDeltaGroups(io, state, options));
  if (groups.empty()) return report;
  if (options.dry_run) {
    for (const auto& group : groups) {
      report.added_files += static_cast<std::size_t>(MergedFileCount(group.rows, group.rows_per_file));
      report.bytes_rewritten += group.bytes;
      for (const auto& f : group.files) report.removed.push_back(f.log_path);
    }
    report.rewritten_files = report.removed.size();
    return report;
  }
  FLOE_ASSIGN_OR_RETURN(auto swaps, WriteDeltaMergedFiles(io, state, groups, options.sort_by));
  FLOE_ASSIGN_OR_RETURN(auto committed, CommitDeltaSwaps(io, std::move(state), swaps, options));
  for (const Swap* swap : committed.swaps) {
    for (const auto& f : swap->group->files) {
      report.removed.push_back(f.log_path);
      report.bytes_rewritten += f.bytes;
    }
    for (const auto& add : swap->adds) report.added.push_back(add.path);
  }
  report.rewritten_files = report.removed.size();
  report.added_files = report.added.size();
  report.partitions_given_up = swaps.size() - committed.swaps.size();
  report.version = committed.version;
  report.attempts = committed.attempts;
  report.files_after = committed.files_after;
  return report;
}

}  // namespace

Result<DeltaCompactionReport> CompactDeltaTable(storage::FileIO& table_root, const CompactionOptions& options) {
  auto report = CompactDelta(table_root, options);
  if (!report.ok()) return report.status().WithContext("compacting the Delta table at " + table_root.Uri(""));
  return report;
}

}  // namespace floe::maintenance
