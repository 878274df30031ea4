#pragma once
// Records an operator skipped, as a commit records them: Iceberg in the snapshot summary,
// Delta in commitInfo, both under the key "floe.skipped" with the value
// {"<topic>": {"<partition>": [offset, …]}} as a JSON string (docs/admin-api.md, "skip").
#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "floe/sink/table_sink.h"

namespace floe::sink {

inline constexpr std::string_view kSkippedRecordsKey = "floe.skipped";

// The value for the flushes at `taken` (the ones the commit covers); nullopt when none of them
// carries a skip, so ordinary commits keep their summary as it was.
std::optional<std::string> SkippedRecordsJson(const std::vector<PartitionFlush>& flushes,
                                              const std::vector<std::size_t>& taken);

}  // namespace floe::sink
