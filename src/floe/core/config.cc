#include "floe/core/config.h"

#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <fstream>
#include <functional>
#include <regex>
#include <set>
#include <sstream>
#include <utility>

#include "floe/core/edit_distance.h"
#include "floe/core/secret_ref.h"
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

// Collects every problem with its position; the loader goes on after an error so that one
// `floe validate` run reports them all.
class ConfigReader {
 public:
  explicit ConfigReader(std::string source) : source_(std::move(source)) {}

  void Error(const YAML::Node& at, const std::string& key, const std::string& message) {
    std::ostringstream line;
    line << source_;
    const YAML::Mark mark = at.Mark();
    if (mark.line >= 0) line << ":" << (mark.line + 1) << ":" << (mark.column + 1);
    line << ": " << (key.empty() ? "" : key + ": ") << message;
    errors_.push_back(line.str());
  }
  void ErrorAtMark(const YAML::Mark& mark, const std::string& message) {
    std::ostringstream line;
    line << source_ << ":" << (mark.line + 1) << ":" << (mark.column + 1) << ": " << message;
    errors_.push_back(line.str());
  }

  // Checks that `node` is a mapping whose keys are all in `allowed`; reports the others
  // with a did-you-mean suggestion. Returns false when `node` is not a mapping.
  bool ExpectMap(const YAML::Node& node, const std::string& path, const std::vector<std::string>& allowed) {
    if (!node.IsMap()) {
      Error(node, path, "expected a mapping of keys to values, got " + KindName(node));
      return false;
    }
    for (const auto& kv : node) {
      const std::string key = kv.first.Scalar();
      if (std::find(allowed.begin(), allowed.end(), key) != allowed.end()) continue;
      std::string message = "unknown key";
      if (auto best = ClosestMatch(key, allowed)) message += " (did you mean '" + *best + "'?)";
      else message += " (allowed: " + Join(allowed) + ")";
      Error(kv.first, Join(path, key), message);
    }
    return true;
  }

  // A scalar string; `required` reports its absence.
  std::optional<std::string> String(const YAML::Node& parent, const std::string& path, const char* key,
                                    bool required = false) {
    const YAML::Node node = parent[key];
    const std::string full = Join(path, key);
    if (!node.IsDefined() || node.IsNull()) {
      if (required) Error(parent, full, "required value is missing");
      return std::nullopt;
    }
    if (!node.IsScalar()) {
      Error(node, full, "expected a string, got " + KindName(node));
      return std::nullopt;
    }
    return node.Scalar();
  }

  template <typename T>
  void Assign(const YAML::Node& parent, const std::string& path, const char* key, T& out, bool required = false) {
    if (auto v = String(parent, path, key, required)) out = *v;
  }

  // A scalar parsed by `parse` (durations, sizes); errors carry the parse message.
  template <typename T, typename Parse>
  std::optional<T> Parsed(const YAML::Node& parent, const std::string& path, const char* key, Parse parse) {
    auto text = String(parent, path, key);
    if (!text) return std::nullopt;
    auto parsed = parse(*text);
    if (!parsed.ok()) {
      Error(parent[key], Join(path, key), parsed.status().message());
      return std::nullopt;
    }
    return *parsed;
  }

  // One of a fixed set of words, mapped to an enum.
  template <typename E>
  std::optional<E> Choice(const YAML::Node& parent, const std::string& path, const char* key,
                          const std::vector<std::pair<std::string, E>>& choices) {
    auto text = String(parent, path, key);
    if (!text) return std::nullopt;
    std::vector<std::string> names;
    for (const auto& [name, value] : choices) {
      if (name == *text) return value;
      names.push_back(name);
    }
    std::string message = "'" + *text + "' is not one of: " + Join(names);
    if (auto best = ClosestMatch(*text, names)) message += " (did you mean '" + *best + "'?)";
    Error(parent[key], Join(path, key), message);
    return std::nullopt;
  }

