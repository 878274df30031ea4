#pragma once
// A nesting bound for JSON that comes from outside Floe (registry answers, schemas, table
// metadata, Delta commits, REST requests). nlohmann parses iteratively, but copying,
// comparing and serializing a value recurse once per level, so a 100,000-deep document would
// overflow the stack later, far from where it came in. Such text is refused before it is
// parsed. Real documents nest a few dozen levels; the schema parsers' own limits (Iceberg and
// Avro types: 128 levels, a few JSON levels each) fit well under this one.
#include <string_view>

#include "floe/core/status.h"

namespace floe {

inline constexpr int kMaxJsonDepth = 1000;

// The deepest nesting of objects and arrays in `text` (strings skipped, escapes honoured), or
// the first depth past `limit` once it gets there. Malformed text is measured as far as it goes.
int JsonNestingDepth(std::string_view text, int limit = kMaxJsonDepth);

// OK, or kInvalidArgument "<what> nests deeper than 1000 levels".
Status CheckJsonDepth(std::string_view text, std::string_view what);

}  // namespace floe
