// Arrow schema -> table schema (the accepted types are listed in arrow_schema.h).
#include <arrow/extension_type.h>
#include <arrow/type.h>
#include <arrow/util/key_value_metadata.h>

#include <limits>

#include "floe/schema/arrow_schema.h"
#include "floe/schema/field_walk_internal.h"
#include "floe/schema/fresh_ids_internal.h"
#include "floe/schema/type_names_internal.h"

namespace floe::schema {
namespace {

constexpr const char* kArrowExtensionNameKey = "ARROW:extension:name";
constexpr const char* kArrowUuidExtension = "arrow.uuid";

std::string FieldWhere(const std::string& path) { return "field '" + path + "'"; }

// Iceberg names are JSON strings, so they must be UTF-8; Arrow names are just bytes.
bool IsValidUtf8(std::string_view s) {
  std::size_t i = 0;
  while (i < s.size()) {
    const auto b = static_cast<unsigned char>(s[i]);
    int extra;
    std::uint32_t cp;
    if (b < 0x80) {
      ++i;
      continue;
    } else if ((b & 0xE0) == 0xC0) {
      extra = 1;
      cp = b & 0x1F;
    } else if ((b & 0xF0) == 0xE0) {
      extra = 2;
      cp = b & 0x0F;
    } else if ((b & 0xF8) == 0xF0) {
      extra = 3;
      cp = b & 0x07;
    } else {
      return false;
    }
    if (s.size() - i <= static_cast<std::size_t>(extra)) return false;  // truncated sequence
    for (int k = 1; k <= extra; ++k) {
      const auto c = static_cast<unsigned char>(s[i + static_cast<std::size_t>(k)]);
      if ((c & 0xC0) != 0x80) return false;
      cp = (cp << 6) | (c & 0x3F);
    }
    // No overlong forms, no surrogates, nothing past U+10FFFF.
    static constexpr std::uint32_t kMin[] = {0, 0x80, 0x800, 0x10000};
    if (cp < kMin[extra] || (cp >= 0xD800 && cp <= 0xDFFF) || cp > 0x10FFFF) return false;
    i += static_cast<std::size_t>(extra) + 1;
  }
  return true;
}

// For messages about invalid UTF-8: the bytes above 0x7F as \xNN, so that the message
// itself stays valid UTF-8 (it may end up in JSON).
std::string Escaped(std::string_view s) {
  static constexpr char kHex[] = "0123456789abcdef";
  std::string out;
  for (char c : s) {
    const auto b = static_cast<unsigned char>(c);
    if (b < 0x80) {
      out.push_back(c);
    } else {
      out += "\\x";
      out.push_back(kHex[b >> 4]);
      out.push_back(kHex[b & 0xF]);
    }
  }
  return out;
}

std::optional<std::string> MetadataValue(const arrow::Field& f, const std::string& key) {
  const auto& md = f.metadata();
  if (!md) return std::nullopt;
  const int i = md->FindKey(key);
  if (i < 0) return std::nullopt;
  return md->value(i);
}

Result<std::optional<int>> FieldIdOf(const arrow::Field& f, const std::string& path) {
  std::optional<std::string> text = MetadataValue(f, kParquetFieldIdKey);
  if (!text) return std::optional<int>();
  // Non-negative decimal digits only: an id that does not parse is a broken file, and
  // silently renumbering its columns would mismatch them with the table.
  bool ok = !text->empty() && text->size() <= 10;
  std::int64_t value = 0;
  for (char c : *text) {
    ok = ok && c >= '0' && c <= '9';
    if (ok) value = value * 10 + (c - '0');
  }
  if (!ok || value > std::numeric_limits<int>::max()) {
    return Status::InvalidArgument(FieldWhere(path) + ": " + kParquetFieldIdKey + " '" + *text + "' is not a field id");
  }
  return std::optional<int>(static_cast<int>(value));
}

class Converter {
 public:
  int fields_seen = 0;
  int fields_with_ids = 0;