  std::optional<std::vector<std::string>> StringList(const YAML::Node& parent, const std::string& path,
                                                     const char* key) {
    const YAML::Node node = parent[key];
    if (!node.IsDefined() || node.IsNull()) return std::nullopt;
    const std::string full = Join(path, key);
    if (!node.IsSequence()) {
      Error(node, full, "expected a list, got " + KindName(node));
      return std::nullopt;
    }
    std::vector<std::string> out;
    for (std::size_t i = 0; i < node.size(); ++i) {
      if (!node[i].IsScalar()) {
        Error(node[i], full + "[" + std::to_string(i) + "]", "expected a string, got " + KindName(node[i]));
        continue;
      }
      out.push_back(node[i].Scalar());
    }
    return out;
  }

  static std::string Join(const std::string& path, const std::string& key) {
    return path.empty() ? key : path + "." + key;
  }
  static std::string Join(const std::vector<std::string>& words) {
    std::string out;
    for (const auto& w : words) out += (out.empty() ? "" : ", ") + w;
    return out;
  }
  static std::string KindName(const YAML::Node& node) {
    switch (node.Type()) {
      case YAML::NodeType::Map: return "a mapping";
      case YAML::NodeType::Sequence: return "a list";
      case YAML::NodeType::Scalar: return "'" + node.Scalar() + "'";
      case YAML::NodeType::Null: return "nothing";
      default: return "an undefined value";
    }
  }

  const std::vector<std::string>& errors() const { return errors_; }

 private:
  std::string source_;
  std::vector<std::string> errors_;
};

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
const std::vector<std::pair<std::string, bool>> kBooleans = {{"true", true}, {"false", false}};
const std::vector<std::pair<std::string, CatalogType>> kCatalogTypes = {
    {"builtin", CatalogType::kBuiltin}, {"rest", CatalogType::kRest}, {"glue", CatalogType::kGlue}};

// "identity"-style column references and Iceberg transforms: col, day(col), bucket[16](col).
bool IsPartitionExpression(const std::string& text) {
  static const std::regex kExpr(
      R"(^([A-Za-z_][A-Za-z0-9_.$-]*|(identity|year|month|day|hour|void)\([A-Za-z_][A-Za-z0-9_.$-]*\)|(bucket|truncate)\[[1-9][0-9]*\]\([A-Za-z_][A-Za-z0-9_.$-]*\))$)");
  return std::regex_match(text, kExpr);
}

// Listen addresses are host:port; anything else would fail much later, at bind time.
bool IsHostPort(const std::string& text) {
  static const std::regex kHostPort(R"(^(\[[0-9a-fA-F:]+\]|[A-Za-z0-9.-]+):([0-9]{1,5})$)");
  std::smatch m;
  return std::regex_match(text, m, kHostPort) && std::stoi(m[2].str()) <= 65535;
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
                                      "system_columns", "formats"}))
    return;
  r.Assign(node, "defaults", "namespace", d.namespace_name);
  if (auto v = r.Parsed<std::chrono::milliseconds>(node, "defaults", "commit_interval", ParseDuration)) d.commit_interval = *v;
  if (auto v = r.Parsed<std::int64_t>(node, "defaults", "target_file_size", ParseByteSize)) d.target_file_size = *v;
  if (auto v = r.Choice(node, "defaults", "error_mode", kErrorModes)) d.error_mode = *v;
  if (auto v = r.Choice(node, "defaults", "system_columns", kSystemColumns)) d.system_columns = *v;
  if (auto v = ReadFormats(r, node, "defaults")) d.formats = *v;
}

void ReadTopic(ConfigReader& r, const YAML::Node& node, const std::string& path, const TopicDefaults& d,
               TopicConfig& t) {
  t.commit_interval = d.commit_interval;
  t.target_file_size = d.target_file_size;
  t.error_mode = d.error_mode;
  t.system_columns = d.system_columns;
  t.formats = d.formats;
  if (!r.ExpectMap(node, path, {"name", "pattern", "table", "value", "key", "message", "json_conflicts", "partition_by",
                                "dlq_topic", "commit_interval", "target_file_size", "error_mode", "system_columns", "formats"}))
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
  if (auto v = r.StringList(node, path, "partition_by")) {
    for (std::size_t i = 0; i < v->size(); ++i) {
      if (!IsPartitionExpression((*v)[i])) {
        r.Error(node["partition_by"][i], path + ".partition_by",
                "'" + (*v)[i] + "' is not a column or a transform such as day(col), bucket[16](col), truncate[4](col)");
      }
    }
    t.partition_by = *v;
  }
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
}

