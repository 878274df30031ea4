#pragma once
// Parsing of the human-written quantities in floe.yaml: durations ("10s", "500ms") and
// byte sizes ("128MiB", "64MB"). Strict: anything ambiguous is an error, not a guess.
#include <chrono>
#include <cstdint>
#include <string_view>

#include "floe/core/result.h"

namespace floe {

// Units: ms, s, m, h, d (e.g. "250ms", "10s", "5m", "1h", "7d"). A bare number is rejected because
// "10" could mean seconds or milliseconds.
Result<std::chrono::milliseconds> ParseDuration(std::string_view text);

// Units: B, KB/MB/GB (powers of 1000), KiB/MiB/GiB (powers of 1024); a bare number is bytes.
Result<std::int64_t> ParseByteSize(std::string_view text);

}  // namespace floe
