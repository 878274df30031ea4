#pragma once
// Text forms of JSON scalars that are not JSON types: RFC 3339 dates and times, base64, and
// decimals read through a double. Each returns nothing (or an error saying why) when the text
// breaks its rule; none throws or reads past the view.
#include <arrow/util/decimal.h>

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "floe/core/result.h"

namespace floe::json::internal {

// RFC 3339 date-time: YYYY-MM-DD('T'|'t'|' ')hh:mm:ss[.fraction]('Z'|'z'|±hh:mm), as
// microseconds since the epoch, UTC. Fraction digits past microseconds are dropped (tables
// store microseconds); leap seconds (ss = 60) are refused.
std::optional<std::int64_t> ParseDateTimeMicros(std::string_view text);

// RFC 3339 full-date YYYY-MM-DD, as days since the epoch.
std::optional<std::int32_t> ParseDateDays(std::string_view text);

// RFC 3339 partial-time hh:mm:ss[.fraction] with an optional offset, as microseconds since
// midnight in UTC (an offset shifts the time of day, modulo 24 hours).
std::optional<std::int64_t> ParseTimeMicros(std::string_view text);

// Standard base64 (RFC 4648 §4), padding optional; no whitespace or URL-safe alphabet.
std::optional<std::string> DecodeBase64(std::string_view text);

// A JSON number read as a double, as decimal(precision, scale). The shortest text that reads
// back as the same double is the number the producer wrote whenever that had at most 15
// significant digits; a value that needs more than 15 is refused (it may not be what was
// written), and so is one with more fraction digits than `scale` or more than `precision`
// digits.
Result<arrow::Decimal128> DecimalFromDouble(double value, int precision, int scale);

// Big-endian two's-complement unscaled bytes (Connect's Decimal), checked against precision.
Result<arrow::Decimal128> DecimalFromBytes(std::string_view bytes, int precision);

}  // namespace floe::json::internal