  // `path` is the field's Iceberg full name (list elements are "<list>.element").
  Result<NestedField> Field(const arrow::Field& f, std::string name, const std::string& path) {
    if (!IsValidUtf8(f.name())) {
      return Status::InvalidArgument(FieldWhere(Escaped(path)) + ": the name is not valid UTF-8");
    }
    NestedField out;
    out.name = std::move(name);
    out.required = !f.nullable();
    ++fields_seen;
    FLOE_ASSIGN_OR_RETURN(std::optional<int> id, FieldIdOf(f, path));
    if (id) {
      out.id = *id;
      ++fields_with_ids;
    }
    if (std::optional<std::string> doc = MetadataValue(f, kDocKey)) {
      if (!IsValidUtf8(*doc)) return Status::InvalidArgument(FieldWhere(path) + ": the doc metadata is not valid UTF-8");
      out.doc = *doc;
    }
    FLOE_ASSIGN_OR_RETURN(out.type, TypeOf(f, f.type(), path));
    return out;
  }

 private:
  Result<TypePtr> Uuid(const arrow::DataType& storage, const std::string& path, const char* marker) {
    if (storage.id() != arrow::Type::FIXED_SIZE_BINARY ||
        static_cast<const arrow::FixedSizeBinaryType&>(storage).byte_width() != 16) {
      return Status::InvalidArgument(FieldWhere(path) + ": marked as a uuid by " + marker + " but its type is " +
                                     storage.ToString() + ", not fixed_size_binary(16)");
    }
    return Type::Primitive(TypeId::kUuid);
  }

  static Status NoIcebergType(const arrow::DataType& type, const std::string& path, const std::string& why) {
    return Status::Unsupported(FieldWhere(path) + ": Arrow type " + type.ToString() + " has no Iceberg type" +
                               (why.empty() ? "" : " (" + why + ")"));
  }

  Result<TypePtr> Struct(const arrow::DataType& type, const std::string& path) {
    std::vector<NestedField> fields;
    fields.reserve(static_cast<std::size_t>(type.num_fields()));
    for (const auto& child : type.fields()) {
      FLOE_ASSIGN_OR_RETURN(NestedField f, Field(*child, child->name(), JoinFieldPath(path, child->name())));
      fields.push_back(std::move(f));
    }
    return Type::Struct(std::move(fields));
  }

