#pragma once
// Applying log actions to a TableState: one code path for JSON commits, checkpoint rows
// (converted to the same JSON shape) and the actions a commit is about to write.
#include <nlohmann/json.hpp>

#include <string>

#include "floe/core/result.h"
#include "floe/delta/delta_log.h"

namespace floe::delta {

// `action` is one line of a commit ({"add": {…}}, …). `where` names the file (and line)
// for errors. Unknown actions (cdc, domainMetadata, sidecar, …) are ignored: they do not
// change what Floe needs from a table.
Status ApplyAction(TableState& state, const nlohmann::json& action, const std::string& where);

// The body of a protocol action, as commits and checkpoints write it: the feature lists
// only with the versions that carry them (reader 3, writer 7).
nlohmann::json ProtocolJson(const Protocol& p);

// Every action of one JSON commit file.
Status ApplyCommitFile(TableState& state, const std::string& text, const std::string& where);

}  // namespace floe::delta
