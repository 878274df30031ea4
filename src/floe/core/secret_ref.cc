#include "floe/core/secret_ref.h"

#include <cstdlib>
#include <fstream>
#include <sstream>

namespace floe {
namespace {

Result<std::string> ReadSecretFile(const std::string& path) {
  if (path.empty() || path.front() != '/') {
    return Status::InvalidArgument("${file:" + path + "}: the path must be absolute");
  }
  std::ifstream in(path, std::ios::binary);
  if (!in) return Status::InvalidArgument("${file:" + path + "}: cannot read the file");
  std::ostringstream content;
  content << in.rdbuf();
  std::string out = content.str();
  // Secret files usually end with one newline (echo, Kubernetes secrets from literals).
  if (!out.empty() && out.back() == '\n') out.pop_back();
  if (!out.empty() && out.back() == '\r') out.pop_back();
  return out;
}

Result<std::string> Resolve(std::string_view ref) {
  const auto colon = ref.find(':');
  const std::string kind(ref.substr(0, colon));
  const std::string arg = colon == std::string_view::npos ? std::string() : std::string(ref.substr(colon + 1));
  if (colon == std::string_view::npos || arg.empty()) {
    return Status::InvalidArgument("${" + std::string(ref) + "}: expected ${env:NAME} or ${file:/path}");
  }
  if (kind == "env") {
    const char* v = std::getenv(arg.c_str());
    if (v == nullptr) return Status::InvalidArgument("${env:" + arg + "}: the environment variable is not set");
    return std::string(v);
  }
  if (kind == "file") return ReadSecretFile(arg);
  return Status::InvalidArgument("${" + kind + ":…}: unknown reference kind (use env or file)");
}

}  // namespace

Result<std::string> ResolveSecretRefs(std::string_view value) {
  std::string out;
  std::size_t i = 0;
  while (i < value.size()) {
    if (value.compare(i, 3, "$${") == 0) {
      out += "${";
      i += 3;
      continue;
    }
    if (value.compare(i, 2, "${") != 0) {
      out.push_back(value[i++]);
      continue;
    }
    const auto end = value.find('}', i + 2);
    if (end == std::string_view::npos) return Status::InvalidArgument("unterminated '${' reference");
    FLOE_ASSIGN_OR_RETURN(auto resolved, Resolve(value.substr(i + 2, end - i - 2)));
    out += resolved;
    i = end + 1;
  }
  return out;
}

bool HasSecretRef(std::string_view value) {
  for (std::size_t i = 0; i + 1 < value.size(); ++i) {
    if (value.compare(i, 3, "$${") == 0) {
      i += 2;
      continue;
    }
    if (value.compare(i, 2, "${") == 0) return true;
  }
  return false;
}

}  // namespace floe
