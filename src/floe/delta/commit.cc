// CommitVersion: the next log version, written by put-if-absent, and a checkpoint every N.
#include <spdlog/spdlog.h>

#include <chrono>
#include <set>

#include "floe/core/percent_encoding.h"
#include "floe/core/uuid.h"
#include "floe/delta/actions_internal.h"
#include "floe/delta/checkpoint_internal.h"
#include "floe/delta/delta_log.h"
#include "floe/delta/log_store_internal.h"
#include "floe/delta/schema_json_internal.h"

namespace floe::delta {
namespace {

using Json = nlohmann::json;

constexpr const char* kModeKey = "delta.columnMapping.mode";
constexpr const char* kMaxIdKey = "delta.columnMapping.maxColumnId";

// The table's creation time as its metaData action has it, kept by every later metaData; a
// log written by someone else may hold anything there (nlohmann's value() would throw).
std::int64_t CreatedTime(const Json& metadata_action, std::int64_t fallback) {
  auto it = metadata_action.find("createdTime");
  return it != metadata_action.end() && it->is_number_integer() ? it->get<std::int64_t>() : fallback;
}

// add.path is a URI reference (RFC 2396): anything but unreserved characters, '/' between
// directories and '=' of partition directories is escaped.
constexpr std::string_view kPathKeep = "-._~/=";

Status CheckPartitionColumns(const schema::Schema& schema, const std::vector<std::string>& columns) {
  for (const auto& c : columns) {
    const auto it = std::find_if(schema.fields.begin(), schema.fields.end(),
                                 [&](const schema::NestedField& f) { return f.name == c; });
    if (it == schema.fields.end()) return Status::InvalidArgument("partition column '" + c + "' is not a top-level column");
    if (!it->type->is_primitive()) return Status::InvalidArgument("partition column '" + c + "' is not a primitive");
  }
  return Status::OK();
}

}  // namespace

Result<std::vector<Json>> CommitActions(const TableState& base, const Commit& commit, std::int64_t now_ms) {
  const bool creating = base.version < 0;
  if (creating && !commit.schema) return Status::InvalidArgument("the first Delta commit needs a schema");
  if (!creating) FLOE_RETURN_IF_ERROR(CheckWritable(base.protocol, base.configuration, base.schema_string));
  std::map<std::string, std::string> configuration = creating ? commit.configuration : base.configuration;
  if (creating && !configuration.count(kModeKey)) configuration[kModeKey] = "name";
  const std::string mode = configuration.count(kModeKey) ? configuration[kModeKey] : "none";
  if (mode != "none" && mode != "name" && mode != "id") {
    return Status::InvalidArgument("delta.columnMapping.mode must be none, name or id, not '" + mode + "'");
  }
  const bool mapping = mode != "none";
  const std::vector<std::string>& partition_columns = creating ? commit.partition_columns : base.partition_columns;

  std::vector<Json> actions;
  actions.push_back({{"commitInfo",
                      {{"timestamp", now_ms},
                       {"operation", commit.operation},
                       {"operationParameters", {{"mode", "Append"}}},
                       {"engineInfo", "floe"},
                       {"isBlindAppend", !commit.schema.has_value() && commit.removes.empty()}}}});
  if (!commit.data_change) actions.back()["commitInfo"]["operationParameters"] = Json::object();
  for (const auto& [key, value] : commit.commit_info) actions.back()["commitInfo"][key] = value;
  const schema::Schema& schema = commit.schema ? *commit.schema : base.schema;
  const Protocol required = RequiredProtocol(schema, mapping);
  const Protocol protocol = creating ? required : MergeProtocols(base.protocol, required);
  if (creating || !(protocol == base.protocol)) actions.push_back({{"protocol", ProtocolJson(protocol)}});
  if (commit.schema) {
    FLOE_RETURN_IF_ERROR(CheckPartitionColumns(*commit.schema, partition_columns));
    FLOE_ASSIGN_OR_RETURN(auto schema_string, ToSchemaString(*commit.schema, mapping));
    if (mapping) {
      // The id high-water mark never goes down: a dropped column's id must not be reused.
      int max_id = commit.schema->HighestFieldId();
      if (auto it = configuration.find(kMaxIdKey); it != configuration.end()) {
        max_id = std::max(max_id, std::atoi(it->second.c_str()));
      }
      configuration[kMaxIdKey] = std::to_string(max_id);
    }
    Json metadata{{"id", creating ? NewUuid() : base.table_id},
                  {"format", {{"provider", "parquet"}, {"options", Json::object()}}},
                  {"schemaString", schema_string},
                  {"partitionColumns", partition_columns},
                  {"configuration", configuration},
                  {"createdTime", creating ? now_ms : CreatedTime(base.metadata_action, now_ms)}};
    if (!creating) {
      for (const char* key : {"name", "description"}) {
        if (base.metadata_action.contains(key)) metadata[key] = base.metadata_action[key];
      }
    }
    actions.push_back({{"metaData", std::move(metadata)}});
  }
  for (const auto& [app, version] : commit.txns) {
    actions.push_back({{"txn", {{"appId", app}, {"version", version}, {"lastUpdated", now_ms}}}});
  }
  const std::set<std::string> expected(partition_columns.begin(), partition_columns.end());
  for (const auto& add : commit.adds) {
    std::set<std::string> given;
    Json values = Json::object();
    for (const auto& [k, v] : add.partition_values) {
      given.insert(k);
      values[k] = v ? Json(*v) : Json(nullptr);
    }
    if (given != expected) {
      return Status::InvalidArgument("add " + add.path + ": partition values must name exactly the partition columns");
    }
    Json a{{"path", PercentEncode(add.path, kPathKeep)},
           {"partitionValues", std::move(values)},
           {"size", add.size},
           {"modificationTime", add.modification_time_ms},
           {"dataChange", commit.data_change}};
    if (!add.stats_json.empty()) a["stats"] = add.stats_json;
    actions.push_back({{"add", std::move(a)}});
  }
  for (const auto& path : commit.removes) {
    const auto live = base.files.find(path);
    if (live == base.files.end()) {
      return Status::Conflict("remove " + path + ": the file is not live at version " + std::to_string(base.version));
    }
    // extendedFileMetadata: the remove carries what its add said, so readers of the change
    // (and VACUUM's size accounting) need not look the add up.
    Json r{{"path", path},
           {"deletionTimestamp", now_ms},
           {"dataChange", false},
           {"extendedFileMetadata", true}};
    for (const char* key : {"partitionValues", "size", "stats", "tags"}) {
      if (live->second.contains(key) && !live->second[key].is_null()) r[key] = live->second[key];
    }
    if (!r.contains("partitionValues")) r["partitionValues"] = Json::object();
    actions.push_back({{"remove", std::move(r)}});
  }
  return actions;
}

Result<std::int64_t> CommitVersion(storage::FileIO& io, const TableState& base, const Commit& commit,
                                   int checkpoint_interval) {
  const std::int64_t now_ms =
      std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::system_clock::now().time_since_epoch()).count();
  FLOE_ASSIGN_OR_RETURN(auto actions, CommitActions(base, commit, now_ms));
  std::string text;
  for (const auto& a : actions) text += a.dump(-1, ' ', false, Json::error_handler_t::replace) + "\n";
  const std::int64_t version = base.version + 1;
  FLOE_RETURN_IF_ERROR(PutIfAbsent(io, CommitFileName(version), text));
  if (checkpoint_interval > 0 && version > 0 && version % checkpoint_interval == 0) {
    TableState next = base;
    Status st;
    for (const auto& a : actions) {
      st = ApplyAction(next, a, CommitFileName(version));
      if (!st.ok()) break;
    }
    next.version = version;
    if (st.ok()) st = WriteCheckpoint(io, next).status();
    // The commit stands either way: readers replay the JSON commits without the checkpoint.
    if (!st.ok()) spdlog::warn("Delta checkpoint {} at {} failed: {}", version, io.Uri(""), st.ToString());
  }
  return version;
}

}  // namespace floe::delta