// A field that may hold ${env:…}/${file:…} references: stored resolved. An error names the
// reference, never a value.
void ReadSecret(ConfigReader& r, const YAML::Node& parent, const std::string& path, const char* key,
                std::string& out, bool required = false) {
  auto text = r.String(parent, path, key, required);
  if (!text) return;
  auto resolved = ResolveSecretRefs(*text);
  if (!resolved.ok()) {
    r.Error(parent[key], ConfigReader::Join(path, key), resolved.status().message());
    return;
  }
  out = *resolved;
}

const std::vector<std::pair<std::string, S3CredentialsKind>> kS3Credentials = {
    {"default", S3CredentialsKind::kDefault}, {"static", S3CredentialsKind::kStatic}};
const std::vector<std::pair<std::string, S3RequestChecksums>> kS3Checksums = {
    {"auto", S3RequestChecksums::kAuto},
    {"when_supported", S3RequestChecksums::kWhenSupported},
    {"when_required", S3RequestChecksums::kWhenRequired}};
const std::vector<std::pair<std::string, std::string>> kS3Sse = {{"AES256", "AES256"}, {"aws:kms", "aws:kms"}};

void ReadS3(ConfigReader& r, const YAML::Node& node, S3StorageConfig& s) {
  const std::string path = "storage.s3";
  if (!r.ExpectMap(node, path, {"region", "endpoint", "path_style", "credentials", "access_key_id",
                                "secret_access_key", "session_token", "role_arn", "external_id", "sse",
                                "reader_access_key_id", "reader_secret_access_key", "request_checksums"}))
    return;
  ReadSecret(r, node, path, "region", s.region);
  ReadSecret(r, node, path, "endpoint", s.endpoint);
  if (!s.endpoint.empty() && s.endpoint.rfind("http://", 0) != 0 && s.endpoint.rfind("https://", 0) != 0) {
    r.Error(node["endpoint"], path + ".endpoint", "must start with http:// or https://");
  }
  if (auto v = r.Choice(node, path, "path_style", kBooleans)) s.path_style = *v;
  if (auto v = r.Choice(node, path, "credentials", kS3Credentials)) s.credentials = *v;
  if (auto v = r.Choice(node, path, "request_checksums", kS3Checksums)) s.request_checksums = *v;
  const bool is_static = s.credentials == S3CredentialsKind::kStatic;
  ReadSecret(r, node, path, "access_key_id", s.access_key_id, /*required=*/is_static);
  ReadSecret(r, node, path, "secret_access_key", s.secret_access_key, /*required=*/is_static);
  ReadSecret(r, node, path, "session_token", s.session_token);
  if (!is_static) {
    for (const char* key : {"access_key_id", "secret_access_key", "session_token"}) {
      if (node[key]) r.Error(node[key], path + "." + key, "only with credentials: static");
    }
  }
  ReadSecret(r, node, path, "role_arn", s.role_arn);
  ReadSecret(r, node, path, "external_id", s.external_id);
  if (!s.role_arn.empty() && is_static) {
    // Arrow's assume-role provider calls STS with the default chain's credentials only.
    r.Error(node["role_arn"], path + ".role_arn",
            "assumes the role with the default credential chain: use credentials: default (e.g. AWS_ACCESS_KEY_ID in "
            "the environment) or static keys without role_arn");
  }
  if (s.path_style && s.endpoint.empty()) {
    r.Error(node["path_style"], path + ".path_style", "needs an endpoint (AWS itself addresses buckets by host name)");
  }
  if (!s.external_id.empty() && s.role_arn.empty()) {
    r.Error(node["external_id"], path + ".external_id", "only with role_arn (it is sent when assuming the role)");
  }
  const YAML::Node sse = node["sse"];
  if (sse.IsDefined() && !sse.IsNull() && r.ExpectMap(sse, path + ".sse", {"type", "kms_key_id"})) {
    if (auto v = r.Choice(sse, path + ".sse", "type", kS3Sse)) s.sse_type = *v;
    ReadSecret(r, sse, path + ".sse", "kms_key_id", s.sse_kms_key_id);
    if (s.sse_type == "aws:kms") {
      // arrow::fs sends no SSE-KMS headers on its uploads, so data files would not be
      // encrypted with this key: refuse rather than half-apply it.
      r.Error(sse["type"], path + ".sse.type",
              "aws:kms is not supported yet: set the bucket's default encryption to the key instead (docs/storage.md)");
    } else if (!s.sse_kms_key_id.empty()) {
      r.Error(sse["kms_key_id"], path + ".sse.kms_key_id", "only with type: aws:kms");
    }
  }
  ReadSecret(r, node, path, "reader_access_key_id", s.reader_access_key_id);
  ReadSecret(r, node, path, "reader_secret_access_key", s.reader_secret_access_key);
  if (s.reader_access_key_id.empty() != s.reader_secret_access_key.empty()) {
    r.Error(node, path, "reader_access_key_id and reader_secret_access_key go together");
  }
}

