#pragma once
// The Avro schema model: an immutable tree parsed once per writer schema (as the Schema
// Registry returns it) and then shared by the type mapping and the decoders.
//
// The tree is acyclic by construction: Floe rejects recursive schemas (they cannot be
// stored in a table), so a named type that is referenced several times is one shared Node,
// and plain shared_ptr ownership never leaks.
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "floe/core/result.h"

namespace floe::avro {

enum class Type { kNull, kBoolean, kInt, kLong, kFloat, kDouble, kBytes, kString, kRecord, kEnum, kArray, kMap, kUnion, kFixed };

// Only logical types that are valid on their base type survive parsing; the spec says an
// invalid one (e.g. "date" on a string) is ignored, so such a node has kNone.
enum class LogicalType {
  kNone,
  kDecimal,               // bytes or fixed
  kUuid,                  // string, or fixed(16)
  kDate,                  // int: days since 1970-01-01
  kTimeMillis,            // int
  kTimeMicros,            // long
  kTimestampMillis,       // long, UTC instant
  kTimestampMicros,       // long, UTC instant
  kTimestampNanos,        // long, UTC instant
  kLocalTimestampMillis,  // long, wall-clock time without zone
  kLocalTimestampMicros,  // long
  kLocalTimestampNanos,   // long
  kDuration,              // fixed(12): months, days, millis as unsigned little-endian int32s
};

// The Avro spelling: "int", "record", ...; and "decimal", "timestamp-millis", ... ("" for kNone).
std::string_view TypeName(Type type);
std::string_view LogicalTypeName(LogicalType type);

struct Node;
using NodePtr = std::shared_ptr<const Node>;

// Attributes that the Avro specification does not define (or that Floe does not
// interpret on that kind of type), kept as compact JSON text by name: Iceberg's
// "field-id" on fields, "element-id" on arrays, "key-id"/"value-id" on maps, and
// "logicalType": "map" on arrays of key/value records, e.g. {"field-id": "102"},
// {"logicalType": "\"map\""}. Decoding never depends on them.
using Attributes = std::map<std::string, std::string, std::less<>>;

struct Field {
  std::string name;
  NodePtr node;
  bool has_default = false;
  std::string default_json;          // compact JSON text of "default" when has_default
  std::vector<std::string> aliases;  // as written (field aliases are not namespaced)
  // Every member of the field object other than name, type, default, aliases, doc, order.
  Attributes attributes;
};

struct Node {
  Type type = Type::kNull;
  LogicalType logical_type = LogicalType::kNone;

  // Named types (record, enum, fixed): the full name after namespace resolution,
  // e.g. "com.acme.Customer", and the full names of the aliases.
  std::string full_name;
  std::vector<std::string> aliases;

  int precision = 0;        // decimal
  int scale = 0;            // decimal
  std::int64_t fixed_size = 0;  // fixed

  std::vector<Field> fields;         // record
  std::vector<std::string> symbols;  // enum
  std::string enum_default;          // enum, empty when none (symbols are never empty)
  NodePtr items;                     // array
  NodePtr values;                    // map (keys are always strings)
  std::vector<NodePtr> branches;     // union

  // Members of the type object that are not part of its type's definition (only types
  // written as objects have any). "logicalType" (with "precision"/"scale") is here when
  // it was not recognized for the base type, e.g. Iceberg's "logicalType": "map" on an
  // array, and absent when it set logical_type.
  Attributes attributes;

  bool is_named() const { return type == Type::kRecord || type == Type::kEnum || type == Type::kFixed; }
  // For unions: the index of the "null" branch, or -1.
  int null_branch() const;
  // A human-readable name for messages: the full name of named types, else "int",
  // "array", "long (timestamp-millis)", ...
  std::string DisplayName() const;
};

// Parses Avro schema JSON. Errors are kInvalidArgument and name where in the schema the
// problem is, e.g. "field 'customer.address': unknown type 'Adress'".
Result<NodePtr> ParseSchema(std::string_view json);

}  // namespace floe::avro
