#pragma once
// A single typed value in Iceberg's physical representation: partition values, defaults.
#include <cstdint>
#include <optional>
#include <string>
#include <variant>

namespace floe::schema {

// boolean → bool; int/date → int32; long/time/timestamps → int64 (micros or nanos);
// float/double; string/binary/fixed/uuid/decimal (unscaled big-endian bytes) → std::string.
using Literal = std::variant<bool, std::int32_t, std::int64_t, float, double, std::string>;
using PartitionValue = std::optional<Literal>;  // nullopt = null

}  // namespace floe::schema