// catalog.type glue: region, catalog_id, endpoint and the credentials of storage.s3 (same rules).
const std::vector<std::string> kGlueKeys = {"region",        "catalog_id",        "endpoint",
                                            "credentials",   "access_key_id",     "secret_access_key",
                                            "session_token", "role_arn",          "external_id"};

void ReadGlueCatalog(ConfigReader& r, const YAML::Node& node, bool glue, GlueCatalogConfig& g) {
  const std::string path = "catalog";
  if (!glue) {
    for (const auto& key : kGlueKeys) {
      if (node[key]) r.Error(node[key], path + "." + key, "only with type: glue");
    }
    return;
  }
  for (const char* key : {"uri", "listen"}) {
    if (node[key]) r.Error(node[key], path + "." + key, "not used with type: glue (Glue is the catalog)");
  }
  ReadSecret(r, node, path, "region", g.region);
  r.Assign(node, path, "catalog_id", g.catalog_id);
  ReadSecret(r, node, path, "endpoint", g.endpoint);
  if (!g.endpoint.empty() && g.endpoint.rfind("http://", 0) != 0 && g.endpoint.rfind("https://", 0) != 0) {
    r.Error(node["endpoint"], path + ".endpoint", "must start with http:// or https://");
  }
  if (auto v = r.Choice(node, path, "credentials", kS3Credentials)) g.credentials = *v;
  const bool is_static = g.credentials == S3CredentialsKind::kStatic;
  ReadSecret(r, node, path, "access_key_id", g.access_key_id, /*required=*/is_static);
  ReadSecret(r, node, path, "secret_access_key", g.secret_access_key, /*required=*/is_static);
  ReadSecret(r, node, path, "session_token", g.session_token);
  if (!is_static) {
    for (const char* key : {"access_key_id", "secret_access_key", "session_token"}) {
      if (node[key]) r.Error(node[key], path + "." + key, "only with credentials: static");
    }
  }
  ReadSecret(r, node, path, "role_arn", g.role_arn);
  ReadSecret(r, node, path, "external_id", g.external_id);
  if (!g.role_arn.empty() && is_static) {
    r.Error(node["role_arn"], path + ".role_arn", "assumes the role with the default credential chain, as storage.s3 does");
  }
  if (!g.external_id.empty() && g.role_arn.empty()) {
    r.Error(node["external_id"], path + ".external_id", "only with role_arn (it is sent when assuming the role)");
  }
}

