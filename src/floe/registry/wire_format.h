#pragma once
// The Confluent wire format: byte 0 is the magic 0, bytes 1-4 the big-endian schema id,
// the rest the serialized payload (for Protobuf, message indexes come first; that part
// belongs to the Protobuf decoder).
#include <cstdint>
#include <string_view>

#include "floe/core/result.h"

namespace floe::registry {

inline constexpr std::uint8_t kMagicByte = 0;
inline constexpr std::size_t kHeaderSize = 5;

struct FramedPayload {
  std::int32_t schema_id;
  std::string_view payload;  // points into the caller's buffer
};

// Splits a record value into schema id and payload. Errors say which rule was broken
// (empty, too short, wrong magic byte, negative id) so the error policy can report it.
Result<FramedPayload> ParseWireFormat(std::string_view message);

}  // namespace floe::registry
