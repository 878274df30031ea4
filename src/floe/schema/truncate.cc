// The truncate transform: integers and decimals round down to a multiple of the width
// (floor, so -1 truncates to -W, not 0); strings keep their first W code points.
#include <cstdint>
#include <string>

#include "floe/schema/partition.h"

namespace floe::schema {
namespace {

// Unscaled decimal(38) values need 127 bits; GCC's 128-bit integer holds them exactly.
__extension__ typedef __int128 Int128;
__extension__ typedef unsigned __int128 UInt128;

}  // namespace

std::int64_t TruncateInteger(std::int64_t v, int width) {
  const std::int64_t w = width;
  const std::int64_t remainder = ((v % w) + w) % w;
  // Near INT64_MIN the exact result is not representable; wrap like Java's long
  // arithmetic rather than invoke undefined behaviour.
  return static_cast<std::int64_t>(static_cast<std::uint64_t>(v) - static_cast<std::uint64_t>(remainder));
}

std::string TruncateUtf8(std::string_view v, int width) {
  if (width <= 0) return {};
  int code_points = 0;
  for (std::size_t i = 0; i < v.size(); ++i) {
    // A code point starts at every byte that is not a continuation byte (10xxxxxx).
    if ((static_cast<unsigned char>(v[i]) & 0xC0) != 0x80) {
      if (code_points == width) return std::string(v.substr(0, i));
      ++code_points;
    }
  }
  return std::string(v);
}

std::string MinimalDecimalBytes(std::string_view be) {
  if (be.empty()) return std::string(1, '\0');
  std::size_t start = 0;
  // A leading 0x00 (0xFF) byte is redundant when the next byte already has a clear (set)
  // sign bit.
  while (start + 1 < be.size()) {
    const auto b = static_cast<unsigned char>(be[start]);
    const auto next = static_cast<unsigned char>(be[start + 1]);
    if ((b == 0x00 && (next & 0x80) == 0) || (b == 0xFF && (next & 0x80) != 0)) {
      ++start;
    } else {
      break;
    }
  }
  return std::string(be.substr(start));
}

Result<std::string> TruncateDecimal(std::string_view unscaled_big_endian, int width) {
  if (width < 1) return Status::InvalidArgument("truncate width must be at least 1, got " + std::to_string(width));
  const std::string minimal = MinimalDecimalBytes(unscaled_big_endian);
  if (minimal.size() > 16) {
    return Status::InvalidArgument("a decimal's unscaled value has " + std::to_string(minimal.size()) +
                                   " significant bytes; Iceberg decimals have at most 16");
  }
  UInt128 bits = (static_cast<unsigned char>(minimal[0]) & 0x80) ? ~UInt128{0} : UInt128{0};  // sign-extend
  for (char c : minimal) bits = (bits << 8) | static_cast<unsigned char>(c);
  const auto v = static_cast<Int128>(bits);
  const Int128 w = width;
  const Int128 remainder = ((v % w) + w) % w;
  // |v| < 2^127 - 2^31 for every 16-byte minimal value except the extremes, which cannot
  // be decimal(38) values (10^38 < 2^127); wrap in unsigned arithmetic anyway, never UB.
  UInt128 out = static_cast<UInt128>(v) - static_cast<UInt128>(remainder);
  std::string bytes(16, '\0');
  for (int i = 15; i >= 0; --i) {
    bytes[static_cast<std::size_t>(i)] = static_cast<char>(static_cast<unsigned char>(out & 0xFF));
    out >>= 8;
  }
  return MinimalDecimalBytes(bytes);
}

}  // namespace floe::schema
