#include "floe/server/rest_requests_internal.h"

#include <utility>

namespace floe::server {

using catalog::Namespace;
using catalog::TableIdentifier;
using nlohmann::json;

namespace {

constexpr char kNamespaceSeparator = '\x1f';  // the REST spec's multi-level separator (%1F)

}  // namespace

Status ValidateName(const std::string& name, const char* what) {
  if (name.empty()) return Status::InvalidArgument(std::string(what) + " name is empty");
  if (name.size() > 255) return Status::InvalidArgument(std::string(what) + " name is longer than 255 bytes");
  if (name == "." || name == "..") return Status::InvalidArgument(std::string(what) + " name '" + name + "' is not allowed");
  for (unsigned char c : name) {
    if (c < 0x20 || c == 0x7f || c == '\\') {
      return Status::InvalidArgument(std::string(what) + " name '" + name + "' contains '\\' or a control character");
    }
  }
  return Status::OK();
}

Result<Namespace> ParseNamespacePath(const std::string& text) {
  Namespace ns;
  std::string part;
  for (char c : text) {
    if (c == kNamespaceSeparator) {
      ns.push_back(part);
      part.clear();
    } else {
      part.push_back(c);
    }
  }
  ns.push_back(part);
  for (const auto& p : ns) FLOE_RETURN_IF_ERROR(ValidateName(p, "namespace"));
  return ns;
}

Result<Namespace> NamespaceFromJson(const json& j) {
  if (!j.is_array() || j.empty()) return Status::InvalidArgument("namespace must be a non-empty array of strings");
  Namespace ns;
  for (const auto& p : j) {
    if (!p.is_string()) return Status::InvalidArgument("namespace must be a non-empty array of strings");
    ns.push_back(p.get<std::string>());
    FLOE_RETURN_IF_ERROR(ValidateName(ns.back(), "namespace"));
  }
  return ns;
}

Result<json> ParseBody(const HttpRequest& request) {
  json body = json::parse(request.body, nullptr, /*allow_exceptions=*/false);
  if (body.is_discarded()) return Status::InvalidArgument("request body is not valid JSON");
  if (!body.is_object()) return Status::InvalidArgument("request body must be a JSON object");
  return body;
}

Result<std::map<std::string, std::string>> StringMap(const json& j, const char* what) {
  std::map<std::string, std::string> out;
  if (j.is_null()) return out;
  if (!j.is_object()) return Status::InvalidArgument(std::string(what) + " must be an object of strings");
  for (const auto& [k, v] : j.items()) {
    if (!v.is_string()) return Status::InvalidArgument(std::string(what) + "." + k + " must be a string");
    out[k] = v.get<std::string>();
  }
  return out;
}

Result<TableIdentifier> IdentifierFromJson(const json& j) {
  if (!j.is_object() || !j.contains("name") || !j["name"].is_string() || !j.contains("namespace")) {
    return Status::InvalidArgument("table identifier must be {\"namespace\": [...], \"name\": \"...\"}");
  }
  TableIdentifier id;
  FLOE_ASSIGN_OR_RETURN(id.ns, NamespaceFromJson(j["namespace"]));
  id.name = j["name"].get<std::string>();
  FLOE_RETURN_IF_ERROR(ValidateName(id.name, "table"));
  return id;
}

Result<TableIdentifier> PathIdentifier(const HttpRequest& request, const char* what) {
  FLOE_ASSIGN_OR_RETURN(auto ns, ParseNamespacePath(request.path_params.at(0)));
  TableIdentifier id{ns, request.path_params.at(1)};
  FLOE_RETURN_IF_ERROR(ValidateName(id.name, what));
  return id;
}

Result<RenameRequest> ParseRenameRequest(const HttpRequest& request) {
  FLOE_ASSIGN_OR_RETURN(auto body, ParseBody(request));
  auto from = IdentifierFromJson(body.value("source", json()));
  if (!from.ok()) return from.status().WithContext("source");
  auto to = IdentifierFromJson(body.value("destination", json()));
  if (!to.ok()) return to.status().WithContext("destination");
  return RenameRequest{std::move(from).value(), std::move(to).value()};
}

}  // namespace floe::server
