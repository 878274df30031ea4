#include "floe/server/rest_requests_internal.h"

#include <algorithm>
#include <cstdint>
#include <utility>

#include "floe/core/json_depth.h"
#include "floe/core/percent_encoding.h"
#include "floe/iceberg/table_requirement.h"
#include "floe/iceberg/table_update.h"
#include "floe/schema/json.h"

namespace floe::server {

using catalog::Namespace;
using catalog::TableIdentifier;
using nlohmann::json;

namespace {

constexpr char kNamespaceSeparator = '\x1f';  // the REST spec's multi-level separator (%1F)

// REST clients send "unbound" specs and sort orders: field ids and spec/order ids may be
// missing. Fill them in the way the spec assigns them (partition fields from 1000).
json BindSpecJson(json spec) {
  if (!spec.contains("spec-id")) spec["spec-id"] = 0;
  std::int64_t next = 1000;
  if (spec.contains("fields") && spec["fields"].is_array()) {
    for (auto& f : spec["fields"]) {
      if (f.is_object() && !f.contains("field-id")) f["field-id"] = next;
      // 64-bit and clamped: a client's id near INT_MAX must not overflow the next one (an id
      // out of the 32-bit range is refused by PartitionSpecFromJson).
      if (f.is_object() && f["field-id"].is_number_integer()) {
        const std::int64_t id = std::min(f["field-id"].get<std::int64_t>(), std::int64_t{1} << 40);
        next = std::max(next, id + 1);
      }
    }
  }
  return spec;
}

json BindSortOrderJson(json order) {
  if (!order.contains("order-id")) {
    const bool empty = !order.contains("fields") || !order["fields"].is_array() || order["fields"].empty();
    order["order-id"] = empty ? 0 : 1;
  }
  return order;
}

Result<catalog::TableChange> ChangeFromJson(const json& body, TableIdentifier id) {
  catalog::TableChange change;
  change.id = std::move(id);
  if (body.contains("requirements")) {
    if (!body["requirements"].is_array()) return Status::InvalidArgument("requirements must be an array");
    for (const auto& r : body["requirements"]) {
      FLOE_ASSIGN_OR_RETURN(auto req, iceberg::TableRequirementFromJson(r));
      change.requirements.push_back(std::move(req));
    }
  }
  if (body.contains("updates")) {
    if (!body["updates"].is_array()) return Status::InvalidArgument("updates must be an array");
    for (const auto& u : body["updates"]) {
      FLOE_ASSIGN_OR_RETURN(auto update, iceberg::TableUpdateFromJson(u));
      change.updates.push_back(std::move(update));
    }
  }
  return change;
}

}  // namespace

namespace {

// "." or "..", as written or percent-decoded (a name may reach a file system or object store
// that decodes it).
bool IsDotSegment(std::string_view segment) {
  if (segment == "." || segment == "..") return true;
  if (segment.find('%') == std::string_view::npos) return false;
  auto decoded = PercentDecode(segment);
  return decoded.ok() && (*decoded == "." || *decoded == "..");
}

}  // namespace

Status ValidateName(const std::string& name, const char* what) {
  if (name.empty()) return Status::InvalidArgument(std::string(what) + " name is empty");
  if (name.size() > 255) return Status::InvalidArgument(std::string(what) + " name is longer than 255 bytes");
  for (unsigned char c : name) {
    if (c < 0x20 || c == 0x7f || c == '\\') {
      return Status::InvalidArgument(std::string(what) + " name '" + name + "' contains '\\' or a control character");
    }
  }
  // '/' itself is allowed (Iceberg's catalog tests use it; DefaultTableLocation never lets it
  // split a directory), but no '/'-separated piece may be a dot segment.
  for (std::size_t start = 0; start <= name.size();) {
    const auto end = std::min(name.find('/', start), name.size());
    if (IsDotSegment(std::string_view(name).substr(start, end - start))) {
      return Status::InvalidArgument(std::string(what) + " name '" + name + "' is or contains a '.' or '..' segment");
    }
    start = end + 1;
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
  FLOE_RETURN_IF_ERROR(CheckJsonDepth(request.body, "request body"));
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

Result<CreateNamespaceRequest> ParseCreateNamespaceRequest(const HttpRequest& request) {
  FLOE_ASSIGN_OR_RETURN(auto body, ParseBody(request));
  CreateNamespaceRequest out;
  FLOE_ASSIGN_OR_RETURN(out.ns, NamespaceFromJson(body.value("namespace", json())));
  FLOE_ASSIGN_OR_RETURN(out.properties, StringMap(body.value("properties", json::object()), "properties"));
  return out;
}

Result<PropertiesUpdateRequest> ParsePropertiesUpdateRequest(const HttpRequest& request) {
  FLOE_ASSIGN_OR_RETURN(auto body, ParseBody(request));
  PropertiesUpdateRequest out;
  if (body.contains("removals") && !body["removals"].is_null()) {
    if (!body["removals"].is_array()) return Status::InvalidArgument("removals must be an array");
    for (const auto& r : body["removals"]) {
      if (!r.is_string()) return Status::InvalidArgument("removals must be strings");
      out.removals.push_back(r.get<std::string>());
    }
  }
  FLOE_ASSIGN_OR_RETURN(out.updates, StringMap(body.value("updates", json::object()), "updates"));
  return out;
}

Result<CreateTableRequest> ParseCreateTableRequest(const Namespace& ns, const HttpRequest& request) {
  FLOE_ASSIGN_OR_RETURN(auto b, ParseBody(request));
  if (!b.contains("name") || !b["name"].is_string()) return Status::InvalidArgument("name is required");
  if (!b.contains("schema")) return Status::InvalidArgument("schema is required");
  CreateTableRequest out;
  catalog::NewTable& table = out.table;
  table.id = {ns, b["name"].get<std::string>()};
  FLOE_RETURN_IF_ERROR(ValidateName(table.id.name, "table"));
  auto schema = schema::SchemaFromJson(b["schema"]);
  if (!schema.ok()) return schema.status().WithContext("schema");
  table.schema = *schema;
  if (b.contains("partition-spec") && !b["partition-spec"].is_null()) {
    if (!b["partition-spec"].is_object()) return Status::InvalidArgument("partition-spec must be an object");
    auto spec = schema::PartitionSpecFromJson(BindSpecJson(b["partition-spec"]));
    if (!spec.ok()) return spec.status().WithContext("partition-spec");
    table.spec = *spec;
  }
  if (b.contains("write-order") && !b["write-order"].is_null()) {
    if (!b["write-order"].is_object()) return Status::InvalidArgument("write-order must be an object");
    auto order = schema::SortOrderFromJson(BindSortOrderJson(b["write-order"]));
    if (!order.ok()) return order.status().WithContext("write-order");
    table.sort_order = *order;
  }
  if (b.contains("location") && !b["location"].is_null()) {
    if (!b["location"].is_string()) return Status::InvalidArgument("location must be a string");
    table.location = b["location"].get<std::string>();
  }
  FLOE_ASSIGN_OR_RETURN(table.properties, StringMap(b.value("properties", json::object()), "properties"));
  if (b.contains("stage-create") && !b["stage-create"].is_null()) {
    if (!b["stage-create"].is_boolean()) return Status::InvalidArgument("stage-create must be a boolean");
    out.stage = b["stage-create"].get<bool>();
  }
  return out;
}

Result<RegisterTableRequest> ParseRegisterTableRequest(const Namespace& ns, const HttpRequest& request) {
  FLOE_ASSIGN_OR_RETURN(auto body, ParseBody(request));
  if (!body.contains("name") || !body["name"].is_string() || !body.contains("metadata-location") ||
      !body["metadata-location"].is_string()) {
    return Status::InvalidArgument("name and metadata-location are required");
  }
  RegisterTableRequest out{{ns, body["name"].get<std::string>()}, body["metadata-location"].get<std::string>()};
  FLOE_RETURN_IF_ERROR(ValidateName(out.id.name, "table"));
  return out;
}

Result<catalog::TableChange> ParseCommitTableRequest(const TableIdentifier& id, const HttpRequest& request) {
  FLOE_ASSIGN_OR_RETURN(auto body, ParseBody(request));
  return ChangeFromJson(body, id);
}

Result<std::vector<catalog::TableChange>> ParseCommitTransactionRequest(const HttpRequest& request) {
  FLOE_ASSIGN_OR_RETURN(auto body, ParseBody(request));
  if (!body.contains("table-changes") || !body["table-changes"].is_array()) {
    return Status::InvalidArgument("table-changes must be an array");
  }
  std::vector<catalog::TableChange> changes;
  for (const auto& c : body["table-changes"]) {
    if (!c.is_object()) return Status::InvalidArgument("table-changes must be an array of objects");
    auto id = IdentifierFromJson(c.value("identifier", json()));
    if (!id.ok()) return id.status().WithContext("identifier");
    FLOE_ASSIGN_OR_RETURN(auto change, ChangeFromJson(c, *id));
    changes.push_back(std::move(change));
  }
  return changes;
}

}  // namespace floe::server
