#include "floe/registry/wire_format.h"

#include <string>

namespace floe::registry {

Result<FramedPayload> ParseWireFormat(std::string_view message) {
  if (message.size() < kHeaderSize) {
    return Status::InvalidArgument("not in Confluent wire format: " + std::to_string(message.size()) +
                                   " bytes, the header alone is 5 (magic byte 0 + 4-byte schema id)");
  }
  const auto* b = reinterpret_cast<const unsigned char*>(message.data());
  if (b[0] != kMagicByte) {
    return Status::InvalidArgument("not in Confluent wire format: magic byte is " + std::to_string(b[0]) +
                                   ", expected 0");
  }
  const std::uint32_t id = (std::uint32_t{b[1]} << 24) | (std::uint32_t{b[2]} << 16) |
                           (std::uint32_t{b[3]} << 8) | std::uint32_t{b[4]};
  if (id > 0x7fffffffu) {
    return Status::InvalidArgument("not in Confluent wire format: schema id " + std::to_string(id) +
                                   " is out of range");
  }
  return FramedPayload{static_cast<std::int32_t>(id), message.substr(kHeaderSize)};
}

}  // namespace floe::registry
