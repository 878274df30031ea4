#include "floe/json/payload_schema.h"

#include <arrow/type.h>

#include <optional>

#include "floe/json/record_decoder.h"

namespace floe::json {
namespace {

// A parsed JSON type and the columns it decodes into; each decoder compiles its own plan
// against its own builders (decoders are not shared between partitions).
class JsonPayloadSchema final : public columnar::PayloadSchema {
 public:
  JsonPayloadSchema(JsonField field, std::shared_ptr<arrow::Schema> columns, std::optional<std::string> key_column)
      : field_(std::move(field)), columns_(std::move(columns)), key_column_(std::move(key_column)) {}

  const std::shared_ptr<arrow::Schema>& columns() const override { return columns_; }

  Result<std::unique_ptr<columnar::ValueDecoder>> NewDecoder() const override {
    if (key_column_) {
      FLOE_ASSIGN_OR_RETURN(auto decoder, JsonRecordDecoder::ForDatum(field_, *key_column_));
      return std::unique_ptr<columnar::ValueDecoder>(std::move(decoder));
    }
    FLOE_ASSIGN_OR_RETURN(auto decoder, JsonRecordDecoder::ForColumns(field_.type));
    return std::unique_ptr<columnar::ValueDecoder>(std::move(decoder));
  }

 private:
  JsonField field_;
  std::shared_ptr<arrow::Schema> columns_;
  std::optional<std::string> key_column_;  // set for keys
};

Result<std::shared_ptr<const columnar::PayloadSchema>> ForObject(JsonField field) {
  if (field.type.kind != Kind::kObject) {
    return Status::InvalidArgument("the JSON schema describes " + ToString(field.type) +
                                   ", not an object with properties: Floe maps an object's properties to table columns");
  }
  FLOE_ASSIGN_OR_RETURN(auto columns, ToArrowSchema(field.type));
  return std::shared_ptr<const columnar::PayloadSchema>(
      std::make_shared<JsonPayloadSchema>(std::move(field), std::move(columns), std::nullopt));
}

}  // namespace

Result<std::shared_ptr<const columnar::PayloadSchema>> JsonSchemaPayloadSchema(std::string_view schema_text,
                                                                               const RefResolver& resolver) {
  FLOE_ASSIGN_OR_RETURN(JsonField field, MapJsonSchema(schema_text, resolver));
  if (field.type.kind == Kind::kObject && field.type.children.empty()) {
    return Status::InvalidArgument("the JSON schema's object has no properties, so no columns");
  }
  return ForObject(std::move(field));
}

Result<std::shared_ptr<const columnar::PayloadSchema>> JsonSchemaKeyPayloadSchema(std::string_view schema_text,
                                                                                  const std::string& column,
                                                                                  const RefResolver& resolver) {
  FLOE_ASSIGN_OR_RETURN(JsonField field, MapJsonSchema(schema_text, resolver));
  FLOE_ASSIGN_OR_RETURN(auto type, ToArrowType(field.type));
  auto columns = arrow::schema({arrow::field(column, std::move(type), /*nullable=*/true)});
  return std::shared_ptr<const columnar::PayloadSchema>(
      std::make_shared<JsonPayloadSchema>(std::move(field), std::move(columns), column));
}

Result<std::shared_ptr<const columnar::PayloadSchema>> InferredPayloadSchema(const JsonType& object) {
  return ForObject(JsonField{"", object, false});
}

}  // namespace floe::json
