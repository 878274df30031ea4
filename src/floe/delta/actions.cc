#include "floe/delta/actions_internal.h"

#include <sstream>

#include "floe/core/json_depth.h"
#include "floe/delta/schema_json_internal.h"

namespace floe::delta {
namespace {

using Json = nlohmann::json;

Status Bad(const std::string& where, const std::string& what) {
  return Status::InvalidArgument(where + ": " + what);
}

Result<std::string> StringMember(const Json& obj, const char* key, const std::string& where, const char* action) {
  if (!obj.contains(key) || !obj[key].is_string()) {
    return Bad(where, std::string(action) + " action without a string '" + key + "'");
  }
  return obj[key].get<std::string>();
}

Status ApplyProtocol(TableState& s, const Json& p, const std::string& where) {
  if (!p.is_object() || !p.contains("minReaderVersion") || !p["minReaderVersion"].is_number_integer() ||
      !p.contains("minWriterVersion") || !p["minWriterVersion"].is_number_integer()) {
    return Bad(where, "protocol action without integer minReaderVersion/minWriterVersion");
  }
  Protocol out;
  out.min_reader_version = p["minReaderVersion"].get<int>();
  out.min_writer_version = p["minWriterVersion"].get<int>();
  for (const char* key : {"readerFeatures", "writerFeatures"}) {
    if (!p.contains(key) || p[key].is_null()) continue;
    if (!p[key].is_array()) return Bad(where, std::string("protocol ") + key + " is not an array");
    auto& target = std::string(key) == "readerFeatures" ? out.reader_features : out.writer_features;
    for (const auto& f : p[key]) {
      if (!f.is_string()) return Bad(where, std::string("protocol ") + key + " holds a non-string");
      target.insert(f.get<std::string>());
    }
  }
  s.protocol = std::move(out);
  return Status::OK();
}

Status ApplyMetadata(TableState& s, const Json& m, const std::string& where) {
  if (!m.is_object()) return Bad(where, "metaData action is not an object");
  FLOE_ASSIGN_OR_RETURN(s.table_id, StringMember(m, "id", where, "metaData"));
  FLOE_ASSIGN_OR_RETURN(s.schema_string, StringMember(m, "schemaString", where, "metaData"));
  auto parsed = ParseSchemaString(s.schema_string);
  if (!parsed.ok()) return parsed.status().WithContext(where + ": metaData.schemaString");
  s.schema = std::move(parsed).value();
  s.partition_columns.clear();
  if (m.contains("partitionColumns") && !m["partitionColumns"].is_null()) {
    if (!m["partitionColumns"].is_array()) return Bad(where, "metaData.partitionColumns is not an array");
    for (const auto& c : m["partitionColumns"]) {
      if (!c.is_string()) return Bad(where, "metaData.partitionColumns holds a non-string");
      s.partition_columns.push_back(c.get<std::string>());
    }
  }
  s.configuration.clear();
  if (m.contains("configuration") && m["configuration"].is_object()) {
    for (const auto& [k, v] : m["configuration"].items()) {
      if (v.is_string()) s.configuration[k] = v.get<std::string>();
      else if (!v.is_null()) s.configuration[k] = v.dump();
    }
  }
  s.metadata_action = m;
  return Status::OK();
}

}  // namespace

nlohmann::json ProtocolJson(const Protocol& p) {
  Json out{{"minReaderVersion", p.min_reader_version}, {"minWriterVersion", p.min_writer_version}};
  if (p.min_reader_version >= 3) out["readerFeatures"] = p.reader_features;
  if (p.min_writer_version >= 7) out["writerFeatures"] = p.writer_features;
  return out;
}

Status ApplyAction(TableState& s, const Json& action, const std::string& where) {
  if (!action.is_object()) return Bad(where, "a log action must be a JSON object");
  for (const auto& [kind, body] : action.items()) {
    if (body.is_null()) continue;  // checkpoint rows carry every column, most of them null
    if (kind == "add") {
      FLOE_ASSIGN_OR_RETURN(auto path, StringMember(body, "path", where, "add"));
      s.tombstones.erase(path);
      s.files[path] = body;
    } else if (kind == "remove") {
      FLOE_ASSIGN_OR_RETURN(auto path, StringMember(body, "path", where, "remove"));
      s.files.erase(path);
      s.tombstones[path] = body;
    } else if (kind == "txn") {
      FLOE_ASSIGN_OR_RETURN(auto app, StringMember(body, "appId", where, "txn"));
      if (!body.contains("version") || !body["version"].is_number_integer()) {
        return Bad(where, "txn action for '" + app + "' without an integer version");
      }
      // Later actions win: a transaction's version only moves forward, and a checkpoint
      // holds just the newest one per appId.
      s.txn_versions[app] = body["version"].get<std::int64_t>();
      s.txn_actions[app] = body;
    } else if (kind == "protocol") {
      FLOE_RETURN_IF_ERROR(ApplyProtocol(s, body, where));
    } else if (kind == "metaData") {
      FLOE_RETURN_IF_ERROR(ApplyMetadata(s, body, where));
    }
  }
  s.num_files = static_cast<std::int64_t>(s.files.size());
  return Status::OK();
}

Status ApplyCommitFile(TableState& state, const std::string& text, const std::string& where) {
  std::istringstream lines(text);
  std::string line;
  int number = 0;
  while (std::getline(lines, line)) {
    ++number;
    if (line.find_first_not_of(" \t\r") == std::string::npos) continue;
    const std::string at = where + " line " + std::to_string(number);
    if (auto deep = CheckJsonDepth(line, "the action"); !deep.ok()) return Bad(at, deep.message());
    Json action = Json::parse(line, nullptr, /*allow_exceptions=*/false);
    if (action.is_discarded()) return Bad(at, "not valid JSON");
    FLOE_RETURN_IF_ERROR(ApplyAction(state, action, at));
  }
  return Status::OK();
}

}  // namespace floe::delta
