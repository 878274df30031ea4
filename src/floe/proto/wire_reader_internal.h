#pragma once
// The protobuf wire format at its lowest level: varints, fixed-width values, tags, lengths and
// skipping. Shared by the Confluent framing (wire_format.cc) and the decode plan; private to
// the module.
//
// Every read is bounds-checked against the end the reader was given, and errors name the rule
// and the byte offset from the start of the payload (`base`), so that an operator can find the
// broken byte in a dumped record.
#include <cstdint>
#include <cstring>
#include <string>
#include <string_view>

#include "floe/core/result.h"

namespace floe::proto::internal {

// Wire types (protobuf encoding spec).
inline constexpr std::uint8_t kVarint = 0;
inline constexpr std::uint8_t kFixed64 = 1;
inline constexpr std::uint8_t kLengthDelimited = 2;
inline constexpr std::uint8_t kStartGroup = 3;
inline constexpr std::uint8_t kEndGroup = 4;
inline constexpr std::uint8_t kFixed32 = 5;

// libprotobuf's default recursion limit: messages and groups nested deeper are refused, so a
// hostile payload cannot exhaust the stack.
inline constexpr int kMaxDepth = 100;

const char* WireTypeName(std::uint8_t wire);

class WireReader {
 public:
  WireReader(const char* begin, const char* end, const char* base) : p_(begin), end_(end), base_(base) {}
  WireReader(std::string_view bytes, const char* base) : WireReader(bytes.data(), bytes.data() + bytes.size(), base) {}
  explicit WireReader(std::string_view bytes) : WireReader(bytes, bytes.data()) {}

  bool at_end() const { return p_ >= end_; }
  std::size_t offset() const { return static_cast<std::size_t>(p_ - base_); }
  std::size_t remaining() const { return static_cast<std::size_t>(end_ - p_); }
  const char* position() const { return p_; }

  // A varint of at most 10 bytes whose value fits 64 bits.
  Status ReadVarint(std::uint64_t* v) {
    // The fast path: a one-byte varint (most tags, small ints, booleans).
    if (p_ < end_ && static_cast<std::uint8_t>(*p_) < 0x80) [[likely]] {
      *v = static_cast<std::uint8_t>(*p_++);
      return Status::OK();
    }
    return ReadVarintSlow(v);
  }
  Status ReadFixed32(std::uint32_t* v) {
    if (remaining() < 4) [[unlikely]] return Truncated("fixed32 value", 4);
    std::memcpy(v, p_, 4);  // little-endian on the wire and on every platform Floe builds for
    p_ += 4;
    return Status::OK();
  }
  Status ReadFixed64(std::uint64_t* v) {
    if (remaining() < 8) [[unlikely]] return Truncated("fixed64 value", 8);
    std::memcpy(v, p_, 8);
    p_ += 8;
    return Status::OK();
  }
  // A length prefix and that many bytes.
  Status ReadLengthDelimited(std::string_view* out);
  // A tag: field number (1..2^29-1) and wire type (0..5).
  Status ReadTag(std::uint32_t* number, std::uint8_t* wire);
  // Skips a value of the given wire type whose tag was just read. For a group, skips to its
  // matching end-group tag (nested groups included, up to kMaxDepth) and returns the group's
  // contents in *group (when not null).
  Status Skip(std::uint32_t number, std::uint8_t wire, int depth, std::string_view* group = nullptr);

  Status Invalid(std::size_t at, const std::string& rule) const;

 private:
  Status ReadVarintSlow(std::uint64_t* v);
  Status Truncated(const char* what, std::size_t needed) const;

  const char* p_;
  const char* end_;
  const char* base_;
};

inline std::int32_t ZigZag32(std::uint32_t n) { return static_cast<std::int32_t>((n >> 1) ^ (~(n & 1) + 1)); }
inline std::int64_t ZigZag64(std::uint64_t n) { return static_cast<std::int64_t>((n >> 1) ^ (~(n & 1) + 1)); }

}  // namespace floe::proto::internal
