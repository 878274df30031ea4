#pragma once
// Delta table properties that govern retention (PROTOCOL.md, "Metadata Cleanup", and the
// properties Delta's VACUUM reads), parsed from metaData.configuration.
#include <chrono>
#include <map>
#include <string>

#include "floe/core/result.h"

namespace floe::delta {

inline constexpr const char* kLogRetentionKey = "delta.logRetentionDuration";
inline constexpr const char* kDeletedFileRetentionKey = "delta.deletedFileRetentionDuration";
inline constexpr std::chrono::milliseconds kDefaultLogRetention = std::chrono::hours(24 * 30);
inline constexpr std::chrono::milliseconds kDefaultDeletedFileRetention = std::chrono::hours(24 * 7);

// Delta's interval strings: "interval <n> <unit>" (the word "interval" optional, case
// ignored), unit one of week(s), day(s), hour(s), minute(s), second(s), millisecond(s),
// microsecond(s) (rounded down to ms); n a non-negative integer. Anything else is
// kInvalidArgument naming the text.
Result<std::chrono::milliseconds> ParseInterval(const std::string& text);

// configuration[key] parsed, or `fallback` when the key is absent. A malformed value is
// kInvalidArgument naming the property (a cleanup must not guess a shorter window).
Result<std::chrono::milliseconds> RetentionProperty(const std::map<std::string, std::string>& configuration,
                                                    const std::string& key, std::chrono::milliseconds fallback);

// How long a checkpoint keeps a `remove` tombstone (PROTOCOL.md: tombstones expire after
// delta.deletedFileRetentionDuration): that window plus kTombstoneMargin, so that vacuum —
// which deletes a removed file once its tombstone is older than the window, every maintenance
// pass — has met every tombstone before a checkpoint drops it. Without expiry, a table
// compacted every few seconds carries every file it ever removed in each checkpoint.
// A malformed property: kInvalidArgument (the caller keeps every tombstone).
inline constexpr std::chrono::milliseconds kTombstoneMargin = std::chrono::hours(24);
Result<std::chrono::milliseconds> TombstoneExpiry(const std::map<std::string, std::string>& configuration);

}  // namespace floe::delta
