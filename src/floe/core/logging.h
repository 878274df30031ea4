#pragma once
// Logging goes through spdlog; this sets it up once per process (stderr, level, format).
#include <string_view>

#include "floe/core/status.h"

namespace floe {

// level: trace, debug, info, warn, error, off.
Status InitLogging(std::string_view level);

}  // namespace floe