// Glue's names (docs/catalog.md, "AWS Glue"): one namespace level, [a-z0-9_] only. Checked
// here so that `floe validate` and the start refuse them, not the first commit.
void CheckGlueTableNames(ConfigReader& r, const YAML::Node& root, const FloeConfig& c) {
  static const std::regex kGlueName("[a-z0-9_]{1,252}");    // databases
  static const std::regex kGlueTable("[a-z0-9_]{1,255}");
  const std::string rule = "with catalog.type glue, names are one database and one table of lower-case letters, "
                           "digits and underscores (docs/catalog.md, \"AWS Glue\")";
  if (!std::regex_match(c.defaults.namespace_name, kGlueName)) {
    r.Error(root["defaults"] ? root["defaults"] : root, "defaults.namespace",
            "'" + c.defaults.namespace_name + "': " + rule);
  }
  for (std::size_t i = 0; i < c.topics.size(); ++i) {
    const std::string& table = c.topics[i].table;
    const auto dot = table.find('.');
    if (table.empty() || (dot != std::string::npos && std::regex_match(table.substr(0, dot), kGlueName) &&
                          std::regex_match(table.substr(dot + 1), kGlueTable))) {
      continue;
    }
    r.Error(root["topics"][i], "topics[" + std::to_string(i) + "].table", "'" + table + "': " + rule);
  }
}

const std::vector<std::pair<std::string, AzureCredentialsKind>> kAzureCredentials = {
    {"default", AzureCredentialsKind::kDefault}, {"key", AzureCredentialsKind::kKey}, {"sas", AzureCredentialsKind::kSas}};

bool IsAzureUri(const std::string& uri) {
  return uri.rfind("abfs://", 0) == 0 || uri.rfind("abfss://", 0) == 0 || uri.rfind("az://", 0) == 0;
}

// A SAS token is a query string; a pasted leading '?' is dropped so both forms work.
std::string StripQuestionMark(std::string token) {
  if (!token.empty() && token.front() == '?') token.erase(0, 1);
  return token;
}

void ReadAzure(ConfigReader& r, const YAML::Node& node, AzureStorageConfig& a) {
  const std::string path = "storage.azure";
  if (!r.ExpectMap(node, path, {"account", "endpoint", "credentials", "account_key", "sas_token", "reader_sas_token"}))
    return;
  ReadSecret(r, node, path, "account", a.account, /*required=*/true);
  ReadSecret(r, node, path, "endpoint", a.endpoint);
  if (!a.endpoint.empty() && a.endpoint.rfind("http://", 0) != 0 && a.endpoint.rfind("https://", 0) != 0) {
    r.Error(node["endpoint"], path + ".endpoint", "must start with http:// or https://");
  }
  if (auto v = r.Choice(node, path, "credentials", kAzureCredentials)) a.credentials = *v;
  const bool key = a.credentials == AzureCredentialsKind::kKey;
  const bool sas = a.credentials == AzureCredentialsKind::kSas;
  ReadSecret(r, node, path, "account_key", a.account_key, /*required=*/key);
  ReadSecret(r, node, path, "sas_token", a.sas_token, /*required=*/sas);
  a.sas_token = StripQuestionMark(a.sas_token);
  if (!key && node["account_key"]) r.Error(node["account_key"], path + ".account_key", "only with credentials: key");
  if (!sas && node["sas_token"]) r.Error(node["sas_token"], path + ".sas_token", "only with credentials: sas");
  ReadSecret(r, node, path, "reader_sas_token", a.reader_sas_token);
  a.reader_sas_token = StripQuestionMark(a.reader_sas_token);
}

const std::vector<std::pair<std::string, GcsCredentialsKind>> kGcsCredentials = {
    {"default", GcsCredentialsKind::kDefault},
    {"anonymous", GcsCredentialsKind::kAnonymous},
    {"service_account_file", GcsCredentialsKind::kServiceAccountFile}};

