#pragma once
// Turning wire values into the values the columns hold: integer kinds, enum names, map keys and
// the well-known types (Timestamp, Duration, Date, Decimal). Shared by the decode plan's run
// and its compiler; private to the module.
#include <arrow/util/decimal.h>

#include <array>
#include <cstdint>
#include <string>

#include "floe/core/result.h"
#include "floe/proto/decode_plan_internal.h"
#include "floe/proto/wire_reader_internal.h"

namespace floe::proto::internal {

// The wire type one value of a kind is written with.
std::uint8_t WireOf(Kind k);

// Varint/fixed bits as the column's integer, with libprotobuf's truncation: an int32 written
// as a 64-bit varint keeps its low 32 bits, as do uint32 values.
inline std::int32_t AsInt32(Kind kind, std::uint64_t bits) {
  if (kind == Kind::kSInt32) return ZigZag32(static_cast<std::uint32_t>(bits));
  return static_cast<std::int32_t>(static_cast<std::uint32_t>(bits));
}
inline std::int64_t AsInt64(Kind kind, std::uint64_t bits) {
  switch (kind) {
    case Kind::kSInt64: return ZigZag64(bits);
    case Kind::kUInt32: case Kind::kFixed32: return static_cast<std::int64_t>(static_cast<std::uint32_t>(bits));
    default: return static_cast<std::int64_t>(bits);
  }
}

// A map key's value, so that two encodings of one key compare equal (string keys: 0, the
// text decides).
std::uint64_t NormalizedKey(Kind kind, std::uint64_t bits);

// The name of an enum number, or null when the enum does not declare it.
const std::string* EnumName(const EnumNames& names, std::int32_t number);

// Wire types of fields 1..3 of a well-known type (0xff: not a field of it); [0] is unused.
std::array<std::uint8_t, 4> WellknownWires(const Field& field);

struct WellknownValue {
  std::int64_t integer = 0;   // Timestamp: micros since epoch; Duration: micros; Date: days since epoch
  arrow::Decimal128 decimal;  // Decimal, at the column's scale
};
// `got[n]` is field n's last value (when `has[n]`). Values a column cannot hold exactly are
// kInvalidArgument saying why.
Result<WellknownValue> ConvertWellknown(const Field& field, const std::array<Occurrence, 4>& got,
                                        const std::array<bool, 4>& has);

}  // namespace floe::proto::internal
