#include "floe/sink/delta_catch_up.h"

#include <parquet/file_reader.h>

#include <set>

#include "floe/core/percent_encoding.h"
#include "floe/core/retry.h"
#include "floe/iceberg/table_scan.h"
#include "floe/sink/delta_file_committer.h"
#include "floe/sink/delta_offsets.h"
#include "floe/sink/iceberg_offsets.h"

namespace floe::sink {

namespace {

// A data file written earlier, described as if just written: its footer is the source of the
// Delta stats.
Result<WrittenDataFile> DescribeExisting(storage::FileIO& io, const std::string& relative,
                                         const iceberg::DataFile& data) {
  FLOE_ASSIGN_OR_RETURN(auto file, io.OpenRead(relative));
  std::unique_ptr<parquet::ParquetFileReader> reader;
  try {
    reader = parquet::ParquetFileReader::Open(file);
  } catch (const std::exception& e) {
    return Status::IoError("reading the footer of " + relative + ": " + e.what());
  }
  WrittenDataFile out;
  out.relative_path = relative;
  out.partition = data.partition;
  out.written.metadata = reader->metadata();
  out.written.rows = out.written.metadata->num_rows();
  out.written.bytes = data.file_size_in_bytes;
  return out;
}

}  // namespace

Result<std::size_t> CatchUpDelta(const catalog::LoadedTable& table, DeltaSink& delta) {
  FLOE_RETURN_IF_ERROR(delta.schemas().SyncSchema(*table.metadata.CurrentSchema()));
  FLOE_ASSIGN_OR_RETURN(auto iceberg_offsets, CommittedOffsets(table.metadata));
  const auto want = DeltaTxnVersions(iceberg_offsets);
  std::size_t added = 0;
  auto outcome = RetryOnConflict([&](int) -> Status {
    added = 0;
    FLOE_ASSIGN_OR_RETURN(auto state, delta.LoadState());
    bool behind = false;
    for (const auto& [app, offset] : want) {
      auto it = state.txn_versions.find(app);
      behind |= it == state.txn_versions.end() || it->second != offset;
    }
    if (!behind) return Status::OK();

    std::set<std::string> in_delta;
    for (const auto& [path, action] : state.files) {
      FLOE_ASSIGN_OR_RETURN(auto decoded, PercentDecode(path));
      in_delta.insert(std::move(decoded));
    }
    FLOE_ASSIGN_OR_RETURN(auto live, iceberg::LiveDataFiles(table.metadata));
    std::string root = delta.io().Uri("x");  // the table root as data file URIs spell it, with its '/'
    root.pop_back();
    delta::Commit commit;
    commit.operation = "STREAMING UPDATE";
    commit.txns = want;
    for (const auto& data : live) {
      if (data.file_path.rfind(root, 0) != 0) continue;  // not under the table root: not Floe's
      const std::string relative = data.file_path.substr(root.size());
      if (in_delta.count(relative) > 0) continue;
      FLOE_ASSIGN_OR_RETURN(auto described, DescribeExisting(delta.io(), relative, data));
      FLOE_ASSIGN_OR_RETURN(auto add, DeltaFileCommitter::AddFileFor(state, described));
      commit.adds.push_back(std::move(add));
    }
    added = commit.adds.size();
    return delta::CommitVersion(delta.io(), state, commit).status();
  });
  if (!outcome.ok()) return outcome;
  return added;
}

}  // namespace floe::sink