  Result<TypePtr> TypeOf(const arrow::Field& field, const std::shared_ptr<arrow::DataType>& type,
                         const std::string& path) {
    // A uuid marker on the field applies to the storage type, whatever encoding wraps it.
    if (MetadataValue(field, kFloeUuidKey) == std::optional<std::string>("true")) {
      return Uuid(*type, path, "floe:uuid metadata");
    }
    if (MetadataValue(field, kArrowExtensionNameKey) == std::optional<std::string>(kArrowUuidExtension)) {
      // An arrow.uuid column read where the extension type is not registered.
      return Uuid(*type, path, "ARROW:extension:name metadata");
    }
    using arrow::Type;
    switch (type->id()) {
      case Type::NA:
        return Status::InvalidArgument(FieldWhere(path) +
                                       ": the Arrow null type has no Iceberg type; give the column a real type "
                                       "(an optional column can hold only nulls)");
      case Type::BOOL: return schema::Type::Primitive(TypeId::kBoolean);
      // Widened: Iceberg's smallest integer is int, and it has no unsigned types. Every
      // uint32 value fits in long; uint64 values above 2^63-1 would not.
      case Type::INT8:
      case Type::INT16:
      case Type::INT32:
      case Type::UINT8:
      case Type::UINT16: return schema::Type::Primitive(TypeId::kInt);
      case Type::INT64:
      case Type::UINT32: return schema::Type::Primitive(TypeId::kLong);
      case Type::UINT64:
        return NoIcebergType(*type, path, "Iceberg has no unsigned integers and long cannot hold them all");
      case Type::HALF_FLOAT:
      case Type::FLOAT: return schema::Type::Primitive(TypeId::kFloat);
      case Type::DOUBLE: return schema::Type::Primitive(TypeId::kDouble);
      case Type::STRING:
      case Type::LARGE_STRING:
      case Type::STRING_VIEW: return schema::Type::Primitive(TypeId::kString);
      case Type::BINARY:
      case Type::LARGE_BINARY:
      case Type::BINARY_VIEW: return schema::Type::Primitive(TypeId::kBinary);
      case Type::FIXED_SIZE_BINARY: {
        const int width = static_cast<const arrow::FixedSizeBinaryType&>(*type).byte_width();
        if (width < 1) return NoIcebergType(*type, path, "fixed types need at least one byte");
        // Not a uuid: 16-byte fixed values are also hashes, keys and Avro fixed(16).
        return schema::Type::Fixed(width);
      }
      case Type::DATE32: return schema::Type::Primitive(TypeId::kDate);
      case Type::DATE64: return NoIcebergType(*type, path, "use date32: Iceberg dates are days");
      case Type::TIME32: return schema::Type::Primitive(TypeId::kTime);
      case Type::TIME64:
        if (static_cast<const arrow::Time64Type&>(*type).unit() == arrow::TimeUnit::NANO) {
          return NoIcebergType(*type, path, "Iceberg times are microseconds; nanoseconds would be lost");
        }
        return schema::Type::Primitive(TypeId::kTime);
      case Type::TIMESTAMP: {
        const auto& ts = static_cast<const arrow::TimestampType&>(*type);
        // Arrow stores every zoned timestamp as UTC, so any zone means "UTC-adjusted".
        const bool zoned = !ts.timezone().empty();
        if (ts.unit() == arrow::TimeUnit::NANO) {
          return schema::Type::Primitive(zoned ? TypeId::kTimestampTzNs : TypeId::kTimestampNs);
        }
        return schema::Type::Primitive(zoned ? TypeId::kTimestampTz : TypeId::kTimestamp);
      }
      case Type::DECIMAL32:
      case Type::DECIMAL64:
      case Type::DECIMAL128:
      case Type::DECIMAL256: {
        const auto& d = static_cast<const arrow::DecimalType&>(*type);
        if (d.precision() > kMaxDecimalPrecision) {
          return NoIcebergType(*type, path,
                               "Iceberg decimals have at most " + std::to_string(kMaxDecimalPrecision) + " digits");
        }
        if (d.scale() < 0 || d.scale() > d.precision()) {
          return NoIcebergType(*type, path, "Iceberg decimal scales are between 0 and the precision");
        }
        return schema::Type::Decimal(d.precision(), d.scale());
      }
      case Type::STRUCT: return Struct(*type, path);
      case Type::LIST:
      case Type::LARGE_LIST:
      case Type::FIXED_SIZE_LIST:
      case Type::LIST_VIEW:
      case Type::LARGE_LIST_VIEW: {
        const auto& element = *static_cast<const arrow::BaseListType&>(*type).value_field();
        FLOE_ASSIGN_OR_RETURN(NestedField e, Field(element, "element", JoinFieldPath(path, "element")));
        return schema::Type::List(std::move(e));
      }
      case Type::MAP: {
        const auto& map = static_cast<const arrow::MapType&>(*type);
        FLOE_ASSIGN_OR_RETURN(NestedField key, Field(*map.key_field(), "key", JoinFieldPath(path, "key")));
        FLOE_ASSIGN_OR_RETURN(NestedField value, Field(*map.item_field(), "value", JoinFieldPath(path, "value")));
        return schema::Type::Map(std::move(key), std::move(value));
      }
      // Encodings of a column, not types of their own.
      case Type::DICTIONARY:
        return TypeOf(field, static_cast<const arrow::DictionaryType&>(*type).value_type(), path);
      case Type::RUN_END_ENCODED:
        return TypeOf(field, static_cast<const arrow::RunEndEncodedType&>(*type).value_type(), path);
      case Type::EXTENSION: {
        const auto& ext = static_cast<const arrow::ExtensionType&>(*type);
        if (ext.extension_name() == kArrowUuidExtension) return Uuid(*ext.storage_type(), path, "arrow.uuid");
        return TypeOf(field, ext.storage_type(), path);
      }
      default: return NoIcebergType(*type, path, "");
    }
  }
};

}  // namespace

Result<Schema> FromArrowSchema(const arrow::Schema& arrow_schema, int next_id) {
  Converter converter;
  Schema schema;
  for (const auto& f : arrow_schema.fields()) {
    FLOE_ASSIGN_OR_RETURN(NestedField field, converter.Field(*f, f->name(), f->name()));
    schema.fields.push_back(std::move(field));
  }
  FLOE_RETURN_IF_ERROR(CheckUniqueNames(schema.fields));
  if (converter.fields_with_ids == converter.fields_seen) {
    FLOE_RETURN_IF_ERROR(CheckUniqueFieldIds(schema.fields));
  } else {
    // Ids only from a complete set: a partial set cannot say which columns are whose.
    schema.fields = ReassignIds(schema.fields, next_id, nullptr);
  }
  return schema;
}

}  // namespace floe::schema
