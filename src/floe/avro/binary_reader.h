#pragma once
// BinaryReader: the primitive reads of the Avro binary encoding over one byte span.
//
// Every record of every topic goes through here, so the reads are inline and the common
// case (a one-byte varint, enough bytes left) is a couple of instructions. Every read is
// bounds-checked and returns a Status: corrupt or hostile input gives an error that says
// at which byte, never an out-of-bounds read. Error Statuses are built out of line
// (binary_reader.cc) so that the inline code stays small.
//
// Strictness, where the spec leaves room:
// - long: at most 10 varint bytes, and the 10th may only carry bit 63; int: at most 5
//   bytes, and the value must fit in 32 bits. Redundant zero continuation bytes within
//   those limits are accepted (the Java implementation accepts them too).
// - boolean: only the bytes 0 and 1.
// - bytes/string: a negative length or one past the end of the data is an error.
#include <bit>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <span>
#include <string_view>

#include "floe/core/result.h"

namespace floe::avro {

namespace reader_errors {
// "truncated Avro data at byte 17: a double needs 8 bytes, 3 left"
Status Truncated(std::size_t offset, std::string_view what, std::size_t needed, std::size_t left);
// "truncated Avro data at byte 17: the varint of a long ends after 2 bytes"
Status TruncatedVarint(std::size_t offset, std::string_view what, std::size_t got);
// "invalid Avro data at byte 17: <what>"
Status Invalid(std::size_t offset, std::string_view what);
}  // namespace reader_errors

class BinaryReader {
 public:
  BinaryReader(const std::uint8_t* data, std::size_t size) : data_(data), size_(size) {}
  explicit BinaryReader(std::span<const std::uint8_t> data) : BinaryReader(data.data(), data.size()) {}
  explicit BinaryReader(std::string_view data)
      : BinaryReader(reinterpret_cast<const std::uint8_t*>(data.data()), data.size()) {}

  std::size_t offset() const { return pos_; }
  std::size_t size() const { return size_; }
  std::size_t remaining() const { return size_ - pos_; }
  bool at_end() const { return pos_ == size_; }

  Status ReadLong(std::int64_t* out) {
    if (pos_ < size_ && data_[pos_] < 0x80) {  // values -64..63: the common case
      *out = ZigZag(data_[pos_++]);
      return Status::OK();
    }
    const std::size_t start = pos_;
    std::uint64_t v = 0;
    for (int i = 0; i < 10; ++i) {
      if (pos_ >= size_) return Fail(start, reader_errors::TruncatedVarint(start, "long", pos_ - start));
      const std::uint8_t b = data_[pos_++];
      v |= static_cast<std::uint64_t>(b & 0x7f) << (7 * i);
      if ((b & 0x80) == 0) {
        if (i == 9 && b > 1) return Fail(start, reader_errors::Invalid(start, "long varint overflows 64 bits"));
        *out = ZigZag(v);
        return Status::OK();
      }
    }
    return Fail(start, reader_errors::Invalid(start, "long varint is longer than 10 bytes"));
  }

  Status ReadInt(std::int32_t* out) {
    if (pos_ < size_ && data_[pos_] < 0x80) {
      *out = static_cast<std::int32_t>(ZigZag(data_[pos_++]));
      return Status::OK();
    }
    const std::size_t start = pos_;
    std::uint32_t v = 0;
    for (int i = 0; i < 5; ++i) {
      if (pos_ >= size_) return Fail(start, reader_errors::TruncatedVarint(start, "int", pos_ - start));
      const std::uint8_t b = data_[pos_++];
      v |= static_cast<std::uint32_t>(b & 0x7f) << (7 * i);
      if ((b & 0x80) == 0) {
        if (i == 4 && b > 0x0f) return Fail(start, reader_errors::Invalid(start, "int varint is out of 32-bit range"));
        *out = static_cast<std::int32_t>(ZigZag(v));
        return Status::OK();
      }
    }
    return Fail(start, reader_errors::Invalid(start, "int varint is longer than 5 bytes"));
  }

  Status ReadBoolean(bool* out) {
    if (pos_ >= size_) return reader_errors::Truncated(pos_, "a boolean", 1, 0);
    const std::uint8_t b = data_[pos_];
    if (b > 1) return reader_errors::Invalid(pos_, "boolean byte is " + std::to_string(b) + ", not 0 or 1");
    ++pos_;
    *out = b == 1;
    return Status::OK();
  }

