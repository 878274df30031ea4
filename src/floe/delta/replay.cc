// LoadState: the newest complete checkpoint plus every later JSON commit.
#include <nlohmann/json.hpp>

#include "floe/delta/actions_internal.h"
#include "floe/delta/checkpoint_internal.h"
#include "floe/delta/delta_log.h"
#include "floe/delta/log_store_internal.h"

namespace floe::delta {
namespace {

// The checkpoint to start from: _last_checkpoint's when it is listed complete (it is only a
// hint and may be stale or point at a half-written checkpoint), else the newest listed one.
Result<const std::pair<std::int64_t, std::vector<std::string>>*> ChooseCheckpoint(storage::FileIO& io,
                                                                                   const LogListing& listing) {
  using Entry = std::pair<std::int64_t, std::vector<std::string>>;
  if (listing.checkpoints.empty()) return static_cast<const Entry*>(nullptr);
  auto hint = ReadText(io, kLastCheckpoint);
  if (hint.ok()) {
    auto j = nlohmann::json::parse(*hint, nullptr, false);
    if (j.is_object() && j.contains("version") && j["version"].is_number_integer()) {
      const auto v = j["version"].get<std::int64_t>();
      for (const auto& c : listing.checkpoints) {
        if (c.first == v) return &c;
      }
    }
  } else if (hint.status().code() != StatusCode::kNotFound) {
    return hint.status();
  }
  return &listing.checkpoints.back();
}

}  // namespace

Result<TableState> LoadState(storage::FileIO& io) {
  FLOE_ASSIGN_OR_RETURN(auto listing, ListLog(io));
  TableState state;
  if (listing.commits.empty() && listing.checkpoints.empty()) return state;
  FLOE_ASSIGN_OR_RETURN(auto checkpoint, ChooseCheckpoint(io, listing));
  std::int64_t version = -1;
  if (checkpoint) {
    FLOE_RETURN_IF_ERROR(ReadCheckpoint(io, checkpoint->second, state));
    version = checkpoint->first;
  }
  for (const std::int64_t v : listing.commits) {
    if (v <= version) continue;
    // A gap means a commit file was lost (or is still being listed by an eventually
    // consistent store): replaying past it would silently drop its actions.
    if (v != version + 1) {
      return Status::InvalidArgument("Delta log at " + io.Uri(kLogDir) + " has no commit " +
                                     std::to_string(version + 1) + " but has " + std::to_string(v));
    }
    const std::string name = CommitFileName(v);
    FLOE_ASSIGN_OR_RETURN(auto text, ReadText(io, name));
    FLOE_RETURN_IF_ERROR(ApplyCommitFile(state, text, name));
    version = v;
  }
  state.version = version;
  if (state.metadata_action.is_null()) {
    return Status::InvalidArgument("Delta log at " + io.Uri(kLogDir) + " has no metaData action up to version " +
                                   std::to_string(version));
  }
  return state;
}

}  // namespace floe::delta