void ReadGcs(ConfigReader& r, const YAML::Node& node, GcsStorageConfig& g) {
  const std::string path = "storage.gcs";
  if (!r.ExpectMap(node, path, {"endpoint", "credentials", "service_account_file", "project_id"})) return;
  ReadSecret(r, node, path, "endpoint", g.endpoint);
  if (!g.endpoint.empty() && g.endpoint.rfind("http://", 0) != 0 && g.endpoint.rfind("https://", 0) != 0) {
    r.Error(node["endpoint"], path + ".endpoint", "must start with http:// or https://");
  }
  if (auto v = r.Choice(node, path, "credentials", kGcsCredentials)) g.credentials = *v;
  const bool file = g.credentials == GcsCredentialsKind::kServiceAccountFile;
  ReadSecret(r, node, path, "service_account_file", g.service_account_file, /*required=*/file);
  if (!file && node["service_account_file"]) {
    r.Error(node["service_account_file"], path + ".service_account_file", "only with credentials: service_account_file");
  }
  if (file && !g.service_account_file.empty() && g.service_account_file.front() != '/') {
    r.Error(node["service_account_file"], path + ".service_account_file", "must be an absolute path");
  }
  ReadSecret(r, node, path, "project_id", g.project_id);
}

void ReadStorage(ConfigReader& r, const YAML::Node& node, const std::string& warehouse, StorageConfig& s) {
  if (!node.IsDefined() || node.IsNull()) return;
  if (!r.ExpectMap(node, "storage", {"s3", "azure", "gcs", "delta_single_writer"})) return;
  if (auto v = r.Choice(node, "storage", "delta_single_writer", kBooleans)) s.delta_single_writer = *v;
  const YAML::Node s3 = node["s3"];
  if (s3.IsDefined() && !s3.IsNull()) {
    S3StorageConfig c;
    ReadS3(r, s3, c);
    s.s3 = c;
  }
  if (s.s3 && !warehouse.empty() && warehouse.rfind("s3://", 0) != 0) {
    r.Error(node["s3"], "storage.s3", "configured, but the warehouse ('" + warehouse + "') is not an s3:// URI");
  }
  const YAML::Node azure = node["azure"];
  if (azure.IsDefined() && !azure.IsNull()) {
    AzureStorageConfig c;
    ReadAzure(r, azure, c);
    s.azure = c;
  } else if (azure.IsDefined()) {
    r.Error(azure, "storage.azure", "needs at least the account");
  }
  if (s.azure && !warehouse.empty() && !IsAzureUri(warehouse)) {
    r.Error(node["azure"], "storage.azure",
            "configured, but the warehouse ('" + warehouse + "') is not an abfs://, abfss:// or az:// URI");
  }
  const YAML::Node gcs = node["gcs"];
  if (gcs.IsDefined() && !gcs.IsNull()) {
    GcsStorageConfig c;
    ReadGcs(r, gcs, c);
    s.gcs = c;
  }
  if (s.gcs && !warehouse.empty() && warehouse.rfind("gs://", 0) != 0) {
    r.Error(node["gcs"], "storage.gcs", "configured, but the warehouse ('" + warehouse + "') is not a gs:// URI");
  }
  // abfs[s]://container@<account>.dfs.core.windows.net/…: the URI names the account too.
  const auto at = warehouse.find('@');
  if (s.azure && IsAzureUri(warehouse) && at != std::string::npos) {
    const std::string account = warehouse.substr(at + 1, warehouse.find_first_of("./", at + 1) - at - 1);
    if (account != s.azure->account) {
      r.Error(node["azure"]["account"], "storage.azure.account",
              "'" + s.azure->account + "' differs from the account in the warehouse URI ('" + account + "')");
    }
  }
}

