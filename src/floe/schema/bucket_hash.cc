// The bucket transform's hash: 32-bit MurmurHash3 (x86 variant, seed 0) over the value's
// byte form from the spec's Appendix B. Engines must agree bit for bit, or a reader would
// prune the bucket that holds the row.
#include <bit>
#include <cstdint>
#include <cstring>

#include "floe/schema/partition.h"

namespace floe::schema {
namespace {

constexpr std::uint32_t kC1 = 0xcc9e2d51;
constexpr std::uint32_t kC2 = 0x1b873593;

std::uint32_t LoadLittleEndian32(const unsigned char* p) {
  return static_cast<std::uint32_t>(p[0]) | static_cast<std::uint32_t>(p[1]) << 8 |
         static_cast<std::uint32_t>(p[2]) << 16 | static_cast<std::uint32_t>(p[3]) << 24;
}

std::uint32_t MixBlock(std::uint32_t k) {
  k *= kC1;
  k = std::rotl(k, 15);
  return k * kC2;
}

std::uint32_t FinalMix(std::uint32_t h) {
  h ^= h >> 16;
  h *= 0x85ebca6b;
  h ^= h >> 13;
  h *= 0xc2b2ae35;
  h ^= h >> 16;
  return h;
}

}  // namespace

std::int32_t Murmur3_32(std::string_view data) {
  const auto* bytes = reinterpret_cast<const unsigned char*>(data.data());
  const std::size_t n = data.size();
  std::uint32_t h = 0;  // the spec's seed
  std::size_t i = 0;
  for (; i + 4 <= n; i += 4) {
    h ^= MixBlock(LoadLittleEndian32(bytes + i));
    h = std::rotl(h, 13);
    h = h * 5 + 0xe6546b64;
  }
  // The 1-3 trailing bytes, little-endian, as a partial block.
  std::uint32_t tail = 0;
  for (std::size_t j = n - i; j > 0; --j) tail = (tail << 8) | bytes[i + j - 1];
  if (n - i > 0) h ^= MixBlock(tail);
  h ^= static_cast<std::uint32_t>(n);  // murmur3 mixes in the length modulo 2^32
  return std::bit_cast<std::int32_t>(FinalMix(h));
}

// Every integer-like type (int, long, date, time, timestamps) hashes as the 8 little-endian
// bytes of its value widened to long, so that promoting int to long keeps the buckets.
std::int32_t BucketHash(std::int64_t v) {
  unsigned char buf[8];
  auto u = std::bit_cast<std::uint64_t>(v);
  for (int i = 0; i < 8; ++i) buf[i] = static_cast<unsigned char>(u >> (8 * i));
  return Murmur3_32(std::string_view(reinterpret_cast<const char*>(buf), sizeof buf));
}

std::int32_t BucketHashBytes(std::string_view v) { return Murmur3_32(v); }

}  // namespace floe::schema
