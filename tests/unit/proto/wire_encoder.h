#pragma once
// Hand-made Protobuf wire bytes for tests: what DynamicMessage would never write (wrong wire
// types, truncations, duplicates, interleaved and packed fields, groups).
#include <cstdint>
#include <cstring>
#include <string>

namespace floe::proto::testing {

class WireEncoder {
 public:
  WireEncoder& Varint(std::uint64_t v) {
    while (v >= 0x80) {
      out_.push_back(static_cast<char>((v & 0x7f) | 0x80));
      v >>= 7;
    }
    out_.push_back(static_cast<char>(v));
    return *this;
  }
  WireEncoder& Tag(std::uint32_t number, std::uint8_t wire) { return Varint((std::uint64_t{number} << 3) | wire); }
  WireEncoder& VarintField(std::uint32_t number, std::uint64_t v) { return Tag(number, 0).Varint(v); }
  WireEncoder& SInt(std::uint32_t number, std::int64_t v) {
    return VarintField(number, (static_cast<std::uint64_t>(v) << 1) ^ static_cast<std::uint64_t>(v >> 63));
  }
  WireEncoder& Fixed32(std::uint32_t number, std::uint32_t v) {
    Tag(number, 5);
    out_.append(reinterpret_cast<const char*>(&v), 4);
    return *this;
  }
  WireEncoder& Fixed64(std::uint32_t number, std::uint64_t v) {
    Tag(number, 1);
    out_.append(reinterpret_cast<const char*>(&v), 8);
    return *this;
  }
  WireEncoder& Float(std::uint32_t number, float f) {
    std::uint32_t bits = 0;
    std::memcpy(&bits, &f, 4);
    return Fixed32(number, bits);
  }
  WireEncoder& Double(std::uint32_t number, double d) {
    std::uint64_t bits = 0;
    std::memcpy(&bits, &d, 8);
    return Fixed64(number, bits);
  }
  WireEncoder& Bytes(std::uint32_t number, const std::string& bytes) {
    Tag(number, 2).Varint(bytes.size());
    out_ += bytes;
    return *this;
  }
  WireEncoder& Message(std::uint32_t number, const WireEncoder& m) { return Bytes(number, m.str()); }
  WireEncoder& Raw(const std::string& bytes) {
    out_ += bytes;
    return *this;
  }
  const std::string& str() const { return out_; }

 private:
  std::string out_;
};

}  // namespace floe::proto::testing
