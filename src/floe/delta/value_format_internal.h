#pragma once
// Delta's text forms of dates and timestamps, shared by statistics and partition values.
#include <cstdint>
#include <string>

namespace floe::delta {

std::string FormatDate(std::int32_t days_since_epoch);                  // 2026-01-31
// 2026-01-31T12:00:00.123Z (utc) or 2026-01-31T12:00:00.123 (timestamp_ntz): statistics.
std::string FormatTimestampMillis(std::int64_t millis, bool utc);
// 2026-01-31 12:00:00.123456 (Delta's partition value form; no zone, UTC for timestamp).
std::string FormatPartitionTimestamp(std::int64_t micros);

}  // namespace floe::delta
