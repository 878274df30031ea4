#pragma once
// BinaryWriter: the primitive writes of the Avro binary encoding, appended to one growing
// byte string. The mirror of BinaryReader; used for Iceberg manifests and manifest lists
// (ContainerFileWriter) and anywhere Floe produces Avro.
//
// The writer knows no schema: the caller writes the values in the order the schema lays
// them out (a record's fields in order, nothing for null, the branch index before a union
// value, ...). Appends cannot fail except by running out of memory, so they return
// nothing. The common cases (a one-byte varint, a short string) are inline.
//
// Arrays and maps are written as blocks: WriteBlockCount(n) and then n items (n key/value
// pairs for maps), as many blocks as wanted, and WriteBlockCount(0) to end:
//   w.WriteBlockCount(2); w.WriteLong(1); w.WriteLong(2); w.WriteBlockCount(0);   // [1, 2]
//   w.WriteBlockCount(0);                                                         // []
#include <bit>
#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <utility>

namespace floe::avro {

class BinaryWriter {
 public:
  BinaryWriter() = default;

  void WriteNull() {}
  void WriteBoolean(bool v) { out_.push_back(v ? '\x01' : '\x00'); }
  void WriteInt(std::int32_t v) { WriteLong(v); }  // ints and longs share the zig-zag varint
  void WriteLong(std::int64_t v) {
    const std::uint64_t z = (static_cast<std::uint64_t>(v) << 1) ^ static_cast<std::uint64_t>(v >> 63);
    if (z < 0x80) {
      out_.push_back(static_cast<char>(z));
    } else {
      WriteVarint(z);
    }
  }
  void WriteFloat(float v) { WriteLittleEndian(std::bit_cast<std::uint32_t>(v)); }
  void WriteDouble(double v) { WriteLittleEndian(std::bit_cast<std::uint64_t>(v)); }

  // Length-prefixed. Strings are written as given: the caller passes valid UTF-8.
  void WriteBytes(std::string_view v) {
    WriteLong(static_cast<std::int64_t>(v.size()));
    out_.append(v);
  }
  void WriteBytes(std::span<const std::uint8_t> v) {
    WriteBytes(std::string_view(reinterpret_cast<const char*>(v.data()), v.size()));
  }
  void WriteString(std::string_view v) { WriteBytes(v); }
  // Exactly the schema's size of bytes, no length (the caller passes that many).
  void WriteFixed(std::string_view v) { out_.append(v); }
  void WriteEnum(std::int32_t symbol_index) { WriteInt(symbol_index); }
  void WriteUnionBranch(std::int64_t branch_index) { WriteLong(branch_index); }
  // n > 0: a block of n items follows; 0 ends the array or map.
  void WriteBlockCount(std::int64_t n) { WriteLong(n); }
  // Bytes that are already Avro binary (e.g. a datum encoded elsewhere).
  void WriteRaw(std::string_view encoded) { out_.append(encoded); }

  std::string_view data() const { return out_; }
  std::size_t size() const { return out_.size(); }
  bool empty() const { return out_.empty(); }
  // Empties the writer but keeps its capacity, so a reused writer does not reallocate.
  void clear() { out_.clear(); }
  void reserve(std::size_t n) { out_.reserve(n); }
  // Drops everything after the first `size` bytes (e.g. a datum given up half-written).
  void Truncate(std::size_t size) {
    if (size < out_.size()) out_.resize(size);
  }
  // Hands the bytes over and leaves the writer empty.
  std::string Release() { return std::exchange(out_, std::string()); }

 private:
  void WriteVarint(std::uint64_t z);  // out of line: two or more bytes

  template <typename U>
  void WriteLittleEndian(U v) {
    char b[sizeof(U)];
    for (std::size_t i = 0; i < sizeof(U); ++i) b[i] = static_cast<char>(v >> (8 * i));  // folds to one store
    out_.append(b, sizeof(U));
  }

  std::string out_;
};

}  // namespace floe::avro
