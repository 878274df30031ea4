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
  if (UsesSchemaRegistry(topic.key)) return nullptr;
  if (topic.key == PayloadFormat::kString || topic.key == PayloadFormat::kJson) {
    return arrow::field(std::string(kKeyColumn), arrow::utf8(), true);
  }
  // Tableflow always has a top-level key column; the nested layout keeps raw keys in _kafka.key.
  if (topic.system_columns == SystemColumns::kTableflow) {
    return arrow::field(std::string(kKeyColumn), arrow::binary(), true);
  }
  return nullptr;
}

WriterSchemas::WriterSchemas(const TopicConfig& topic, registry::Client* registry, sink::TableSink* table)
    : topic_(topic), registry_(registry), table_(table) {
  if (auto key = KeyField(topic)) extra_fields_.push_back(key);
  for (const auto& f : columnar::SystemColumnsBuilder::Fields(Layout(topic))) extra_fields_.push_back(f);

  auto tombstone = Make(kTombstoneSchemaId, nullptr);
  if (!tombstone.ok()) {
    init_ = tombstone.status();
    return;
  }
  tombstone_ = std::move(*tombstone);
  if (topic.value == PayloadFormat::kJson) {
    inference_ = std::make_unique<json::Inference>(json::InferenceOptions{topic.json_conflicts_as_text});
  }
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
  if (UsesSchemaRegistry(topic_.key)) reserved.insert(std::string(kKeyColumn));
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
  if (topic_.value == PayloadFormat::kJson) return ResolveInferred(value);
  FLOE_RETURN_IF_ERROR(CheckDecodable(topic_.value, PayloadRole::kValue));
  FLOE_ASSIGN_OR_RETURN(auto framed, registry::ParseWireFormat(value));
  // Per record, on the poll thread: no string is built unless something failed.
  const auto where = [&framed] { return "schema id " + std::to_string(framed.schema_id); };
  FLOE_ASSIGN_OR_RETURN(RegistrySchema * parsed, Parsed(framed.schema_id, PayloadRole::kValue));
  auto selected = parsed->Select(framed.payload);
  if (!selected.ok()) return selected.status().WithContext(where());
  // Records come in runs of one writer schema: the last one found is checked first.
  if (last_resolved_ != nullptr && last_resolved_id_.first == framed.schema_id &&
      last_resolved_id_.second == selected->variant) {
    return Resolved{last_resolved_, selected->payload};
  }
  std::pair<std::int32_t, std::string> id{framed.schema_id, selected->variant};
  auto& slot = by_id_[id];
  if (!slot) {
    auto made = Make(framed.schema_id, selected->schema);
    if (!made.ok()) {
      by_id_.erase(id);
      return made.status().WithContext(where());
    }
    slot = std::move(*made);
  }
  last_resolved_ = slot.get();
  last_resolved_id_ = std::move(id);
  return Resolved{slot.get(), selected->payload};
}

Result<RegistrySchema*> WriterSchemas::Parsed(std::int32_t id, PayloadRole role) {
  if (auto it = parsed_.find({id, role}); it != parsed_.end()) return it->second.get();
  const std::string where = std::string(role == PayloadRole::kKey ? "key " : "") + "schema id " + std::to_string(id);
  if (registry_ == nullptr) return Status::InvalidArgument(where + ": the topic has no schema_registry to look it up in");
  FLOE_ASSIGN_OR_RETURN(auto registered, registry_->GetSchemaById(id));
  const auto format = role == PayloadRole::kKey ? topic_.key : topic_.value;
  const std::string column(role == PayloadRole::kKey ? kKeyColumn : kRawValueColumn);
  auto parsed = ParseRegistrySchema(format, *registered, role, column, *registry_, topic_.message);
  if (!parsed.ok()) return parsed.status().WithContext(where);
  return (parsed_[{id, role}] = std::move(*parsed)).get();
}

Result<WriterSchemas::ResolvedKey> WriterSchemas::ResolveKey(std::string_view key) {
  auto framed = registry::ParseWireFormat(key);
  if (!framed.ok()) return framed.status().WithContext("key");
  FLOE_ASSIGN_OR_RETURN(RegistrySchema * parsed, Parsed(framed->schema_id, PayloadRole::kKey));
  auto selected = parsed->Select(framed->payload);
  if (!selected.ok()) return selected.status().WithContext("key schema id " + std::to_string(framed->schema_id));
  auto& slot = keys_by_id_[{framed->schema_id, selected->variant}];
  if (!slot) {
    slot = std::make_unique<KeySchema>();
    slot->id = framed->schema_id;
    slot->payload = selected->schema;
    slot->field = selected->schema->columns()->field(0);  // nullable: null keys are null rows
  }
  return ResolvedKey{slot.get(), selected->payload};
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
    slot->inferred = value->inferred;
  }
  return slot.get();
}

}  // namespace floe::pipeline