  Status ReadFloat(float* out) {
    if (remaining() < 4) return reader_errors::Truncated(pos_, "a float", 4, remaining());
    *out = std::bit_cast<float>(LoadLittleEndian<std::uint32_t>());
    return Status::OK();
  }

  Status ReadDouble(double* out) {
    if (remaining() < 8) return reader_errors::Truncated(pos_, "a double", 8, remaining());
    *out = std::bit_cast<double>(LoadLittleEndian<std::uint64_t>());
    return Status::OK();
  }

  // The returned views point into the reader's data: valid as long as that is.
  Status ReadBytes(std::string_view* out) { return ReadLengthPrefixed("bytes", out); }
  Status ReadString(std::string_view* out) { return ReadLengthPrefixed("string", out); }

  Status ReadFixed(std::size_t n, std::string_view* out) {
    if (remaining() < n) return reader_errors::Truncated(pos_, "a fixed", n, remaining());
    *out = std::string_view(reinterpret_cast<const char*>(data_ + pos_), n);
    pos_ += n;
    return Status::OK();
  }

  Status Skip(std::size_t n) {
    if (remaining() < n) return reader_errors::Truncated(pos_, "skipped data", n, remaining());
    pos_ += n;
    return Status::OK();
  }

  // The same reads as values, for code off the hot path.
  Result<std::int64_t> ReadLong() { return AsResult<std::int64_t>(&BinaryReader::ReadLong); }
  Result<std::int32_t> ReadInt() { return AsResult<std::int32_t>(&BinaryReader::ReadInt); }
  Result<bool> ReadBoolean() { return AsResult<bool>(&BinaryReader::ReadBoolean); }
  Result<float> ReadFloat() { return AsResult<float>(&BinaryReader::ReadFloat); }
  Result<double> ReadDouble() { return AsResult<double>(&BinaryReader::ReadDouble); }
  Result<std::string_view> ReadBytes() { return AsResult<std::string_view>(&BinaryReader::ReadBytes); }
  Result<std::string_view> ReadString() { return AsResult<std::string_view>(&BinaryReader::ReadString); }
  Result<std::string_view> ReadFixed(std::size_t n) {
    std::string_view v;
    FLOE_RETURN_IF_ERROR(ReadFixed(n, &v));
    return v;
  }

 private:
  static std::int64_t ZigZag(std::uint64_t v) { return static_cast<std::int64_t>((v >> 1) ^ (0 - (v & 1))); }

  // A failed read leaves the offset where the value began.
  Status Fail(std::size_t start, Status s) {
    pos_ = start;
    return s;
  }

  template <typename U>
  U LoadLittleEndian() {
    U v = 0;
    for (std::size_t i = 0; i < sizeof(U); ++i) v |= static_cast<U>(data_[pos_ + i]) << (8 * i);  // folds to one load
    pos_ += sizeof(U);
    return v;
  }

  Status ReadLengthPrefixed(std::string_view what, std::string_view* out) {
    const std::size_t start = pos_;
    std::int64_t length = 0;
    FLOE_RETURN_IF_ERROR(ReadLong(&length));
    if (length < 0) {
      return Fail(start, reader_errors::Invalid(start, "negative length " + std::to_string(length) + " of " +
                                                           std::string(what)));
    }
    if (static_cast<std::uint64_t>(length) > remaining()) {
      return Fail(start, reader_errors::Truncated(start, std::string("a ") + std::string(what) + " value",
                                                  static_cast<std::size_t>(length), remaining()));
    }
    *out = std::string_view(reinterpret_cast<const char*>(data_ + pos_), static_cast<std::size_t>(length));
    pos_ += static_cast<std::size_t>(length);
    return Status::OK();
  }

  template <typename T>
  Result<T> AsResult(Status (BinaryReader::*fn)(T*)) {
    T v{};
    FLOE_RETURN_IF_ERROR((this->*fn)(&v));
    return v;
  }

  const std::uint8_t* data_;
  std::size_t size_;
  std::size_t pos_ = 0;
};

}  // namespace floe::avro
