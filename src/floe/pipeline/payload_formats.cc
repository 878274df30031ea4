#include "floe/pipeline/payload_formats.h"

#include <google/protobuf/descriptor.h>

#include <map>

#include "floe/avro/payload_schema.h"
#include "floe/json/payload_schema.h"
#include "floe/proto/payload_schema.h"
#include "floe/proto/schema.h"
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

// Protobuf: each record names its message (the message-index array after the schema id), so
// there is one PayloadSchema per message the topic's records use, built on first sight.
class ProtoMessages final : public RegistrySchema {
 public:
  ProtoMessages(std::shared_ptr<const proto::ProtoSchema> schema, PayloadRole role, std::string column,
                std::string message)
      : schema_(std::move(schema)), role_(role), column_(std::move(column)), message_(std::move(message)) {}

  Result<SelectedSchema> Select(std::string_view after_schema_id) override {
    FLOE_ASSIGN_OR_RETURN(auto selected, proto::SelectMessage(*schema_, after_schema_id, message_));
    auto& slot = by_message_[selected.message];
    if (!slot) {
      auto made = role_ == PayloadRole::kKey ? proto::FieldPayloadSchema(schema_, selected.message, column_)
                                             : proto::MessagePayloadSchema(schema_, selected.message);
      if (!made.ok()) {
        by_message_.erase(selected.message);
        return made.status();
      }
      slot = *made;
    }
    return SelectedSchema{selected.message->full_name(), slot, selected.bytes};
  }

 private:
  std::shared_ptr<const proto::ProtoSchema> schema_;
  PayloadRole role_;
  std::string column_;
  std::string message_;
  std::map<const google::protobuf::Descriptor*, std::shared_ptr<const columnar::PayloadSchema>> by_message_;
};

}  // namespace

Status CheckDecodable(PayloadFormat format, PayloadRole role) {
  switch (format) {
    case PayloadFormat::kAvro:
    case PayloadFormat::kJsonSchema:
    case PayloadFormat::kProtobuf:
    case PayloadFormat::kJson:
    case PayloadFormat::kAuto:
    case PayloadFormat::kString:
    case PayloadFormat::kBytes:
      return Status::OK();
  }
  return Status::Unsupported(std::string(RoleName(role)) + " format '" + std::string(PayloadFormatName(format)) +
                             "' is not supported by floe run");
}

Result<std::shared_ptr<const columnar::PayloadSchema>> UnframedKeyPayloadSchema(PayloadFormat format,
                                                                                const std::string& column) {
  switch (format) {
    case PayloadFormat::kString: return columnar::RawPayloadSchema(columnar::RawFormat::kString, column);
    case PayloadFormat::kBytes: return columnar::RawPayloadSchema(columnar::RawFormat::kBytes, column);
    // The empty JSON Schema admits any value, and maps to JSON text (json/schema_mapping.h).
    case PayloadFormat::kJson: return json::JsonSchemaKeyPayloadSchema("{}", column);
    default:
      return Status::InvalidArgument("key format '" + std::string(PayloadFormatName(format)) + "' is framed by a schema registry");
  }
}

Result<std::unique_ptr<RegistrySchema>> ParseRegistrySchema(PayloadFormat configured,
                                                            const registry::RegisteredSchema& schema, PayloadRole role,
                                                            const std::string& column, registry::Client& client,
                                                            const std::string& message) {
  const PayloadFormat actual = FormatOf(schema.type);
  if (configured != PayloadFormat::kAuto && configured != actual) {
    return Status::InvalidArgument("a schema of type " + std::string(SchemaTypeName(schema.type)) + ", but the topic's " +
                                   RoleName(role) + " format is " + std::string(PayloadFormatName(configured)));
  }
  FLOE_RETURN_IF_ERROR(CheckDecodable(actual, role));
  auto references = std::make_shared<RegistryReferences>(schema, client);
  if (actual == PayloadFormat::kProtobuf) {
    proto::ImportResolver imports = [references](const std::string& name) { return references->Fetch(name); };
    FLOE_ASSIGN_OR_RETURN(auto parsed, proto::ProtoSchema::Parse(schema.schema, imports));
    if (!message.empty()) {
      auto found = parsed->FindMessage(message);
      if (!found.ok()) return found.status().WithContext("message: " + message);
    }
    return std::unique_ptr<RegistrySchema>(std::make_unique<ProtoMessages>(
        std::move(parsed), role, column, role == PayloadRole::kValue ? message : std::string()));
  }
  std::shared_ptr<const columnar::PayloadSchema> payload;
  if (actual == PayloadFormat::kAvro) {
    FLOE_ASSIGN_OR_RETURN(auto parsed, avro::ParseSchema(schema.schema));
    if (role == PayloadRole::kKey) {
      FLOE_ASSIGN_OR_RETURN(payload, avro::DatumPayloadSchema(parsed, column));
    } else {
      FLOE_ASSIGN_OR_RETURN(payload, avro::RecordPayloadSchema(parsed));
    }
  } else {
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
