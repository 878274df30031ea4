#include <regex>

#include "floe/core/config_reader_internal.h"
#include "floe/core/secret_ref.h"

namespace floe::config_internal {

void ReadSecret(ConfigReader& r, const YAML::Node& parent, const std::string& path, const char* key,
                std::string& out, bool required) {
  auto text = r.String(parent, path, key, required);
  if (!text) return;
  auto resolved = ResolveSecretRefs(*text);
  if (!resolved.ok()) {
    r.Error(parent[key], ConfigReader::Join(path, key), resolved.status().message());
    return;
  }
  out = *resolved;
}

void ReadEndpoint(ConfigReader& r, const YAML::Node& parent, const std::string& path, std::string& out) {
  ReadSecret(r, parent, path, "endpoint", out);
  if (!out.empty() && out.rfind("http://", 0) != 0 && out.rfind("https://", 0) != 0) {
    r.Error(parent["endpoint"], path + ".endpoint", "must start with http:// or https://");
  }
}

// Listen addresses are host:port; anything else would fail much later, at bind time.
bool IsHostPort(const std::string& text) {
  static const std::regex kHostPort(R"(^(\[[0-9a-fA-F:]+\]|[A-Za-z0-9.-]+):([0-9]{1,5})$)");
  std::smatch m;
  return std::regex_match(text, m, kHostPort) && std::stoi(m[2].str()) <= 65535;
}

}  // namespace floe::config_internal
