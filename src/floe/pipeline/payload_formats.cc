#include "floe/pipeline/payload_formats.h"

#include "floe/avro/payload_schema.h"
#include "floe/json/payload_schema.h"
#include "floe/pipeline/registry_references.h"

namespace floe::pipeline {

namespace {

const char* RoleName(PayloadRole role) { return role == PayloadRole::kValue ? "value" : "key"; }

std::string_view SchemaTypeName(registry::SchemaType type) {
  switch (type) {
    case registry::SchemaType::kAvro: return "AVRO";
    case registry::SchemaType::kProtobuf: return "PROTOBUF";
    case registry::SchemaType::kJson: return "JSON";
  }
  return "unknown";
}

// The payload format a registry schema type is decoded as.
PayloadFormat FormatOf(registry::SchemaType type) {
  switch (type) {
    case registry::SchemaType::kAvro: return PayloadFormat::kAvro;
    case registry::SchemaType::kProtobuf: return PayloadFormat::kProtobuf;
    case registry::SchemaType::kJson: return PayloadFormat::kJsonSchema;
  }
  return PayloadFormat::kAvro;
}

// Avro and JSON Schema: one PayloadSchema per registry id.
class SingleSchema final : public RegistrySchema {
 public:
  explicit SingleSchema(std::shared_ptr<const columnar::PayloadSchema> schema) : schema_(std::move(schema)) {}
  Result<SelectedSchema> Select(std::string_view after_schema_id) override { return SelectedSchema{"", schema_, after_schema_id}; }

 private:
  std::shared_ptr<const columnar::PayloadSchema> schema_;
};

}  // namespace

Status CheckDecodable(PayloadFormat format, PayloadRole role) {
  switch (format) {
    case PayloadFormat::kAvro:
    case PayloadFormat::kJsonSchema:
    case PayloadFormat::kAuto:
    case PayloadFormat::kString:
    case PayloadFormat::kBytes:
      return Status::OK();
    default:
      return Status::Unsupported(std::string(RoleName(role)) + " format '" + std::string(PayloadFormatName(format)) +
                                 "' is not supported by floe run yet (avro, json_schema, auto, string and bytes are)");
  }
}

Result<std::unique_ptr<RegistrySchema>> ParseRegistrySchema(PayloadFormat configured,
                                                            const registry::RegisteredSchema& schema, PayloadRole role,
                                                            const std::string& column, registry::Client& client) {
  const PayloadFormat actual = FormatOf(schema.type);
  if (configured != PayloadFormat::kAuto && configured != actual) {
    return Status::InvalidArgument("a schema of type " + std::string(SchemaTypeName(schema.type)) + ", but the topic's " +
                                   RoleName(role) + " format is " + std::string(PayloadFormatName(configured)));
  }
  FLOE_RETURN_IF_ERROR(CheckDecodable(actual, role));
  std::shared_ptr<const columnar::PayloadSchema> payload;
  if (actual == PayloadFormat::kAvro) {
    FLOE_ASSIGN_OR_RETURN(auto parsed, avro::ParseSchema(schema.schema));
    if (role == PayloadRole::kKey) {
      FLOE_ASSIGN_OR_RETURN(payload, avro::DatumPayloadSchema(parsed, column));
    } else {
      FLOE_ASSIGN_OR_RETURN(payload, avro::RecordPayloadSchema(parsed));
    }
  } else {
    auto references = std::make_shared<RegistryReferences>(schema, client);
    json::RefResolver resolve = [references](const std::string& ref) { return references->Fetch(ref); };
    if (role == PayloadRole::kKey) {
      FLOE_ASSIGN_OR_RETURN(payload, json::JsonSchemaKeyPayloadSchema(schema.schema, column, resolve));
    } else {
      FLOE_ASSIGN_OR_RETURN(payload, json::JsonSchemaPayloadSchema(schema.schema, resolve));
    }
  }
  return std::unique_ptr<RegistrySchema>(std::make_unique<SingleSchema>(std::move(payload)));
}

}  // namespace floe::pipeline