FloeConfig ReadConfig(ConfigReader& r, const YAML::Node& root, ConfigUse use) {
  const bool run = use == ConfigUse::kRun;
  FloeConfig c;
  if (!r.ExpectMap(root, "", {"kafka", "schema_registry", "warehouse", "catalog", "admin", "buffer_memory", "defaults",
                                "topics", "storage"}))
    return c;

  const YAML::Node kafka = root["kafka"];
  if (!kafka.IsDefined() || kafka.IsNull()) {
    if (run) r.Error(root, "kafka", "required section is missing (it needs at least bootstrap_servers)");
  } else if (r.ExpectMap(kafka, "kafka", {"bootstrap_servers", "group_id", "properties"})) {
    r.Assign(kafka, "kafka", "bootstrap_servers", c.kafka.bootstrap_servers, /*required=*/true);
    r.Assign(kafka, "kafka", "group_id", c.kafka.group_id);
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
  }

  const YAML::Node sr = root["schema_registry"];
  if (sr.IsDefined() && !sr.IsNull() &&
      r.ExpectMap(sr, "schema_registry", {"url", "basic_auth_user", "basic_auth_password", "bearer_token"})) {
    SchemaRegistryConfig s;
    r.Assign(sr, "schema_registry", "url", s.url, /*required=*/true);
    r.Assign(sr, "schema_registry", "basic_auth_user", s.basic_auth_user);
    ReadSecret(r, sr, "schema_registry", "basic_auth_password", s.basic_auth_password);
    ReadSecret(r, sr, "schema_registry", "bearer_token", s.bearer_token);
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

  const YAML::Node cat = root["catalog"];
  if (cat.IsDefined() && !cat.IsNull() &&
      r.ExpectMap(cat, "catalog", [] {
        std::vector<std::string> keys = {"type", "uri", "listen", "token", "vend_credentials"};
        keys.insert(keys.end(), kGlueKeys.begin(), kGlueKeys.end());
        return keys;
      }())) {
    if (auto v = r.Choice(cat, "catalog", "type", kCatalogTypes)) c.catalog.type = *v;
    ReadGlueCatalog(r, cat, c.catalog.type == CatalogType::kGlue, c.catalog.glue);
    r.Assign(cat, "catalog", "uri", c.catalog.uri, /*required=*/c.catalog.type == CatalogType::kRest);
    r.Assign(cat, "catalog", "listen", c.catalog.listen);
    ReadSecret(r, cat, "catalog", "token", c.catalog.token);
    if (auto v = r.Choice(cat, "catalog", "vend_credentials", kBooleans)) c.catalog.vend_credentials = *v;
    if (c.catalog.vend_credentials && (!c.storage.s3 || c.storage.s3->role_arn.empty())) {
      r.Error(cat["vend_credentials"], "catalog.vend_credentials",
              "needs storage.s3.role_arn: vended credentials are read-only sessions of that role (docs/storage.md)");
    }
    if (!c.catalog.listen.empty() && !IsHostPort(c.catalog.listen)) {
      r.Error(cat["listen"], "catalog.listen", "'" + c.catalog.listen + "' is not host:port");
    }
  }
  const YAML::Node admin = root["admin"];
  if (admin.IsDefined() && !admin.IsNull() && r.ExpectMap(admin, "admin", {"listen"})) {
    r.Assign(admin, "admin", "listen", c.admin.listen);
    if (!c.admin.listen.empty() && !IsHostPort(c.admin.listen)) {
      r.Error(admin["listen"], "admin.listen", "'" + c.admin.listen + "' is not host:port");
    }
  }

  if (auto v = r.Parsed<std::int64_t>(root, "", "buffer_memory", ParseByteSize)) c.buffer_memory = *v;
  if (c.buffer_memory < (8 << 20)) r.Error(root["buffer_memory"], "buffer_memory", "must be at least 8MiB");
  ReadDefaults(r, root["defaults"], c.defaults);

  const YAML::Node topics = root["topics"];
  if (!topics.IsDefined() || topics.IsNull()) {
    if (run) r.Error(root, "topics", "required list is missing: name at least one topic to materialize");
  } else if (!topics.IsSequence()) {
    r.Error(topics, "topics", "expected a list of topics, got " + ConfigReader::KindName(topics));
  } else {
    std::set<std::string> tables;
    for (std::size_t i = 0; i < topics.size(); ++i) {
      TopicConfig t;
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
  if (c.catalog.type == CatalogType::kGlue) CheckGlueTableNames(r, root, c);
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
