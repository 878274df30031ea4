#pragma once
// Canonical text of a value, from a libprotobuf message (by the mapping rules of
// type_mapping.h, written independently of the decoder) and from an Arrow array, so that the
// two can be compared. Lists are [a,b], structs {a,b,}, maps <k:v,...> sorted by key.
#include <arrow/api.h>
#include <arrow/util/decimal.h>
#include <google/protobuf/descriptor.h>
#include <google/protobuf/message.h>

#include <algorithm>
#include <chrono>
#include <cstring>
#include <map>
#include <string>
#include <vector>

namespace floe::proto::testing {

namespace gp = google::protobuf;

// The scale of every confluent.type.Decimal field in the oracle schemas.
inline constexpr int kOracleDecimalScaleForCanon = 2;

inline std::string Hex(std::string_view bytes) {
  static constexpr char kDigits[] = "0123456789abcdef";
  std::string out = "x:";
  for (unsigned char c : bytes) out += std::string{kDigits[c >> 4], kDigits[c & 15]};
  return out;
}
template <typename F>
std::string FloatBits(F f) {
  std::uint64_t bits = 0;
  std::memcpy(&bits, &f, sizeof f);
  return (sizeof f == 4 ? "f:" : "d:") + std::to_string(bits);
}
inline std::string Quote(const std::string& s) { return "\"" + s + "\""; }
// GCC's 128-bit integers, an independent check of Arrow's Decimal128 arithmetic.
__extension__ typedef __int128 I128;
__extension__ typedef unsigned __int128 U128;

inline std::string Int128(I128 v) {
  if (v == 0) return "0";
  const bool negative = v < 0;
  std::string digits;
  for (U128 u = negative ? -static_cast<U128>(v) : static_cast<U128>(v); u != 0; u /= 10) digits.push_back(char('0' + int(u % 10)));
  if (negative) digits.push_back('-');
  std::reverse(digits.begin(), digits.end());
  return digits;
}

std::string CanonField(const gp::Message& m, const gp::FieldDescriptor* fd);

inline std::string CanonMessage(const gp::Message& m) {
  const gp::Descriptor* d = m.GetDescriptor();
  const gp::Reflection* r = m.GetReflection();
  auto i64 = [&](const char* name) { return r->GetInt64(m, d->FindFieldByName(name)); };
  auto i32 = [&](const char* name) { return r->GetInt32(m, d->FindFieldByName(name)); };
  const std::string& name = d->full_name();
  if (name == "google.protobuf.Timestamp" || name == "google.protobuf.Duration") {
    return std::to_string(i64("seconds") * 1000000 + i32("nanos") / 1000);
  }
  if (name == "google.type.Date") {
    using namespace std::chrono;
    const sys_days day{year{i32("year")} / month{static_cast<unsigned>(i32("month"))} / std::chrono::day{static_cast<unsigned>(i32("day"))}};
    return std::to_string(day.time_since_epoch().count());
  }
  if (name == "confluent.type.Decimal") {
    const std::string bytes = r->GetString(m, d->FindFieldByName("value"));
    I128 v = bytes.empty() || static_cast<signed char>(bytes[0]) >= 0 ? 0 : -1;
    for (unsigned char c : bytes) v = v * 256 + c;  // two's complement, big-endian
    if (v == 0) return "0";
    // The decoder rescales exactly or refuses; a value it accepted divides exactly here.
    for (int s = i32("scale"); s < kOracleDecimalScaleForCanon; ++s) v *= 10;
    for (int s = i32("scale"); s > kOracleDecimalScaleForCanon; --s) v /= 10;
    return Int128(v);
  }
  if (name.starts_with("google.protobuf.") && name.ends_with("Value") && d->field_count() == 1) {
    return CanonField(m, d->field(0));  // a wrapper is its value
  }
  std::string out = "{";
  for (int i = 0; i < d->field_count(); ++i) out += CanonField(m, d->field(i)) + ",";
  return out + "}";
}

// One value: the field's (singular) value, or element `index` of a repeated field.
inline std::string CanonValue(const gp::Message& m, const gp::FieldDescriptor* fd, int index) {
  const gp::Reflection* r = m.GetReflection();
  const bool rep = index >= 0;
  switch (fd->cpp_type()) {
    case gp::FieldDescriptor::CPPTYPE_INT32: return std::to_string(rep ? r->GetRepeatedInt32(m, fd, index) : r->GetInt32(m, fd));
    case gp::FieldDescriptor::CPPTYPE_INT64: return std::to_string(rep ? r->GetRepeatedInt64(m, fd, index) : r->GetInt64(m, fd));
    case gp::FieldDescriptor::CPPTYPE_UINT32: return std::to_string(rep ? r->GetRepeatedUInt32(m, fd, index) : r->GetUInt32(m, fd));
    case gp::FieldDescriptor::CPPTYPE_UINT64: return std::to_string(rep ? r->GetRepeatedUInt64(m, fd, index) : r->GetUInt64(m, fd));
    case gp::FieldDescriptor::CPPTYPE_BOOL: return (rep ? r->GetRepeatedBool(m, fd, index) : r->GetBool(m, fd)) ? "true" : "false";
    case gp::FieldDescriptor::CPPTYPE_FLOAT: return FloatBits(rep ? r->GetRepeatedFloat(m, fd, index) : r->GetFloat(m, fd));
    case gp::FieldDescriptor::CPPTYPE_DOUBLE: return FloatBits(rep ? r->GetRepeatedDouble(m, fd, index) : r->GetDouble(m, fd));
    case gp::FieldDescriptor::CPPTYPE_STRING: {
      const std::string s = rep ? r->GetRepeatedString(m, fd, index) : r->GetString(m, fd);
      return fd->type() == gp::FieldDescriptor::TYPE_STRING ? Quote(s) : Hex(s);
    }
    case gp::FieldDescriptor::CPPTYPE_ENUM: {
      const int n = rep ? r->GetRepeatedEnumValue(m, fd, index) : r->GetEnumValue(m, fd);
      const gp::EnumValueDescriptor* v = fd->enum_type()->FindValueByNumber(n);
      return Quote(v != nullptr ? v->name() : std::to_string(n));
    }
    case gp::FieldDescriptor::CPPTYPE_MESSAGE: return CanonMessage(rep ? r->GetRepeatedMessage(m, fd, index) : r->GetMessage(m, fd));
  }
  return "?";
}

// libprotobuf's parsed maps keep every entry in their repeated view (its map API is private in
// 3.21), so map semantics are applied here by the spec's rule: for a key written twice, the
// last entry is the map's.
inline std::string CanonMap(const gp::Message& m, const gp::FieldDescriptor* fd) {
  const gp::Reflection* r = m.GetReflection();
  std::map<std::string, std::string> entries;
  for (int i = 0; i < r->FieldSize(m, fd); ++i) {
    const gp::Message& e = r->GetRepeatedMessage(m, fd, i);
    entries[CanonValue(e, fd->message_type()->map_key(), -1)] = CanonValue(e, fd->message_type()->map_value(), -1);
  }
  std::vector<std::string> sorted;
  for (const auto& [k, v] : entries) sorted.push_back(k + ":" + v);
  std::sort(sorted.begin(), sorted.end());
  std::string out = "<";
  for (const auto& e : sorted) out += e + ",";
  return out + ">";
}

inline std::string CanonField(const gp::Message& m, const gp::FieldDescriptor* fd) {
  const gp::Reflection* r = m.GetReflection();
  if (fd->is_map()) return CanonMap(m, fd);
  if (fd->is_repeated()) {
    std::string out = "[";
    for (int i = 0; i < r->FieldSize(m, fd); ++i) out += (i ? "," : "") + CanonValue(m, fd, i);
    return out + "]";
  }
  if (fd->has_presence() && !r->HasField(m, fd)) {
    const bool declared_default = fd->has_default_value() && fd->real_containing_oneof() == nullptr &&
                                  fd->cpp_type() != gp::FieldDescriptor::CPPTYPE_MESSAGE;
    if (!declared_default) return "null";
  }
  return CanonValue(m, fd, -1);
}

inline std::string CanonArrow(const arrow::Array& a, std::int64_t i) {
  if (a.IsNull(i)) return "null";
  switch (a.type_id()) {
    case arrow::Type::INT32: return std::to_string(static_cast<const arrow::Int32Array&>(a).Value(i));
    case arrow::Type::INT64: return std::to_string(static_cast<const arrow::Int64Array&>(a).Value(i));
    case arrow::Type::TIMESTAMP: return std::to_string(static_cast<const arrow::TimestampArray&>(a).Value(i));
    case arrow::Type::DATE32: return std::to_string(static_cast<const arrow::Date32Array&>(a).Value(i));
    case arrow::Type::DECIMAL128:
      return arrow::Decimal128(static_cast<const arrow::Decimal128Array&>(a).GetValue(i)).ToIntegerString();
    case arrow::Type::BOOL: return static_cast<const arrow::BooleanArray&>(a).Value(i) ? "true" : "false";
    case arrow::Type::FLOAT: return FloatBits(static_cast<const arrow::FloatArray&>(a).Value(i));
    case arrow::Type::DOUBLE: return FloatBits(static_cast<const arrow::DoubleArray&>(a).Value(i));
    case arrow::Type::STRING: return Quote(std::string(static_cast<const arrow::StringArray&>(a).GetView(i)));
    case arrow::Type::BINARY: return Hex(static_cast<const arrow::BinaryArray&>(a).GetView(i));
    case arrow::Type::STRUCT: {
      const auto& s = static_cast<const arrow::StructArray&>(a);
      std::string out = "{";
      for (int f = 0; f < s.num_fields(); ++f) out += CanonArrow(*s.field(f), i) + ",";
      return out + "}";
    }
    case arrow::Type::LIST: {
      const auto& l = static_cast<const arrow::ListArray&>(a);
      std::string out = "[";
      for (auto k = l.value_offset(i); k < l.value_offset(i + 1); ++k) out += (k > l.value_offset(i) ? "," : "") + CanonArrow(*l.values(), k);
      return out + "]";
    }
    case arrow::Type::MAP: {
      const auto& mp = static_cast<const arrow::MapArray&>(a);
      std::vector<std::string> entries;
      for (auto k = mp.value_offset(i); k < mp.value_offset(i + 1); ++k) {
        entries.push_back(CanonArrow(*mp.keys(), k) + ":" + CanonArrow(*mp.items(), k));
      }
      std::sort(entries.begin(), entries.end());
      std::string out = "<";
      for (const auto& e : entries) out += e + ",";
      return out + ">";
    }
    default: return "unexpected " + a.type()->ToString();
  }
}

}  // namespace floe::proto::testing
