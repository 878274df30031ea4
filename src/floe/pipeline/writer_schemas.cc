#include "floe/pipeline/writer_schemas.h"

#include <arrow/api.h>

#include <set>

#include "floe/columnar/system_columns.h"
#include "floe/pipeline/payload_formats.h"
#include "floe/registry/wire_format.h"
#include "floe/schema/arrow_schema.h"

namespace floe::pipeline {

namespace {

columnar::SystemColumnsLayout Layout(const TopicConfig& topic) {
  return topic.system_columns == SystemColumns::kTableflow ? columnar::SystemColumnsLayout::kTableflow
                                                           : columnar::SystemColumnsLayout::kNested;
}

}  // namespace

std::shared_ptr<arrow::Field> KeyField(const TopicConfig& topic) {
  if (UsesRegistry(topic.key)) return nullptr;
  if (topic.key == PayloadFormat::kString) return arrow::field(std::string(kKeyColumn), arrow::utf8(), true);
  // Tableflow always has a top-level key column; the nested layout keeps raw keys in _kafka.key.
  if (topic.system_columns == SystemColumns::kTableflow) {
    return arrow::field(std::string(kKeyColumn), arrow::binary(), true);
  }
  return nullptr;
}

WriterSchemas::WriterSchemas(const TopicConfig& topic, registry::Client* registry)
    : topic_(topic), registry_(registry) {
  if (auto key = KeyField(topic)) extra_fields_.push_back(key);
  for (const auto& f : columnar::SystemColumnsBuilder::Fields(Layout(topic))) extra_fields_.push_back(f);

  auto tombstone = Make(kTombstoneSchemaId, nullptr);
  if (!tombstone.ok()) {
    init_ = tombstone.status();
    return;
  }
  tombstone_ = std::move(*tombstone);
  if (topic.value == PayloadFormat::kString || topic.value == PayloadFormat::kBytes) {
    auto raw = Make(kRawSchemaId, columnar::RawPayloadSchema(topic.value == PayloadFormat::kString
                                                                 ? columnar::RawFormat::kString
                                                                 : columnar::RawFormat::kBytes,
                                                             std::string(kRawValueColumn)));
    if (raw.ok()) {
      raw_ = std::move(*raw);
    } else {
      init_ = raw.status();
    }
  }
}

Result<std::unique_ptr<WriterSchema>> WriterSchemas::Make(std::int32_t id,
                                                          std::shared_ptr<const columnar::PayloadSchema> payload,
                                                          const KeySchema* key) const {
  auto out = std::make_unique<WriterSchema>();
  out->id = id;
  const auto value_columns = payload ? payload->columns() : arrow::schema(arrow::FieldVector{});
  out->payload = std::move(payload);
  out->columns = value_columns;
  out->key = key;
  // Top-level value columns are optional in the table whatever the producer says: tombstones
  // are rows with null values, and fields a later schema drops are null from then on.
  arrow::FieldVector table_fields;
  std::set<std::string> reserved;
  if (UsesRegistry(topic_.key)) reserved.insert(std::string(kKeyColumn));
  for (const auto& f : extra_fields_) reserved.insert(f->name());
  for (const auto& f : value_columns->fields()) {
    if (reserved.count(f->name()) > 0) {
      return Status::InvalidArgument("value field '" + f->name() + "' has the name of a column Floe adds (" +
                                     "key or system columns); rename it, or use key: bytes / the other system_columns layout");
    }
    table_fields.push_back(f->WithNullable(true));
  }
  if (key != nullptr) table_fields.push_back(key->field);
  for (const auto& f : extra_fields_) table_fields.push_back(f);
  FLOE_ASSIGN_OR_RETURN(out->table_columns, schema::FromArrowSchema(arrow::Schema(table_fields)));
  return out;
}

Result<WriterSchemas::Resolved> WriterSchemas::Resolve(std::string_view value) {
  FLOE_RETURN_IF_ERROR(init_);
  if (topic_.value == PayloadFormat::kString || topic_.value == PayloadFormat::kBytes) {
    return Resolved{raw_.get(), value};
  }
  FLOE_RETURN_IF_ERROR(CheckDecodable(topic_.value, PayloadRole::kValue));
  FLOE_ASSIGN_OR_RETURN(auto framed, registry::ParseWireFormat(value));
  FLOE_ASSIGN_OR_RETURN(const WriterSchema* schema, RegistrySchema(framed.schema_id));
  return Resolved{schema, framed.payload};
}

Result<std::shared_ptr<const registry::RegisteredSchema>> WriterSchemas::Fetch(std::int32_t id, const char* what) {
  if (registry_ == nullptr) {
    return Status::InvalidArgument(std::string("the ") + what + " format needs a schema_registry section");
  }
  return registry_->GetSchemaById(id);
}

Result<WriterSchemas::ResolvedKey> WriterSchemas::ResolveKey(std::string_view key) {
  auto framed = registry::ParseWireFormat(key);
  if (!framed.ok()) return framed.status().WithContext("key");
  if (auto it = keys_by_id_.find(framed->schema_id); it != keys_by_id_.end()) return ResolvedKey{it->second.get(), framed->payload};
  const std::string where = "key schema id " + std::to_string(framed->schema_id);
  FLOE_ASSIGN_OR_RETURN(auto registered, Fetch(framed->schema_id, "key"));
  auto payload = RegistryPayloadSchema(topic_.key, *registered, PayloadRole::kKey, std::string(kKeyColumn));
  if (!payload.ok()) return payload.status().WithContext(where);
  auto schema = std::make_unique<KeySchema>();
  schema->id = framed->schema_id;
  schema->payload = *payload;
  schema->field = (*payload)->columns()->field(0);  // nullable: null keys are null rows
  const KeySchema* out = schema.get();
  keys_by_id_[framed->schema_id] = std::move(schema);
  return ResolvedKey{out, framed->payload};
}

Result<const WriterSchema*> WriterSchemas::WithKey(const WriterSchema* value, const KeySchema* key) {
  if (key == nullptr) return value;
  auto& slot = with_key_[{value, key}];
  if (!slot) {
    auto made = Make(value->id, value->payload, key);
    if (!made.ok()) {
      with_key_.erase({value, key});
      return made.status().WithContext("key schema id " + std::to_string(key->id));
    }
    slot = std::move(*made);
  }
  return slot.get();
}

Result<const WriterSchema*> WriterSchemas::RegistrySchema(std::int32_t id) {
  if (auto it = by_id_.find(id); it != by_id_.end()) return it->second.get();
  FLOE_ASSIGN_OR_RETURN(auto registered, Fetch(id, "value"));
  const std::string where = "schema id " + std::to_string(id);
  auto payload = RegistryPayloadSchema(topic_.value, *registered, PayloadRole::kValue, std::string(kRawValueColumn));
  if (!payload.ok()) return payload.status().WithContext(where);
  auto made = Make(id, *payload);
  if (!made.ok()) return made.status().WithContext(where);
  const WriterSchema* out = made->get();
  by_id_[id] = std::move(*made);
  return out;
}

}  // namespace floe::pipeline
