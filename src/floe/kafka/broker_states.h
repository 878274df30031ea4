#pragma once
// Whether librdkafka can reach any broker, from its statistics (STATISTICS.md: "brokers", each
// with "source" and "state"). librdkafka's own ALL_BROKERS_DOWN event is no such signal in a
// consumer group: it fires only when every known broker reports itself down, and the bootstrap
// broker, idle once the cluster's brokers are learned, never does, so a broker outage went
// unreported (docs/reliability.md). The statistics list every broker's connection state.
#include <string_view>

#include "floe/core/result.h"

namespace floe::kafka {

// True when at least one real broker (source "configured" or "learned"; the group
// coordinator's "logical" broker and the "internal" one are views of those) is in a connected
// state (UP, UPDATE or REAUTH). kInvalidArgument when the JSON is not librdkafka's statistics.
Result<bool> AnyBrokerUp(std::string_view statistics_json);

}  // namespace floe::kafka
