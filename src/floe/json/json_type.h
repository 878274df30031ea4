#pragma once
// JsonType: what a JSON value of one column looks like and how it is read, the one model that
// both JSON Schema (schema_mapping.h) and schemaless inference (inference.h) produce and that
// the decoder (record_decoder.h) compiles. Arrow types alone are not enough: the same
// decimal128 column is read from a JSON number or from base64 bytes, the same timestamp from
// RFC 3339 text or from Connect's epoch milliseconds.
//
// Arrow types (docs/types.md):
//   kBoolean → bool; kInteger (bits 8/16/32) → int32, (bits 64) → int64; kFloat32 → float32;
//   kFloat64 → float64; kString, kJsonText → utf8; kBytes → binary; kDecimal* → decimal128;
//   kTimestamp* → timestamp[us, UTC]; kDate* → date32; kTime* → time64[us]; kObject → struct
//   (or one column per field at the top level); kArray → list ("element"); kMap →
//   map<utf8, "value">.
//   kNull is a type still open (inference has seen only nulls, or an empty object/array):
//   it has no column, and neither has an object all of whose fields are open, or an array
//   or map whose element is open. Such fields are left out of the Arrow schema until a
//   record gives them a type (tables cannot store a null type or an empty struct).
#include <arrow/type_fwd.h>

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "floe/core/result.h"

namespace floe::json {

enum class Kind {
  kNull,             // open: no type known yet (inference only)
  kBoolean,          // true/false
  kInteger,          // a JSON integer (no fraction, no exponent), checked against `bits`
  kFloat32,          // any JSON number, checked to fit a float
  kFloat64,          // any JSON number
  kString,           // a JSON string
  kJsonText,         // any value: a string as itself, anything else as its compact JSON text
  kBytes,            // a base64 string (Connect `bytes`)
  kDecimal,          // a JSON number, exact to 15 significant digits (record_decoder.h)
  kDecimalBytes,     // base64 of the big-endian two's-complement unscaled value (Connect)
  kTimestamp,        // an RFC 3339 date-time string
  kTimestampMillis,  // an integer: milliseconds since the epoch (Connect Timestamp)
  kDate,             // an RFC 3339 full-date string
  kDateDays,         // an integer: days since the epoch (Connect Date)
  kTime,             // an RFC 3339 time string, offset optional
  kTimeMillis,       // an integer: milliseconds since midnight (Connect Time)
  kObject,           // properties → struct fields
  kArray,            // items → list elements
  kMap,              // an object with any property names and values of one type
};

const char* KindName(Kind kind);

struct JsonField;

struct JsonType {
  Kind kind = Kind::kNull;
  int bits = 64;       // kInteger: the width values are checked against
  int precision = 0;   // kDecimal*
  int scale = 0;       // kDecimal*
  // kObject: the properties, in column order. kArray: one child named "element".
  // kMap: one child named "value".
  std::vector<JsonField> children;

  bool operator==(const JsonType&) const;
  // The element of an array or the value of a map.
  const JsonField& item() const { return children.front(); }
};

struct JsonField {
  std::string name;
  JsonType type;
  bool nullable = true;

  bool operator==(const JsonField&) const = default;
};

JsonType Scalar(Kind kind);
JsonType Object(std::vector<JsonField> fields);
JsonType Array(JsonType element, bool element_nullable = true);
JsonType Map(JsonType value, bool value_nullable = true);

// Whether values of this type are stored in a column (see kNull above).
bool HasColumn(const JsonType& type);

// The Arrow type of a type that HasColumn.
Result<std::shared_ptr<arrow::DataType>> ToArrowType(const JsonType& type);
// The field, or nullptr when the type has no column.
Result<std::shared_ptr<arrow::Field>> ToArrowField(const JsonField& field);
// The columns of a top-level object: one per field that has a column. Not an object:
// kInvalidArgument.
Result<std::shared_ptr<arrow::Schema>> ToArrowSchema(const JsonType& object);

// A compact rendering for messages and tests: "object<id: integer, tags: array<string?>?>"
// (a `?` marks a nullable field or element).
std::string ToString(const JsonType& type);

}  // namespace floe::json
