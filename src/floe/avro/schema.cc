#include "floe/avro/schema.h"

namespace floe::avro {

std::string_view TypeName(Type type) {
  switch (type) {
    case Type::kNull: return "null";
    case Type::kBoolean: return "boolean";
    case Type::kInt: return "int";
    case Type::kLong: return "long";
    case Type::kFloat: return "float";
    case Type::kDouble: return "double";
    case Type::kBytes: return "bytes";
    case Type::kString: return "string";
    case Type::kRecord: return "record";
    case Type::kEnum: return "enum";
    case Type::kArray: return "array";
    case Type::kMap: return "map";
    case Type::kUnion: return "union";
    case Type::kFixed: return "fixed";
  }
  return "?";
}

std::string_view LogicalTypeName(LogicalType type) {
  switch (type) {
    case LogicalType::kNone: return "";
    case LogicalType::kDecimal: return "decimal";
    case LogicalType::kUuid: return "uuid";
    case LogicalType::kDate: return "date";
    case LogicalType::kTimeMillis: return "time-millis";
    case LogicalType::kTimeMicros: return "time-micros";
    case LogicalType::kTimestampMillis: return "timestamp-millis";
    case LogicalType::kTimestampMicros: return "timestamp-micros";
    case LogicalType::kTimestampNanos: return "timestamp-nanos";
    case LogicalType::kLocalTimestampMillis: return "local-timestamp-millis";
    case LogicalType::kLocalTimestampMicros: return "local-timestamp-micros";
    case LogicalType::kLocalTimestampNanos: return "local-timestamp-nanos";
    case LogicalType::kDuration: return "duration";
  }
  return "?";
}

int Node::null_branch() const {
  for (std::size_t i = 0; i < branches.size(); ++i) {
    if (branches[i]->type == Type::kNull) return static_cast<int>(i);
  }
  return -1;
}

std::string Node::DisplayName() const {
  std::string out = is_named() ? full_name : std::string(TypeName(type));
  if (logical_type == LogicalType::kDecimal) {
    out += " (decimal(" + std::to_string(precision) + "," + std::to_string(scale) + "))";
  } else if (logical_type != LogicalType::kNone) {
    out += " (";
    out += LogicalTypeName(logical_type);
    out += ")";
  }
  return out;
}

}  // namespace floe::avro
