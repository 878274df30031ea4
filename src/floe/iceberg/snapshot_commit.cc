#include <charconv>

#include "floe/core/uuid.h"
#include "floe/iceberg/snapshot_commit_internal.h"
#include "floe/storage/file_io.h"

namespace floe::iceberg {

Result<Snapshot> WriteChildSnapshot(const TableMetadata& base, const Snapshot* parent, std::int64_t snapshot_id,
                                    std::int64_t sequence, std::string_view operation,
                                    const std::vector<ManifestFile>& manifests) {
  FLOE_ASSIGN_OR_RETURN(auto io, storage::FileIO::Open(base.location));
  const std::string list_path = "metadata/snap-" + std::to_string(snapshot_id) + "-1-" + floe::NewUuid() + ".avro";
  const std::optional<std::int64_t> parent_id =
      parent ? std::optional<std::int64_t>(parent->snapshot_id) : std::nullopt;
  FLOE_RETURN_IF_ERROR(WriteManifestList(io, list_path, snapshot_id, parent_id, sequence, manifests));
  Snapshot snapshot;
  snapshot.snapshot_id = snapshot_id;
  snapshot.parent_snapshot_id = parent_id;
  snapshot.sequence_number = sequence;
  snapshot.timestamp_ms = NowMillis();
  snapshot.manifest_list = io.Uri(list_path);
  snapshot.schema_id = base.current_schema_id;
  snapshot.summary[std::string(kSummaryOperation)] = std::string(operation);
  return snapshot;
}

std::optional<std::int64_t> SummaryCount(const Snapshot& snapshot, std::string_view key) {
  auto text = snapshot.SummaryValue(key);
  if (!text) return std::nullopt;
  std::int64_t v = 0;
  auto [end, ec] = std::from_chars(text->data(), text->data() + text->size(), v);
  if (ec != std::errc() || end != text->data() + text->size() || v < 0) return std::nullopt;
  return v;
}

}  // namespace floe::iceberg
