// The YAML reader shared by the config's parts (config.cc: the top level, kafka, topics;
// config_storage.cc: storage; config_catalog.cc: catalog). Internal to floe::core.
#pragma once

#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <optional>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "floe/core/config.h"
#include "floe/core/edit_distance.h"

namespace floe::config_internal {

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

inline const std::vector<std::pair<std::string, bool>> kBooleans = {{"true", true}, {"false", false}};
inline const std::vector<std::pair<std::string, S3CredentialsKind>> kS3Credentials = {
    {"default", S3CredentialsKind::kDefault}, {"static", S3CredentialsKind::kStatic}};

// A field that may hold ${env:…}/${file:…} references: stored resolved. An error names the
// reference, never a value.
void ReadSecret(ConfigReader& r, const YAML::Node& parent, const std::string& path, const char* key,
                std::string& out, bool required = false);

// An optional http(s):// endpoint (which may be a secret reference).
void ReadEndpoint(ConfigReader& r, const YAML::Node& parent, const std::string& path, std::string& out);

// host:port, as listen addresses are written.
bool IsHostPort(const std::string& text);

// The `storage` section; `warehouse` decides which stores may be configured.
void ReadStorage(ConfigReader& r, const YAML::Node& node, const std::string& warehouse, StorageConfig& s);

// The `catalog` section (read after storage: credential vending needs storage.s3).
void ReadCatalog(ConfigReader& r, const YAML::Node& node, const StorageConfig& storage, CatalogConfig& c);

// `<path>.tls: {cert, key}` of a server (config_server.cc); both PEM files must be readable.
void ReadServerTls(ConfigReader& r, const YAML::Node& parent, const std::string& path,
                   std::optional<ServerTlsConfig>& out);

// catalog.auth or admin.auth (`section`): the OAuth2 clients of a served listener (config_server.cc).
void ReadCatalogAuth(ConfigReader& r, const YAML::Node& parent, const std::string& section,
                     std::optional<CatalogAuthConfig>& out);

// A maintenance: section (config_maintenance.cc) over `m`, which holds the defaults: the
// top-level one (top_level: cpu_share allowed) or a topic's override.
void ReadMaintenance(ConfigReader& r, const YAML::Node& node, const std::string& path, bool top_level,
                     MaintenanceConfig& m);
// After a topic is read: compaction's target_file_size defaults to the topic's; orphan_age
// must leave its commits time to land.
void ResolveTopicMaintenance(ConfigReader& r, const YAML::Node& node, const std::string& path, TopicConfig& t);

// Checks that need the whole config (e.g. Glue's table-name rules over the topics).
void CheckCatalogNames(ConfigReader& r, const YAML::Node& root, const FloeConfig& c);

// Glue's table-name rules over the topics (config_glue.cc), for CheckCatalogNames.
void CheckGlueTableNames(ConfigReader& r, const YAML::Node& root, const FloeConfig& c);

}  // namespace floe::config_internal
