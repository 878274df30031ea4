// Table schema -> Arrow schema (the mapping is listed in arrow_schema.h).
#include <arrow/type.h>
#include <arrow/util/key_value_metadata.h>

#include "floe/core/arrow_interop.h"
#include "floe/schema/arrow_schema.h"
#include "floe/schema/field_walk_internal.h"

namespace floe::schema {
namespace {

Result<std::shared_ptr<arrow::DataType>> TypeAt(const Type& type, const std::string& path);

// Every Arrow field, list elements and map keys/values included, carries its field id:
// Parquet writes it into the file schema and Iceberg readers match columns by it.
std::shared_ptr<const arrow::KeyValueMetadata> FieldMetadata(const NestedField& f) {
  std::vector<std::string> keys{kParquetFieldIdKey};
  std::vector<std::string> values{std::to_string(f.id)};
  if (!f.doc.empty()) {
    keys.emplace_back(kDocKey);
    values.push_back(f.doc);
  }
  if (f.type && f.type->id() == TypeId::kUuid) {
    // fixed_size_binary(16) alone reads back as fixed[16]; this marks it as a uuid.
    keys.emplace_back(kFloeUuidKey);
    values.emplace_back("true");
  }
  return arrow::key_value_metadata(std::move(keys), std::move(values));
}

// `parent` is the enclosing field's full name, for messages ("field 'tags.element'").
Result<std::shared_ptr<arrow::Field>> FieldAt(const NestedField& f, const std::string& parent) {
  const std::string path = JoinFieldPath(parent, f.name);
  if (!f.type) return Status::Internal("field '" + path + "' has no type");
  FLOE_ASSIGN_OR_RETURN(auto type, TypeAt(*f.type, path));
  return arrow::field(f.name, std::move(type), /*nullable=*/!f.required, FieldMetadata(f));
}

Result<std::shared_ptr<arrow::DataType>> TypeAt(const Type& type, const std::string& path) {
  switch (type.id()) {
    case TypeId::kBoolean: return arrow::boolean();
    case TypeId::kInt: return arrow::int32();
    case TypeId::kLong: return arrow::int64();
    case TypeId::kFloat: return arrow::float32();
    case TypeId::kDouble: return arrow::float64();
    case TypeId::kDecimal: return FromArrow(arrow::Decimal128Type::Make(type.precision(), type.scale()));
    case TypeId::kDate: return arrow::date32();
    case TypeId::kTime: return arrow::time64(arrow::TimeUnit::MICRO);
    case TypeId::kTimestamp: return arrow::timestamp(arrow::TimeUnit::MICRO);
    case TypeId::kTimestampTz: return arrow::timestamp(arrow::TimeUnit::MICRO, "UTC");
    case TypeId::kTimestampNs: return arrow::timestamp(arrow::TimeUnit::NANO);
    case TypeId::kTimestampTzNs: return arrow::timestamp(arrow::TimeUnit::NANO, "UTC");
    case TypeId::kString: return arrow::utf8();
    case TypeId::kUuid: return arrow::fixed_size_binary(16);
    case TypeId::kFixed: return FromArrow(arrow::FixedSizeBinaryType::Make(type.length()));
    case TypeId::kBinary: return arrow::binary();
    case TypeId::kStruct: {
      arrow::FieldVector fields;
      fields.reserve(type.fields().size());
      for (const auto& f : type.fields()) {
        FLOE_ASSIGN_OR_RETURN(auto field, FieldAt(f, path));
        fields.push_back(std::move(field));
      }
      return arrow::struct_(std::move(fields));
    }
    case TypeId::kList: {
      FLOE_ASSIGN_OR_RETURN(auto element, FieldAt(type.element(), path));
      return arrow::list(std::move(element));
    }
    case TypeId::kMap: {
      FLOE_ASSIGN_OR_RETURN(auto key, FieldAt(type.key(), path));
      FLOE_ASSIGN_OR_RETURN(auto value, FieldAt(type.value(), path));
      // Arrow's layout: map<entries: struct<key, value>>, the key never null.
      auto entries = arrow::field("entries", arrow::struct_({key->WithNullable(false), value}), /*nullable=*/false);
      return FromArrow(arrow::MapType::Make(std::move(entries)));
    }
    case TypeId::kUnknown:
    case TypeId::kVariant:
      return Status::Unsupported((path.empty() ? std::string("type ") : "field '" + path + "': type ") +
                                 type.ToString() +
                                 " (Iceberg v3) is read-only in Floe: it has no Arrow column type here");
  }
  return Status::Internal("unhandled type id");
}

}  // namespace

Result<std::shared_ptr<arrow::DataType>> ToArrowType(const Type& type) { return TypeAt(type, ""); }

Result<std::shared_ptr<arrow::Schema>> ToArrowSchema(const Schema& schema) {
  arrow::FieldVector fields;
  fields.reserve(schema.fields.size());
  for (const auto& f : schema.fields) {
    FLOE_ASSIGN_OR_RETURN(auto field, FieldAt(f, ""));
    fields.push_back(std::move(field));
  }
  return arrow::schema(std::move(fields));
}

}  // namespace floe::schema
