// Schemaless JSON values (`value: json`, json/inference.h): the writer schema is the type
// inferred so far. It starts as the table's value columns, so the inference survives restarts
// and other workers' additions, and widens when a record needs more; a widened type is only a
// candidate until the table takes its columns (Accepted).
#include <arrow/api.h>
#include <spdlog/spdlog.h>

#include <set>

#include "floe/json/payload_schema.h"
#include "floe/pipeline/writer_schemas.h"
#include "floe/schema/arrow_schema.h"

namespace floe::pipeline {

Result<WriterSchemas::Resolved> WriterSchemas::ResolveInferred(std::string_view value) {
  if (accepted_ < 0) FLOE_RETURN_IF_ERROR(SeedInferred());
  const Inferred& current = inferred_[static_cast<std::size_t>(accepted_)];
  FLOE_ASSIGN_OR_RETURN(auto widened, inference_->FitOrWiden(current.type, value));
  if (!widened) return Resolved{current.schema.get(), value};
  FLOE_ASSIGN_OR_RETURN(const WriterSchema* schema, InferredSchema(std::move(*widened)));
  return Resolved{schema, value};
}

Status WriterSchemas::SeedInferred() {
  if (table_ == nullptr) return Status::Internal("schemaless JSON needs the table to read its columns from");
  FLOE_ASSIGN_OR_RETURN(auto table, table_->Columns());
  json::JsonType seed = json::Object({});
  if (table) {
    std::set<std::string> floe_columns{std::string(kKeyColumn)};
    for (const auto& f : extra_fields_) floe_columns.insert(f->name());
    FLOE_ASSIGN_OR_RETURN(auto columns, schema::ToArrowSchema(*table));
    for (const auto& field : columns->fields()) {
      if (floe_columns.count(field->name()) > 0) continue;
      // One column at a time: a column JSON cannot fill (say fixed[16] from another writer)
      // stays out of the inferred type and keeps its nulls; the rest is still inferred.
      auto one = json::InferredFromColumns(arrow::Schema({field}));
      if (!one.ok()) {
        spdlog::warn("topic {}: {}; records leave it null", topic_.name, one.status().message());
        continue;
      }
      seed.children.push_back(std::move(one->children.front()));
    }
  }
  FLOE_ASSIGN_OR_RETURN(const WriterSchema* schema, InferredSchema(std::move(seed)));
  accepted_ = schema->inferred;
  return Status::OK();
}

Result<const WriterSchema*> WriterSchemas::InferredSchema(json::JsonType type) {
  // Records that bring the same widening share one candidate (a refused one is asked again
  // by every such record: keep one, not one per record).
  for (const auto& known : inferred_) {
    if (known.type == type) return known.schema.get();
  }
  FLOE_ASSIGN_OR_RETURN(auto payload, json::InferredPayloadSchema(type));
  FLOE_ASSIGN_OR_RETURN(auto schema, Make(kInferredSchemaId, std::move(payload)));
  schema->inferred = static_cast<int>(inferred_.size());
  inferred_.push_back(Inferred{std::move(type), std::move(schema)});
  return inferred_.back().schema.get();
}

void WriterSchemas::Accepted(const WriterSchema& schema) {
  if (schema.inferred < 0) return;
  accepted_ = schema.inferred;
}

}  // namespace floe::pipeline
