#pragma once
// A tiny Avro binary encoder for tests: writes datums by hand, value by value, in the
// order the schema lays them out. Deliberately separate from the decoder's code (and
// simple enough to check by eye) so that a test compares two independent readings of
// the spec; golden_datum_test.cc adds bytes from the reference implementation.
#include <bit>
#include <cstdint>
#include <string>
#include <string_view>

namespace floe::avro::testing {

class AvroTestEncoder {
 public:
  AvroTestEncoder& Boolean(bool v) { return Byte(v ? 1 : 0); }
  AvroTestEncoder& Int(std::int32_t v) { return Long(v); }  // ints and longs share the zig-zag varint
  AvroTestEncoder& Long(std::int64_t v) {
    auto z = (static_cast<std::uint64_t>(v) << 1) ^ static_cast<std::uint64_t>(v >> 63);
    while (z >= 0x80) {
      Byte(static_cast<std::uint8_t>(z | 0x80));
      z >>= 7;
    }
    return Byte(static_cast<std::uint8_t>(z));
  }
  AvroTestEncoder& Float(float v) { return LittleEndian(std::bit_cast<std::uint32_t>(v), 4); }
  AvroTestEncoder& Double(double v) { return LittleEndian(std::bit_cast<std::uint64_t>(v), 8); }
  AvroTestEncoder& Bytes(std::string_view v) {
    Long(static_cast<std::int64_t>(v.size()));
    return Raw(v);
  }
  AvroTestEncoder& String(std::string_view v) { return Bytes(v); }
  AvroTestEncoder& Fixed(std::string_view v) { return Raw(v); }
  AvroTestEncoder& Enum(std::int32_t index) { return Int(index); }
  AvroTestEncoder& Branch(std::int64_t index) { return Long(index); }

  // Arrays and maps: Count(n), n items, ..., End(). SizedBlock writes the negative-count
  // form with the block's byte size, as writers that allow skipping do.
  AvroTestEncoder& Count(std::int64_t n) { return Long(n); }
  AvroTestEncoder& SizedBlock(std::int64_t n, const AvroTestEncoder& items) {
    Long(-n);
    Long(static_cast<std::int64_t>(items.bytes().size()));
    return Raw(items.bytes());
  }
  AvroTestEncoder& End() { return Long(0); }

  AvroTestEncoder& Raw(std::string_view v) {
    out_.append(v);
    return *this;
  }
  AvroTestEncoder& Byte(std::uint8_t b) {
    out_.push_back(static_cast<char>(b));
    return *this;
  }

  const std::string& bytes() const { return out_; }

 private:
  AvroTestEncoder& LittleEndian(std::uint64_t v, int n) {
    for (int i = 0; i < n; ++i) Byte(static_cast<std::uint8_t>(v >> (8 * i)));
    return *this;
  }
  std::string out_;
};

// Big-endian two's complement of v in exactly n bytes (sign-extended): decimals on fixed.
inline std::string BigEndian(std::int64_t v, int n) {
  std::string out(static_cast<std::size_t>(n), '\0');
  for (int i = 0; i < n; ++i) {
    const int shift = 8 * (n - 1 - i);
    out[static_cast<std::size_t>(i)] =
        static_cast<char>(shift >= 64 ? (v < 0 ? 0xff : 0x00) : static_cast<std::uint8_t>(v >> shift));
  }
  return out;
}

// The shortest big-endian two's complement of v: decimals on bytes, as Java writes them.
inline std::string MinimalBigEndian(std::int64_t v) {
  for (int n = 1; n < 8; ++n) {
    const std::int64_t lo = -(std::int64_t{1} << (8 * n - 1));
    const std::int64_t hi = (std::int64_t{1} << (8 * n - 1)) - 1;
    if (v >= lo && v <= hi) return BigEndian(v, n);
  }
  return BigEndian(v, 8);
}

inline std::string FromHex(std::string_view hex) {
  auto nibble = [](char c) { return c <= '9' ? c - '0' : (c | 0x20) - 'a' + 10; };
  std::string out;
  for (std::size_t i = 0; i + 1 < hex.size(); i += 2) {
    out.push_back(static_cast<char>(nibble(hex[i]) * 16 + nibble(hex[i + 1])));
  }
  return out;
}

}  // namespace floe::avro::testing
