#include "floe/iceberg/single_value_internal.h"

#include <cstring>

namespace floe::iceberg {
namespace {

template <typename T>
std::string LittleEndian(T v) {
  std::string out(sizeof(T), '\0');
  std::memcpy(out.data(), &v, sizeof(T));  // x86-64 and aarch64 are little-endian
  return out;
}

}  // namespace

Result<std::string> SingleValueBytes(const Literal& value, const schema::Type& type) {
  using schema::TypeId;
  switch (type.id()) {
    case TypeId::kBoolean:
      if (auto* v = std::get_if<bool>(&value)) return std::string(1, *v ? '\x01' : '\x00');
      break;
    case TypeId::kInt:
    case TypeId::kDate:
      if (auto* v = std::get_if<std::int32_t>(&value)) return LittleEndian(*v);
      break;
    case TypeId::kLong:
    case TypeId::kTime:
    case TypeId::kTimestamp:
    case TypeId::kTimestampTz:
    case TypeId::kTimestampNs:
    case TypeId::kTimestampTzNs:
      if (auto* v = std::get_if<std::int64_t>(&value)) return LittleEndian(*v);
      break;
    case TypeId::kFloat:
      if (auto* v = std::get_if<float>(&value)) return LittleEndian(*v);
      break;
    case TypeId::kDouble:
      if (auto* v = std::get_if<double>(&value)) return LittleEndian(*v);
      break;
    case TypeId::kString:
    case TypeId::kBinary:
    case TypeId::kFixed:
    case TypeId::kUuid:
    case TypeId::kDecimal:
      if (auto* v = std::get_if<std::string>(&value)) return *v;
      break;
    default:
      return Status::Unsupported("no single-value serialization for type " + type.ToString());
  }
  return Status::InvalidArgument("partition literal does not match its type " + type.ToString());
}

int CompareLiterals(const Literal& a, const Literal& b) {
  if (a.index() != b.index()) return a.index() < b.index() ? -1 : 1;
  return std::visit(
      [&b](const auto& x) {
        const auto& y = std::get<std::decay_t<decltype(x)>>(b);
        return x < y ? -1 : (y < x ? 1 : 0);
      },
      a);
}

Result<nlohmann::json> AvroTypeOf(const schema::Type& type) {
  using schema::TypeId;
  using nlohmann::json;
  switch (type.id()) {
    case TypeId::kBoolean: return json("boolean");
    case TypeId::kInt: return json("int");
    case TypeId::kLong: return json("long");
    case TypeId::kFloat: return json("float");
    case TypeId::kDouble: return json("double");
    case TypeId::kDate: return json({{"type", "int"}, {"logicalType", "date"}});
    case TypeId::kTime: return json({{"type", "long"}, {"logicalType", "time-micros"}});
    case TypeId::kTimestamp:
      return json({{"type", "long"}, {"logicalType", "timestamp-micros"}, {"adjust-to-utc", false}});
    case TypeId::kTimestampTz:
      return json({{"type", "long"}, {"logicalType", "timestamp-micros"}, {"adjust-to-utc", true}});
    case TypeId::kTimestampNs:
      return json({{"type", "long"}, {"logicalType", "timestamp-nanos"}, {"adjust-to-utc", false}});
    case TypeId::kTimestampTzNs:
      return json({{"type", "long"}, {"logicalType", "timestamp-nanos"}, {"adjust-to-utc", true}});
    case TypeId::kString: return json("string");
    case TypeId::kBinary: return json("bytes");
    case TypeId::kUuid:
      return json({{"type", "fixed"}, {"name", "uuid_fixed"}, {"size", 16}, {"logicalType", "uuid"}});
    case TypeId::kFixed:
      return json({{"type", "fixed"}, {"name", "fixed_" + std::to_string(type.length())}, {"size", type.length()}});
    case TypeId::kDecimal: {
      // Minimum bytes holding the precision, as Iceberg's Avro writer sizes decimals.
      int size = 1;
      while (size < 16) {
        const double max_digits = (8.0 * size - 1) * 0.30102999566398120;
        if (max_digits >= type.precision()) break;
        ++size;
      }
      return json({{"type", "fixed"},
                   {"name", "decimal_" + std::to_string(type.precision()) + "_" + std::to_string(type.scale())},
                   {"size", size},
                   {"logicalType", "decimal"},
                   {"precision", type.precision()},
                   {"scale", type.scale()}});
    }
    default:
      return Status::Unsupported("type " + type.ToString() + " cannot be a partition value");
  }
}

}  // namespace floe::iceberg
