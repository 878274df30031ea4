#include "floe/core/uuid.h"

#include <array>
#include <cstdint>
#include <random>

namespace floe {

std::string NewUuid() {
  // One generator per thread, seeded with 256 bits from the OS: no lock, and no two threads
  // (or processes) on the same sequence.
  static thread_local std::mt19937_64 rng = [] {
    std::random_device device;
    std::seed_seq seed{device(), device(), device(), device(), device(), device(), device(), device()};
    return std::mt19937_64(seed);
  }();
  std::array<unsigned char, 16> b{};
  const std::uint64_t hi = rng();
  const std::uint64_t lo = rng();
  for (int i = 0; i < 8; ++i) {
    b[i] = static_cast<unsigned char>(hi >> (8 * i));
    b[8 + i] = static_cast<unsigned char>(lo >> (8 * i));
  }
  b[6] = static_cast<unsigned char>((b[6] & 0x0f) | 0x40);  // version 4
  b[8] = static_cast<unsigned char>((b[8] & 0x3f) | 0x80);  // RFC 4122 variant
  static constexpr char kHex[] = "0123456789abcdef";
  std::string out;
  out.reserve(36);
  for (int i = 0; i < 16; ++i) {
    if (i == 4 || i == 6 || i == 8 || i == 10) out.push_back('-');
    out.push_back(kHex[b[i] >> 4]);
    out.push_back(kHex[b[i] & 0x0f]);
  }
  return out;
}

}  // namespace floe
