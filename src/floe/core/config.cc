#include "floe/core/config.h"

#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <charconv>
#include <fstream>
#include <functional>
#include <regex>
#include <set>
#include <sstream>
#include <utility>

#include "floe/core/config_reader_internal.h"
#include "floe/core/units.h"

namespace floe {

std::string_view PayloadFormatName(PayloadFormat f) {
  switch (f) {
    case PayloadFormat::kAvro: return "avro";
    case PayloadFormat::kProtobuf: return "protobuf";
    case PayloadFormat::kJsonSchema: return "json_schema";
    case PayloadFormat::kJson: return "json";
    case PayloadFormat::kString: return "string";
    case PayloadFormat::kBytes: return "bytes";
    case PayloadFormat::kAuto: return "auto";
  }
  return "?";
}

std::string_view CatalogTypeName(CatalogType t) {
  switch (t) {
    case CatalogType::kBuiltin: return "builtin";
    case CatalogType::kRest: return "rest";
    case CatalogType::kGlue: return "glue";
    case CatalogType::kUnity: return "unity";
  }
  return "?";
}

bool UsesSchemaRegistry(PayloadFormat f) {
  return f == PayloadFormat::kAvro || f == PayloadFormat::kProtobuf || f == PayloadFormat::kJsonSchema ||
         f == PayloadFormat::kAuto;
}

Result<std::string> DefaultCatalogUri(const FloeConfig& config) {
  if (!config.catalog.uri.empty()) return config.catalog.uri;
  std::string local;
  if (config.warehouse.rfind("file://", 0) == 0) {
    local = config.warehouse.substr(7);
  } else if (!config.warehouse.empty() && config.warehouse.front() == '/') {
    local = config.warehouse;
  } else {
    return Status::InvalidArgument("catalog.uri is required when the warehouse ('" + config.warehouse +
                                   "') is not a local absolute path");
  }
  while (local.size() > 1 && local.back() == '/') local.pop_back();
  return "sqlite://" + local + "/catalog.db";
}

std::string SanitizeTableName(std::string_view topic) {
  std::string out;
  out.reserve(topic.size());
  for (char c : topic) {
    char l = (c >= 'A' && c <= 'Z') ? static_cast<char>(c - 'A' + 'a') : c;
    bool keep = (l >= 'a' && l <= 'z') || (l >= '0' && l <= '9') || l == '_';
    out.push_back(keep ? l : '_');
  }
  return out;
}

namespace {

using namespace config_internal;

// workers: a whole number from 1 to 256 (more threads than that only contend).
Result<int> ParseWorkerCount(std::string_view text) {
  int value = 0;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (ec != std::errc() || end != text.data() + text.size() || value < 1 || value > 256) {
    return Status::InvalidArgument("'" + std::string(text) + "' is not a number of worker threads from 1 to 256");
  }
  return value;
}

// kafka.instance_id: may come from the environment (`${env:HOSTNAME}` in a StatefulSet, an
// Environment= line of a systemd template unit), so it is resolved like a secret. The broker
// takes group instance ids by Kafka's topic-name rules; checking them here turns a JoinGroup
// refusal at run time into a config error.
void ReadInstanceId(ConfigReader& r, const YAML::Node& kafka, std::string& out) {
  if (!kafka["instance_id"].IsDefined()) return;
  ReadSecret(r, kafka, "kafka", "instance_id", out, /*required=*/true);
  static const std::regex kLegal("^[A-Za-z0-9._-]{1,249}$");
  if (!std::regex_match(out, kLegal)) {
    r.Error(kafka["instance_id"], "kafka.instance_id",
            out.empty() ? "is empty (an unset variable?): each worker of the group needs its own non-empty id"
                        : "must be 1 to 249 characters out of letters, digits, '.', '_' and '-'");
  }
}

const std::vector<std::pair<std::string, PayloadFormat>> kPayloadFormats = {
    {"auto", PayloadFormat::kAuto},   {"avro", PayloadFormat::kAvro},   {"protobuf", PayloadFormat::kProtobuf},
    {"json_schema", PayloadFormat::kJsonSchema}, {"json", PayloadFormat::kJson},
    {"string", PayloadFormat::kString}, {"bytes", PayloadFormat::kBytes}};
const std::vector<std::pair<std::string, ErrorMode>> kErrorModes = {
    {"suspend", ErrorMode::kSuspend}, {"skip", ErrorMode::kSkip}, {"dlq", ErrorMode::kDlq}};
const std::vector<std::pair<std::string, bool>> kJsonConflicts = {{"error", false}, {"as_text", true}};
const std::vector<std::pair<std::string, SystemColumns>> kSystemColumns = {
    {"nested", SystemColumns::kNested}, {"tableflow", SystemColumns::kTableflow}};
const std::vector<std::pair<std::string, TableFormat>> kTableFormats = {
    {"iceberg", TableFormat::kIceberg}, {"delta", TableFormat::kDelta}};

// A column, then optionally asc/desc and nulls first/last: customer, amount desc nulls last.
bool IsSortExpression(const std::string& text) {
  static const std::regex kExpr(R"(^\s*[A-Za-z_][A-Za-z0-9_.$-]*(\s+(asc|desc))?(\s+nulls\s+(first|last))?\s*$)",
                                std::regex::icase);
  return std::regex_match(text, kExpr);
}

// "identity"-style column references and Iceberg transforms: col, day(col), bucket[16](col).
bool IsPartitionExpression(const std::string& text) {
  static const std::regex kExpr(
      R"(^([A-Za-z_][A-Za-z0-9_.$-]*|(identity|year|month|day|hour|void)\([A-Za-z_][A-Za-z0-9_.$-]*\)|(bucket|truncate)\[[1-9][0-9]*\]\([A-Za-z_][A-Za-z0-9_.$-]*\))$)");
  return std::regex_match(text, kExpr);
}

// A list of expressions under `key`, each checked by `valid` ("'x' is not <expected>").
void ReadExpressions(ConfigReader& r, const YAML::Node& node, const std::string& path, const char* key,
                     bool (*valid)(const std::string&), const std::string& expected, std::vector<std::string>& out) {
  auto list = r.StringList(node, path, key);
  if (!list) return;
  for (std::size_t i = 0; i < list->size(); ++i) {
    if (!valid((*list)[i])) r.Error(node[key][i], path + "." + key, "'" + (*list)[i] + "' is not " + expected);
  }
  out = std::move(*list);
}

std::optional<std::vector<TableFormat>> ReadFormats(ConfigReader& r, const YAML::Node& parent,
                                                    const std::string& path) {
  auto list = r.StringList(parent, path, "formats");
  if (!list) return std::nullopt;
  std::vector<TableFormat> out;
  for (std::size_t i = 0; i < list->size(); ++i) {
    bool found = false;
    for (const auto& [name, f] : kTableFormats) {
      if (name == (*list)[i]) {
        if (std::find(out.begin(), out.end(), f) == out.end()) out.push_back(f);
        found = true;
      }
    }
    if (!found) r.Error(parent["formats"][i], path + ".formats", "'" + (*list)[i] + "' is not one of: iceberg, delta");
  }
  if (list->empty()) r.Error(parent["formats"], path + ".formats", "at least one table format is required");
  return out;
}

void ReadDefaults(ConfigReader& r, const YAML::Node& node, TopicDefaults& d) {
  if (!node.IsDefined() || node.IsNull()) return;
  if (!r.ExpectMap(node, "defaults", {"namespace", "commit_interval", "target_file_size", "error_mode",
                                      "system_columns", "formats", "max_record_size"}))
    return;
  r.Assign(node, "defaults", "namespace", d.namespace_name);
  if (auto v = r.Parsed<std::chrono::milliseconds>(node, "defaults", "commit_interval", ParseDuration)) d.commit_interval = *v;
  if (auto v = r.Parsed<std::int64_t>(node, "defaults", "target_file_size", ParseByteSize)) d.target_file_size = *v;
  if (auto v = r.Choice(node, "defaults", "error_mode", kErrorModes)) d.error_mode = *v;
  if (auto v = r.Choice(node, "defaults", "system_columns", kSystemColumns)) d.system_columns = *v;
  if (auto v = ReadFormats(r, node, "defaults")) d.formats = *v;
  if (auto v = r.Parsed<std::int64_t>(node, "defaults", "max_record_size", ParseByteSize)) d.max_record_size = *v;
}

void ReadTopic(ConfigReader& r, const YAML::Node& node, const std::string& path, const TopicDefaults& d,
               TopicConfig& t) {
  t.commit_interval = d.commit_interval;
  t.target_file_size = d.target_file_size;
  t.error_mode = d.error_mode;
  t.system_columns = d.system_columns;
  t.formats = d.formats;
  t.max_record_size = d.max_record_size;
  if (!r.ExpectMap(node, path, {"name", "pattern", "table", "value", "key", "message", "json_conflicts", "partition_by",
                                "sort_by", "dlq_topic", "commit_interval", "target_file_size", "error_mode",
                                "system_columns", "formats", "maintenance", "max_record_size"}))
    return;
  r.Assign(node, path, "name", t.name);
  r.Assign(node, path, "pattern", t.pattern);
  if (t.name.empty() == t.pattern.empty()) {
    r.Error(node, path, "give exactly one of 'name' (a topic) or 'pattern' (a regex over topic names)");
  }
  if (!t.pattern.empty()) {
    try {
      std::regex check(t.pattern, std::regex::ECMAScript);
    } catch (const std::regex_error& e) {
      r.Error(node["pattern"], path + ".pattern", std::string("not a valid regular expression: ") + e.what());
    }
  }
  r.Assign(node, path, "table", t.table);
  if (!t.table.empty() && t.table.find('.') == std::string::npos) t.table = d.namespace_name + "." + t.table;
  if (t.table.empty() && !t.name.empty()) t.table = d.namespace_name + "." + SanitizeTableName(t.name);
  if (auto v = r.Choice(node, path, "value", kPayloadFormats)) t.value = *v;
  if (auto v = r.Choice(node, path, "key", kPayloadFormats)) t.key = *v;
  r.Assign(node, path, "message", t.message);
  if (!t.message.empty() && t.value != PayloadFormat::kProtobuf && t.value != PayloadFormat::kAuto) {
    r.Error(node["message"], path + ".message", "only for Protobuf values (value: protobuf or auto)");
  }
  if (auto v = r.Choice(node, path, "json_conflicts", kJsonConflicts)) {
    t.json_conflicts_as_text = *v;
    if (t.value != PayloadFormat::kJson) {
      r.Error(node["json_conflicts"], path + ".json_conflicts", "only for schemaless JSON values (value: json)");
    }
  }
  ReadExpressions(r, node, path, "partition_by", IsPartitionExpression,
                  "a column or a transform such as day(col), bucket[16](col), truncate[4](col)", t.partition_by);
  ReadExpressions(r, node, path, "sort_by", IsSortExpression,
                  "a column, optionally followed by asc or desc and nulls first or nulls last", t.sort_by);
  r.Assign(node, path, "dlq_topic", t.dlq_topic);
  if (auto v = r.Parsed<std::chrono::milliseconds>(node, path, "commit_interval", ParseDuration)) t.commit_interval = *v;
  if (auto v = r.Parsed<std::int64_t>(node, path, "target_file_size", ParseByteSize)) t.target_file_size = *v;
  if (auto v = r.Choice(node, path, "error_mode", kErrorModes)) t.error_mode = *v;
  if (auto v = r.Choice(node, path, "system_columns", kSystemColumns)) t.system_columns = *v;
  if (auto v = ReadFormats(r, node, path)) t.formats = *v;
  if (t.error_mode == ErrorMode::kDlq && t.dlq_topic.empty()) {
    r.Error(node, path, "error_mode is 'dlq' but no dlq_topic is set");
  }
  if (t.commit_interval.count() <= 0) r.Error(node, path + ".commit_interval", "must be greater than 0");
  if (t.target_file_size < (1 << 20)) r.Error(node, path + ".target_file_size", "must be at least 1MiB");
  if (auto v = r.Parsed<std::int64_t>(node, path, "max_record_size", ParseByteSize)) t.max_record_size = *v;
  if (t.max_record_size < 1024) r.Error(node, path + ".max_record_size", "must be at least 1KiB");
  ReadMaintenance(r, node["maintenance"], path + ".maintenance", /*top_level=*/false, t.maintenance);
  ResolveTopicMaintenance(r, node, path, t);
}

FloeConfig ReadConfig(ConfigReader& r, const YAML::Node& root, ConfigUse use) {
  const bool run = use == ConfigUse::kRun;
  FloeConfig c;
  if (!r.ExpectMap(root, "", {"kafka", "schema_registry", "warehouse", "catalog", "admin", "buffer_memory", "workers",
                                "defaults", "topics", "storage", "maintenance"}))
    return c;

  const YAML::Node kafka = root["kafka"];
  if (!kafka.IsDefined() || kafka.IsNull()) {
    if (run) r.Error(root, "kafka", "required section is missing (it needs at least bootstrap_servers)");
  } else if (r.ExpectMap(kafka, "kafka", {"bootstrap_servers", "group_id", "instance_id", "properties"})) {
    r.Assign(kafka, "kafka", "bootstrap_servers", c.kafka.bootstrap_servers, /*required=*/true);
    r.Assign(kafka, "kafka", "group_id", c.kafka.group_id);
    ReadInstanceId(r, kafka, c.kafka.instance_id);
    const YAML::Node props = kafka["properties"];
    if (props.IsDefined() && !props.IsNull()) {
      if (!props.IsMap()) {
        r.Error(props, "kafka.properties", "expected a mapping of librdkafka properties");
      } else {
        for (const auto& kv : props) {
          if (!kv.second.IsScalar()) {
            r.Error(kv.second, "kafka.properties." + kv.first.Scalar(), "expected a scalar value");
            continue;
          }
          // sasl.password and friends: secrets may come from ${env:…}/${file:…}.
          ReadSecret(r, props, "kafka.properties", kv.first.Scalar().c_str(), c.kafka.properties[kv.first.Scalar()]);
        }
      }
    }
    if (!c.kafka.instance_id.empty() && c.kafka.properties.count("group.instance.id") > 0) {
      r.Error(kafka, "kafka.instance_id", "is set twice: also as kafka.properties.group.instance.id (keep one)");
    }
  }

  const YAML::Node sr = root["schema_registry"];
  if (sr.IsDefined() && !sr.IsNull() &&
      r.ExpectMap(sr, "schema_registry", {"url", "basic_auth_user", "basic_auth_password", "bearer_token", "ca_file"})) {
    SchemaRegistryConfig s;
    r.Assign(sr, "schema_registry", "url", s.url, /*required=*/true);
    r.Assign(sr, "schema_registry", "basic_auth_user", s.basic_auth_user);
    ReadSecret(r, sr, "schema_registry", "basic_auth_password", s.basic_auth_password);
    ReadSecret(r, sr, "schema_registry", "bearer_token", s.bearer_token);
    r.Assign(sr, "schema_registry", "ca_file", s.ca_file);
    if (!s.ca_file.empty() && s.url.rfind("https://", 0) != 0) {
      r.Error(sr["ca_file"], "schema_registry.ca_file", "only with an https:// url");
    }
    if (!s.url.empty() && s.url.rfind("http://", 0) != 0 && s.url.rfind("https://", 0) != 0) {
      r.Error(sr["url"], "schema_registry.url", "must start with http:// or https://");
    }
    if (s.basic_auth_user.empty() != s.basic_auth_password.empty()) {
      r.Error(sr, "schema_registry", "basic_auth_user and basic_auth_password go together");
    }
    c.schema_registry = s;
  }

  r.Assign(root, "", "warehouse", c.warehouse, /*required=*/true);
  ReadStorage(r, root["storage"], c.warehouse, c.storage);

  ReadCatalog(r, root["catalog"], c.storage, c.catalog);
  const YAML::Node admin = root["admin"];
  if (admin.IsDefined() && !admin.IsNull() && r.ExpectMap(admin, "admin", {"listen", "token", "tls", "auth"})) {
    r.Assign(admin, "admin", "listen", c.admin.listen);
    ReadSecret(r, admin, "admin", "token", c.admin.token);
    ReadServerTls(r, admin, "admin", c.admin.tls);
    ReadCatalogAuth(r, admin, "admin", c.admin.auth);
    if (!c.admin.listen.empty() && !IsHostPort(c.admin.listen)) {
      r.Error(admin["listen"], "admin.listen", "'" + c.admin.listen + "' is not host:port");
    }
  }

  if (auto v = r.Parsed<std::int64_t>(root, "", "buffer_memory", ParseByteSize)) c.buffer_memory = *v;
  if (c.buffer_memory < (8 << 20)) r.Error(root["buffer_memory"], "buffer_memory", "must be at least 8MiB");
  if (auto v = r.Parsed<int>(root, "", "workers", ParseWorkerCount)) c.workers = *v;
  ReadDefaults(r, root["defaults"], c.defaults);
  ReadMaintenance(r, root["maintenance"], "maintenance", /*top_level=*/true, c.maintenance);

  const YAML::Node topics = root["topics"];
  if (!topics.IsDefined() || topics.IsNull()) {
    if (run) r.Error(root, "topics", "required list is missing: name at least one topic to materialize");
  } else if (!topics.IsSequence()) {
    r.Error(topics, "topics", "expected a list of topics, got " + ConfigReader::KindName(topics));
  } else {
    std::set<std::string> tables;
    for (std::size_t i = 0; i < topics.size(); ++i) {
      TopicConfig t;
      t.maintenance = c.maintenance;  // the topic's maintenance: overrides it key by key
      const std::string path = "topics[" + std::to_string(i) + "]";
      ReadTopic(r, topics[i], path, c.defaults, t);
      // With a registry, a value of unnamed format is whatever its schema says (Avro,
      // Protobuf or JSON Schema); without one, Avro as before (refused below).
      if (c.schema_registry && !topics[i]["value"]) t.value = PayloadFormat::kAuto;
      if (!t.table.empty() && !tables.insert(t.table).second) {
        r.Error(topics[i], path, "table '" + t.table + "' is already the target of another topic entry");
      }
      if (!c.schema_registry && (UsesSchemaRegistry(t.value) || UsesSchemaRegistry(t.key))) {
        r.Error(topics[i], path, "uses a Schema Registry format but no schema_registry.url is configured");
      }
      c.topics.push_back(std::move(t));
    }
    if (topics.size() == 0) r.Error(topics, "topics", "the list is empty: name at least one topic");
  }
  CheckCatalogNames(r, root, c);
  return c;
}

}  // namespace

Result<FloeConfig> ParseConfig(const std::string& yaml_text, const std::string& source_name, ConfigUse use) {
  ConfigReader reader(source_name);
  YAML::Node root;
  try {
    root = YAML::Load(yaml_text);
  } catch (const YAML::Exception& e) {
    reader.ErrorAtMark(e.mark, "not valid YAML: " + e.msg);
    return Status::InvalidArgument(reader.errors().front());
  }
  FloeConfig config;
  try {
    config = ReadConfig(reader, root, use);
  } catch (const YAML::Exception& e) {  // yaml-cpp throws on odd shapes (e.g. a key that is a map)
    reader.ErrorAtMark(e.mark, e.msg);
  }
  if (!reader.errors().empty()) {
    std::string message;
    for (const auto& e : reader.errors()) message += (message.empty() ? "" : "\n") + e;
    return Status::InvalidArgument(message);
  }
  return config;
}

Result<FloeConfig> LoadConfigFile(const std::string& path, ConfigUse use) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return Status::NotFound("cannot open config file '" + path + "'");
  std::stringstream buffer;
  buffer << in.rdbuf();
  return ParseConfig(buffer.str(), path, use);
}

}  // namespace floe
