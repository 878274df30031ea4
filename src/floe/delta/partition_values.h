#pragma once
// Delta's partition value strings (PROTOCOL.md, "Partition Value Serialization") from the
// typed values Floe's partitioner computes.
#include <optional>
#include <string>

#include "floe/core/result.h"
#include "floe/schema/literal.h"
#include "floe/schema/types.h"

namespace floe::delta {

// nullopt for a null value. boolean "true"/"false", numbers in decimal, dates 2026-01-31,
// timestamps "2026-01-31 12:00:00.000000" (timestamptz as UTC wall time: Delta stores no
// zone in partition values), decimals with their scale, strings as they are. Binary, uuid
// and fixed partition columns are kUnsupported (Delta's escaped-binary form is not written).
Result<std::optional<std::string>> PartitionValueString(const schema::PartitionValue& value,
                                                        const schema::Type& type);

}  // namespace floe::delta
