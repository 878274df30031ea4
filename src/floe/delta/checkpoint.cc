#include "floe/delta/checkpoint_internal.h"

#include <arrow/api.h>
#include <parquet/arrow/reader.h>
#include <parquet/arrow/writer.h>

#include <algorithm>
#include <chrono>

#include "floe/core/arrow_interop.h"
#include "floe/delta/actions_internal.h"
#include "floe/delta/log_store_internal.h"
#include "floe/delta/table_properties.h"

namespace floe::delta {
namespace {

using Json = nlohmann::json;

// --- Reading: Arrow values -> the JSON shape of commit actions ------------------------------

Result<Json> ToJson(const arrow::Array& array, std::int64_t i) {
  if (array.IsNull(i)) return Json(nullptr);
  switch (array.type_id()) {
    case arrow::Type::STRING: return Json(static_cast<const arrow::StringArray&>(array).GetString(i));
    case arrow::Type::LARGE_STRING: return Json(static_cast<const arrow::LargeStringArray&>(array).GetString(i));
    case arrow::Type::STRING_VIEW: return Json(std::string(static_cast<const arrow::StringViewArray&>(array).GetView(i)));
    case arrow::Type::BOOL: return Json(static_cast<const arrow::BooleanArray&>(array).Value(i));
    case arrow::Type::INT8: return Json(static_cast<const arrow::Int8Array&>(array).Value(i));
    case arrow::Type::INT16: return Json(static_cast<const arrow::Int16Array&>(array).Value(i));
    case arrow::Type::INT32: return Json(static_cast<const arrow::Int32Array&>(array).Value(i));
    case arrow::Type::INT64: return Json(static_cast<const arrow::Int64Array&>(array).Value(i));
    case arrow::Type::FLOAT: return Json(static_cast<const arrow::FloatArray&>(array).Value(i));
    case arrow::Type::DOUBLE: return Json(static_cast<const arrow::DoubleArray&>(array).Value(i));
    case arrow::Type::STRUCT: {
      const auto& s = static_cast<const arrow::StructArray&>(array);
      Json out = Json::object();
      for (int c = 0; c < s.num_fields(); ++c) {
        FLOE_ASSIGN_OR_RETURN(out[s.type()->field(c)->name()], ToJson(*s.field(c), i));
      }
      return out;
    }
    case arrow::Type::MAP: {
      const auto& m = static_cast<const arrow::MapArray&>(array);
      Json out = Json::object();
      for (auto k = m.value_offset(i); k < m.value_offset(i) + m.value_length(i); ++k) {
        FLOE_ASSIGN_OR_RETURN(Json key, ToJson(*m.keys(), k));
        if (!key.is_string()) return Status::InvalidArgument("a map with non-string keys");
        FLOE_ASSIGN_OR_RETURN(out[key.get<std::string>()], ToJson(*m.items(), k));
      }
      return out;
    }
    case arrow::Type::LIST: {
      const auto& l = static_cast<const arrow::ListArray&>(array);
      Json out = Json::array();
      for (auto k = l.value_offset(i); k < l.value_offset(i) + l.value_length(i); ++k) {
        FLOE_ASSIGN_OR_RETURN(Json v, ToJson(*l.values(), k));
        out.push_back(std::move(v));
      }
      return out;
    }
    default: {
      // Typed values Floe does not read (timestamps in stats_parsed, binary, …): their text.
      FLOE_ASSIGN_OR_RETURN_ARROW(auto scalar, array.GetScalar(i));
      return Json(scalar->ToString());
    }
  }
}

// --- Writing: the state's actions -> Arrow, by the checkpoint schema --------------------------

std::shared_ptr<arrow::DataType> StringMap() { return arrow::map(arrow::utf8(), arrow::utf8()); }

std::shared_ptr<arrow::Schema> CheckpointSchema() {
  using arrow::field;
  auto txn = arrow::struct_({field("appId", arrow::utf8()), field("version", arrow::int64()),
                             field("lastUpdated", arrow::int64())});
  auto add = arrow::struct_({field("path", arrow::utf8()), field("partitionValues", StringMap()),
                             field("size", arrow::int64()), field("modificationTime", arrow::int64()),
                             field("dataChange", arrow::boolean()), field("stats", arrow::utf8()),
                             field("tags", StringMap())});
  auto remove = arrow::struct_({field("path", arrow::utf8()), field("deletionTimestamp", arrow::int64()),
                                field("dataChange", arrow::boolean()), field("extendedFileMetadata", arrow::boolean()),
                                field("partitionValues", StringMap()), field("size", arrow::int64())});
  auto format = arrow::struct_({field("provider", arrow::utf8()), field("options", StringMap())});
  auto metadata = arrow::struct_({field("id", arrow::utf8()), field("name", arrow::utf8()),
                                  field("description", arrow::utf8()), field("format", format),
                                  field("schemaString", arrow::utf8()),
                                  field("partitionColumns", arrow::list(arrow::utf8())),
                                  field("configuration", StringMap()), field("createdTime", arrow::int64())});
  auto protocol = arrow::struct_({field("minReaderVersion", arrow::int32()), field("minWriterVersion", arrow::int32()),
                                  field("readerFeatures", arrow::list(arrow::utf8())),
                                  field("writerFeatures", arrow::list(arrow::utf8()))});
  return arrow::schema({field("txn", txn), field("add", add), field("remove", remove), field("metaData", metadata),
                        field("protocol", protocol)});
}

// Appends `value` (JSON, null or missing = null) to a builder of the checkpoint schema.
Status AppendJson(arrow::ArrayBuilder& builder, const Json& value) {
  if (value.is_null()) return FromArrow(builder.AppendNull());
  const auto type_id = builder.type()->id();
  switch (type_id) {
    case arrow::Type::STRING: {
      const std::string text = value.is_string() ? value.get<std::string>() : value.dump();
      return FromArrow(static_cast<arrow::StringBuilder&>(builder).Append(text));
    }
    case arrow::Type::INT64:
      if (!value.is_number_integer()) return Status::Internal("checkpoint: expected an integer, got " + value.dump());
      return FromArrow(static_cast<arrow::Int64Builder&>(builder).Append(value.get<std::int64_t>()));
    case arrow::Type::INT32:
      if (!value.is_number_integer()) return Status::Internal("checkpoint: expected an integer, got " + value.dump());
      return FromArrow(static_cast<arrow::Int32Builder&>(builder).Append(value.get<std::int32_t>()));
    case arrow::Type::BOOL:
      if (!value.is_boolean()) return Status::Internal("checkpoint: expected a boolean, got " + value.dump());
      return FromArrow(static_cast<arrow::BooleanBuilder&>(builder).Append(value.get<bool>()));
    case arrow::Type::STRUCT: {
      auto& s = static_cast<arrow::StructBuilder&>(builder);
      FLOE_RETURN_IF_ARROW_ERROR(s.Append());
      const auto type = s.type();  // by value: the builder makes it on each call
      for (int c = 0; c < s.num_fields(); ++c) {
        const std::string name = type->field(c)->name();
        FLOE_RETURN_IF_ERROR(AppendJson(*s.field_builder(c), value.contains(name) ? value[name] : Json(nullptr)));
      }
      return Status::OK();
    }
    case arrow::Type::MAP: {
      auto& m = static_cast<arrow::MapBuilder&>(builder);
      FLOE_RETURN_IF_ARROW_ERROR(m.Append());
      if (!value.is_object()) return Status::Internal("checkpoint: expected an object, got " + value.dump());
      for (const auto& [k, v] : value.items()) {
        FLOE_RETURN_IF_ERROR(AppendJson(*m.key_builder(), Json(k)));
        FLOE_RETURN_IF_ERROR(AppendJson(*m.item_builder(), v));
      }
      return Status::OK();
    }
    case arrow::Type::LIST: {
      auto& l = static_cast<arrow::ListBuilder&>(builder);
      FLOE_RETURN_IF_ARROW_ERROR(l.Append());
      if (!value.is_array()) return Status::Internal("checkpoint: expected an array, got " + value.dump());
      for (const auto& v : value) FLOE_RETURN_IF_ERROR(AppendJson(*l.value_builder(), v));
      return Status::OK();
    }
    default: return Status::Internal("checkpoint: no builder for " + builder.type()->ToString());
  }
}

}  // namespace

Status ReadCheckpoint(storage::FileIO& io, const std::vector<std::string>& files, TableState& state) {
  static const char* kActions[] = {"protocol", "metaData", "txn", "add", "remove"};
  for (const auto& name : files) {
    auto read = [&]() -> Status {
      FLOE_ASSIGN_OR_RETURN(auto input, io.OpenRead(name));
      FLOE_ASSIGN_OR_RETURN_ARROW(auto reader, parquet::arrow::OpenFile(input, arrow::default_memory_pool()));
      // Whole file: ReadTable's column indices are leaves, and the action structs are nested.
      FLOE_ASSIGN_OR_RETURN_ARROW(auto table, reader->ReadTable());
      FLOE_ASSIGN_OR_RETURN_ARROW(table, table->CombineChunks());
      for (int c = 0; c < table->num_columns(); ++c) {
        const auto& chunks = table->column(c)->chunks();
        if (chunks.empty()) continue;
        const arrow::Array& array = *chunks[0];
        const std::string& action = table->schema()->field(c)->name();
        // Only the actions Floe replays (not sidecar, checkpointMetadata, …).
        if (std::find(std::begin(kActions), std::end(kActions), action) == std::end(kActions)) continue;
        for (std::int64_t row = 0; row < array.length(); ++row) {
          if (array.IsNull(row)) continue;
          FLOE_ASSIGN_OR_RETURN(Json body, ToJson(array, row));
          // A row with an all-null struct written as non-null (some writers) carries no path.
          if (action == "add" || action == "remove") {
            if (!body.contains("path") || body["path"].is_null()) continue;
          }
          if (action == "txn" && (!body.contains("appId") || body["appId"].is_null())) continue;
          if (action == "metaData" && (!body.contains("id") || body["id"].is_null())) continue;
          if (action == "protocol" && (!body.contains("minReaderVersion") || body["minReaderVersion"].is_null())) continue;
          FLOE_RETURN_IF_ERROR(ApplyAction(state, Json{{action, std::move(body)}}, name + " row " + std::to_string(row)));
        }
      }
      return Status::OK();
    };
    FLOE_RETURN_IF_ERROR(read().WithContext("checkpoint " + name));
  }
  return Status::OK();
}

Result<std::int64_t> WriteCheckpoint(storage::FileIO& io, const TableState& state) {
  auto schema = CheckpointSchema();
  std::vector<std::unique_ptr<arrow::ArrayBuilder>> builders;
  for (const auto& f : schema->fields()) {
    FLOE_ASSIGN_OR_RETURN_ARROW(auto b, arrow::MakeBuilder(f->type()));
    builders.push_back(std::move(b));
  }
  std::int64_t rows = 0;
  auto append_row = [&](int column, const Json& body) -> Status {
    for (int c = 0; c < static_cast<int>(builders.size()); ++c) {
      FLOE_RETURN_IF_ERROR(AppendJson(*builders[c], c == column ? body : Json(nullptr)));
    }
    ++rows;
    return Status::OK();
  };
  FLOE_RETURN_IF_ERROR(append_row(4, ProtocolJson(state.protocol)));
  FLOE_RETURN_IF_ERROR(append_row(3, state.metadata_action));
  for (const auto& [_, txn] : state.txn_actions) FLOE_RETURN_IF_ERROR(append_row(0, txn));
  for (const auto& [_, add] : state.files) FLOE_RETURN_IF_ERROR(append_row(1, add));
  // Tombstones stay until they expire (table_properties.h, TombstoneExpiry): vacuum deletes
  // their files by them. One without a time, or under a malformed property, stays.
  const auto expiry = TombstoneExpiry(state.configuration);
  const std::int64_t now_ms =
      std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::system_clock::now().time_since_epoch()).count();
  for (const auto& [_, remove] : state.tombstones) {
    const auto ts = remove.find("deletionTimestamp");
    const std::int64_t deleted_at = ts != remove.end() && ts->is_number_integer() ? ts->get<std::int64_t>() : 0;
    if (expiry.ok() && deleted_at > 0 && deleted_at < now_ms - expiry->count()) continue;
    FLOE_RETURN_IF_ERROR(append_row(2, remove));
  }
  std::vector<std::shared_ptr<arrow::Array>> arrays;
  for (auto& b : builders) {
    FLOE_ASSIGN_OR_RETURN_ARROW(auto a, b->Finish());
    arrays.push_back(std::move(a));
  }
  auto table = arrow::Table::Make(schema, arrays, rows);
  const std::string name = CheckpointFileName(state.version);
  FLOE_ASSIGN_OR_RETURN(auto file, io.Create(name));
  FLOE_RETURN_IF_ARROW_ERROR(parquet::arrow::WriteTable(*table, arrow::default_memory_pool(), file->stream(), 1 << 20));
  FLOE_RETURN_IF_ARROW_ERROR(file->stream()->Close());
  FLOE_RETURN_IF_ERROR(file->Commit());
  const Json last{{"version", state.version}, {"size", rows}, {"numOfAddFiles", state.files.size()}};
  FLOE_RETURN_IF_ERROR(PutReplace(io, kLastCheckpoint, last.dump()));
  return rows;
}

}  // namespace floe::delta
