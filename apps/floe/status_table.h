#pragma once
// `floe status` as plain text: GET /status (docs/admin-api.md) rendered as a table of topics
// and their partitions — state, lag, freshness, last commit, rate, error — with a text progress
// bar for a topic that is catching up. Pure, so it is unit-tested on JSON alone.
#include <string>

#include <nlohmann/json.hpp>

namespace floe::cli {

std::string RenderStatusTable(const nlohmann::json& status);

// "[########------------]" for a share in [0, 100], `width` cells inside the brackets.
std::string ProgressBar(double percent, int width = 20);

// "45 s", "3 m 20 s", "2 h 5 m", "3 d 4 h": durations as a person reads them.
std::string HumanSeconds(double seconds);

}  // namespace floe::cli
