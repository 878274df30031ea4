#pragma once
// Confluent's Protobuf framing after the magic byte and the schema id (registry/wire_format.h
// reads those): the message-index array that says which message of the schema's file the
// record is, then the message bytes.
//
//   count (zig-zag varint) · count indexes (zig-zag varints) · message
//
// [0] = the file's first top-level message; [1, 0] = the first nested message of the second
// top-level message. The common case [0] is written as the single byte 0 (count 0). Rules
// (each broken one is kInvalidArgument naming it): varints are complete and at most 10 bytes;
// the count is not negative and at most kMaxMessageIndexes; no index is negative or beyond 32
// bits.
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "floe/core/result.h"

namespace floe::proto {

// Deeper message nesting than this is refused (libprotobuf's recursion limit): a count past
// it is a corrupt or hostile record, not a schema.
inline constexpr std::int64_t kMaxMessageIndexes = 100;

struct MessageIndexes {
  std::vector<std::int32_t> indexes;  // never empty: count 0 reads as [0]
  std::string_view message;           // the rest of the payload: the message bytes
};

// `payload` starts right after the 4-byte schema id.
Result<MessageIndexes> ParseMessageIndexes(std::string_view payload);

// The framing for `indexes` ([0] as the single byte 0), for producers and tests.
std::string EncodeMessageIndexes(const std::vector<std::int32_t>& indexes);

}  // namespace floe::proto
