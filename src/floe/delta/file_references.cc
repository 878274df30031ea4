#include "floe/delta/file_references.h"

#include "floe/core/percent_encoding.h"

namespace floe::delta {

Result<std::string> DataFileUri(storage::FileIO& table_root, const std::string& log_path) {
  FLOE_ASSIGN_OR_RETURN(auto decoded, PercentDecode(log_path));
  // Absolute paths (PROTOCOL.md allows them: shallow clones, tables whose files live
  // elsewhere) are URIs already.
  if (decoded.find("://") != std::string::npos) return decoded;
  return table_root.Uri(decoded);
}

Result<FileReferences> ReferencedFiles(storage::FileIO& table_root, const TableState& state) {
  FileReferences out;
  out.version = state.version;
  for (const auto& [path, add] : state.files) {
    FLOE_ASSIGN_OR_RETURN(auto uri, DataFileUri(table_root, path));
    out.live.insert(std::move(uri));
  }
  for (const auto& [path, remove] : state.tombstones) {
    FLOE_ASSIGN_OR_RETURN(auto uri, DataFileUri(table_root, path));
    if (out.live.count(uri) > 0) continue;  // removed, then added again under another spelling
    const auto ts = remove.find("deletionTimestamp");
    out.removed[uri] = ts != remove.end() && ts->is_number_integer() ? ts->get<std::int64_t>() : 0;
  }
  return out;
}

Result<FileReferences> ReferencedFiles(storage::FileIO& table_root) {
  FLOE_ASSIGN_OR_RETURN(auto state, LoadState(table_root));
  return ReferencedFiles(table_root, state);
}

}  // namespace floe::delta
