#include "floe/json/json_type.h"

#include <arrow/type.h>

#include "floe/core/arrow_interop.h"

namespace floe::json {

const char* KindName(Kind kind) {
  switch (kind) {
    case Kind::kNull: return "null";
    case Kind::kBoolean: return "boolean";
    case Kind::kInteger: return "integer";
    case Kind::kFloat32: return "float32";
    case Kind::kFloat64: return "number";
    case Kind::kString: return "string";
    case Kind::kJsonText: return "json-text";
    case Kind::kBytes: return "bytes";
    case Kind::kDecimal: return "decimal";
    case Kind::kDecimalBytes: return "decimal-bytes";
    case Kind::kTimestamp: return "date-time";
    case Kind::kTimestampMillis: return "timestamp-millis";
    case Kind::kDate: return "date";
    case Kind::kDateDays: return "date-days";
    case Kind::kTime: return "time";
    case Kind::kTimeMillis: return "time-millis";
    case Kind::kObject: return "object";
    case Kind::kArray: return "array";
    case Kind::kMap: return "map";
  }
  return "?";
}

bool JsonType::operator==(const JsonType& o) const {
  return kind == o.kind && bits == o.bits && precision == o.precision && scale == o.scale && children == o.children;
}

JsonType Scalar(Kind kind) {
  JsonType t;
  t.kind = kind;
  return t;
}

JsonType Object(std::vector<JsonField> fields) {
  JsonType t;
  t.kind = Kind::kObject;
  t.children = std::move(fields);
  return t;
}

JsonType Array(JsonType element, bool element_nullable) {
  JsonType t;
  t.kind = Kind::kArray;
  t.children.push_back(JsonField{"element", std::move(element), element_nullable});
  return t;
}

JsonType Map(JsonType value, bool value_nullable) {
  JsonType t;
  t.kind = Kind::kMap;
  t.children.push_back(JsonField{"value", std::move(value), value_nullable});
  return t;
}

bool HasColumn(const JsonType& type) {
  switch (type.kind) {
    case Kind::kNull: return false;
    case Kind::kObject:
      for (const auto& f : type.children) {
        if (HasColumn(f.type)) return true;
      }
      return false;
    case Kind::kArray:
    case Kind::kMap: return HasColumn(type.item().type);
    default: return true;
  }
}

Result<std::shared_ptr<arrow::DataType>> ToArrowType(const JsonType& type) {
  switch (type.kind) {
    case Kind::kNull: return Status::Internal("a JSON column of open (null) type has no Arrow type");
    case Kind::kBoolean: return arrow::boolean();
    // Iceberg has no 8- or 16-bit integers: Connect's int8/int16 are stored as int, their
    // declared range still checked on every value.
    case Kind::kInteger: return type.bits <= 32 ? arrow::int32() : arrow::int64();
    case Kind::kFloat32: return arrow::float32();
    case Kind::kFloat64: return arrow::float64();
    case Kind::kString:
    case Kind::kJsonText: return arrow::utf8();
    case Kind::kBytes: return arrow::binary();
    case Kind::kDecimal:
    case Kind::kDecimalBytes: return FromArrow(arrow::Decimal128Type::Make(type.precision, type.scale));
    case Kind::kTimestamp:
    case Kind::kTimestampMillis: return arrow::timestamp(arrow::TimeUnit::MICRO, "UTC");
    case Kind::kDate:
    case Kind::kDateDays: return arrow::date32();
    case Kind::kTime:
    case Kind::kTimeMillis: return arrow::time64(arrow::TimeUnit::MICRO);
    case Kind::kObject: {
      arrow::FieldVector fields;
      for (const auto& f : type.children) {
        FLOE_ASSIGN_OR_RETURN(auto field, ToArrowField(f));
        if (field) fields.push_back(std::move(field));
      }
      if (fields.empty()) return Status::Internal("a JSON object without columns has no Arrow type");
      return arrow::struct_(fields);
    }
    case Kind::kArray: {
      FLOE_ASSIGN_OR_RETURN(auto element, ToArrowType(type.item().type));
      return arrow::list(arrow::field("element", element, type.item().nullable));
    }
    case Kind::kMap: {
      FLOE_ASSIGN_OR_RETURN(auto value, ToArrowType(type.item().type));
      return arrow::map(arrow::utf8(), arrow::field("value", value, type.item().nullable));
    }
  }
  return Status::Internal("unhandled JSON kind");
}

Result<std::shared_ptr<arrow::Field>> ToArrowField(const JsonField& field) {
  if (!HasColumn(field.type)) return std::shared_ptr<arrow::Field>();
  FLOE_ASSIGN_OR_RETURN(auto type, ToArrowType(field.type));
  return arrow::field(field.name, std::move(type), field.nullable);
}

Result<std::shared_ptr<arrow::Schema>> ToArrowSchema(const JsonType& object) {
  if (object.kind != Kind::kObject) {
    return Status::InvalidArgument(std::string("a table needs a JSON object at the top level, got ") +
                                   KindName(object.kind));
  }
  arrow::FieldVector fields;
  for (const auto& f : object.children) {
    FLOE_ASSIGN_OR_RETURN(auto field, ToArrowField(f));
    if (field) fields.push_back(std::move(field));
  }
  return arrow::schema(std::move(fields));
}

std::string ToString(const JsonType& type) {
  std::string out = KindName(type.kind);
  if (type.kind == Kind::kInteger && type.bits != 64) out += std::to_string(type.bits);
  if (type.kind == Kind::kDecimal || type.kind == Kind::kDecimalBytes) {
    out += "(" + std::to_string(type.precision) + "," + std::to_string(type.scale) + ")";
  }
  if (type.kind == Kind::kObject) {
    out += "<";
    for (std::size_t i = 0; i < type.children.size(); ++i) {
      const JsonField& f = type.children[i];
      out += (i ? ", " : "") + f.name + ": " + ToString(f.type) + (f.nullable ? "?" : "");
    }
    out += ">";
  } else if (type.kind == Kind::kArray || type.kind == Kind::kMap) {
    out += "<" + ToString(type.item().type) + (type.item().nullable ? "?" : "") + ">";
  }
  return out;
}

}  // namespace floe::json
