#pragma once
// The table schema model: Iceberg's types with field ids. Every table Floe writes, Iceberg
// or Delta, is described by one of these; Arrow schemas and engine schemas derive from it.
// Spec: https://iceberg.apache.org/spec/#schemas-and-data-types
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace floe::schema {

enum class TypeId {
  kBoolean, kInt, kLong, kFloat, kDouble, kDecimal, kDate, kTime,
  kTimestamp,     // microseconds, no zone
  kTimestampTz,   // microseconds, UTC-adjusted
  kTimestampNs,   // v3
  kTimestampTzNs, // v3
  kString, kUuid, kFixed, kBinary,
  kStruct, kList, kMap,
  kUnknown,       // v3 "unknown": read-tolerated, never written by Floe
  kVariant,       // v3: read-tolerated, never written by Floe
};

class Type;
using TypePtr = std::shared_ptr<const Type>;

struct NestedField {
  int id = 0;
  std::string name;
  bool required = false;
  TypePtr type;
  std::string doc;
  // v3 defaults, kept as JSON text exactly as read so they round-trip.
  std::optional<std::string> initial_default_json;
  std::optional<std::string> write_default_json;
};

class Type {
 public:
  static TypePtr Primitive(TypeId id);  // not for decimal/fixed/nested
  static TypePtr Decimal(int precision, int scale);
  static TypePtr Fixed(int length);
  static TypePtr Struct(std::vector<NestedField> fields);
  static TypePtr List(NestedField element);             // element.name is "element"
  static TypePtr Map(NestedField key, NestedField value);  // names "key" / "value"

  TypeId id() const { return id_; }
  bool is_primitive() const { return id_ != TypeId::kStruct && id_ != TypeId::kList && id_ != TypeId::kMap; }
  int precision() const { return precision_; }
  int scale() const { return scale_; }
  int length() const { return length_; }
  const std::vector<NestedField>& fields() const { return fields_; }  // struct fields; list: [element]; map: [key, value]
  const NestedField& element() const { return fields_.at(0); }
  const NestedField& key() const { return fields_.at(0); }
  const NestedField& value() const { return fields_.at(1); }

  // The spec's type string for primitives: "long", "decimal(9,2)", "fixed[16]", "timestamptz".
  // Nested types render as "struct<…>", "list<…>", "map<…,…>" (for messages only).
  std::string ToString() const;
  bool Equals(const Type& other) const;  // deep, including field ids

 private:
  Type() = default;
  TypeId id_ = TypeId::kBoolean;
  int precision_ = 0;
  int scale_ = 0;
  int length_ = 0;
  std::vector<NestedField> fields_;
};

struct Schema {
  int schema_id = 0;
  std::vector<NestedField> fields;
  std::vector<int> identifier_field_ids;

  // Depth-first search through structs, list elements and map keys/values.
  const NestedField* FindById(int id) const;
  // Dotted path of struct field names ("_kafka.timestamp"); case-sensitive.
  const NestedField* FindByName(const std::string& dotted_name) const;
  int HighestFieldId() const;  // 0 for an empty schema
  // The schema as one struct type (handy for recursive algorithms).
  TypePtr AsStruct() const;
};

}  // namespace floe::schema
