#include "floe/pipeline/payload_formats.h"

#include "floe/avro/payload_schema.h"

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

}  // namespace

bool UsesRegistry(PayloadFormat format) { return format == PayloadFormat::kAvro; }

Status CheckDecodable(PayloadFormat format, PayloadRole role) {
  if (format == PayloadFormat::kAvro || format == PayloadFormat::kString || format == PayloadFormat::kBytes) {
    return Status::OK();
  }
  return Status::Unsupported(std::string(RoleName(role)) + " format '" + std::string(PayloadFormatName(format)) +
                             "' is not supported by floe run yet (avro, string and bytes are)");
}

Result<std::shared_ptr<const columnar::PayloadSchema>> RegistryPayloadSchema(PayloadFormat configured,
                                                                             const registry::RegisteredSchema& schema,
                                                                             PayloadRole role, const std::string& column) {
  if (configured == PayloadFormat::kAvro) {
    if (schema.type != registry::SchemaType::kAvro) {
      return Status::InvalidArgument("not an Avro schema (schemaType " + std::string(SchemaTypeName(schema.type)) +
                                     "), but the topic's " + RoleName(role) + " format is avro");
    }
    FLOE_ASSIGN_OR_RETURN(auto parsed, avro::ParseSchema(schema.schema));
    if (role == PayloadRole::kKey) return avro::DatumPayloadSchema(parsed, column);
    return avro::RecordPayloadSchema(parsed);
  }
  FLOE_RETURN_IF_ERROR(CheckDecodable(configured, role));
  return Status::Internal(std::string(RoleName(role)) + " format '" + std::string(PayloadFormatName(configured)) +
                          "' does not come from the Schema Registry");
}

}  // namespace floe::pipeline
