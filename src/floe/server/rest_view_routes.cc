// The view endpoints of the Iceberg REST catalog API (open-api/rest-catalog-open-api.yaml:
// listViews, createView, loadView, viewExists, replaceView, dropView, renameView) over
// IcebergCatalog's views. Error types are the ones Java's clients map to their exceptions:
// NoSuchViewException / NoSuchNamespaceException (404), AlreadyExistsException (409),
// CommitFailedException (409 on replace), and IllegalArgumentException (400) for a view the
// view spec does not allow, which Java clients rethrow as IllegalArgumentException.
#include <nlohmann/json.hpp>

#include <memory>
#include <utility>

#include "floe/iceberg/view_update.h"
#include "floe/schema/json.h"
#include "floe/server/rest_errors_internal.h"
#include "floe/server/rest_locations_internal.h"
#include "floe/server/rest_requests_internal.h"

namespace floe::server {
namespace {

using catalog::IcebergCatalog;
using catalog::TableIdentifier;
using nlohmann::json;

HttpResponse NoContent() { return {204, "", "", {}}; }

// Status of a view operation -> ErrorModel; kInvalidArgument from the catalog is a view the
// spec does not allow (the request itself parsed).
HttpResponse ViewError(const Status& st, const char* not_found_type = "NoSuchViewException") {
  if (st.code() == StatusCode::kInvalidArgument) return ErrorResponse(400, "IllegalArgumentException", st.message());
  return ErrorFromStatus(st, not_found_type, "CommitFailedException");
}

json LoadViewResult(const catalog::LoadedView& view) {
  return {{"metadata-location", view.metadata_location},
          {"metadata", iceberg::ViewMetadataToJson(view.metadata)},
          {"config", json::object()}};
}

Result<iceberg::NewView> NewViewFromJson(const json& b) {
  iceberg::NewView view;
  if (!b.contains("schema")) return Status::InvalidArgument("schema is required");
  if (!b.contains("view-version")) return Status::InvalidArgument("view-version is required");
  auto schema = schema::SchemaFromJson(b["schema"]);
  if (!schema.ok()) return schema.status().WithContext("schema");
  view.schema = std::move(schema).value();
  auto version = iceberg::ViewVersionFromJson(b["view-version"]);
  if (!version.ok()) return version.status().WithContext("view-version");
  view.version = std::move(version).value();
  // Java's server refuses what it cannot build a view from; so does Floe.
  for (const auto& r : view.version.representations) {
    if (!r.IsSql()) return Status::InvalidArgument("Found unsupported view representations: [" + r.type + "]");
  }
  FLOE_ASSIGN_OR_RETURN(auto properties, StringMap(b.value("properties", json::object()), "properties"));
  view.properties.insert(properties.begin(), properties.end());
  if (b.contains("location") && b["location"].is_string()) view.location = b["location"].get<std::string>();
  return view;
}

Result<catalog::ViewChange> ViewChangeFromJson(const json& body, TableIdentifier id) {
  catalog::ViewChange change;
  change.id = std::move(id);
  if (body.contains("requirements") && !body["requirements"].is_null()) {
    if (!body["requirements"].is_array()) return Status::InvalidArgument("requirements must be an array");
    for (const auto& r : body["requirements"]) {
      FLOE_ASSIGN_OR_RETURN(auto requirement, iceberg::ViewRequirementFromJson(r));
      change.requirements.push_back(std::move(requirement));
    }
  }
  if (!body.contains("updates") || !body["updates"].is_array()) return Status::InvalidArgument("updates must be an array");
  for (const auto& u : body["updates"]) {
    FLOE_ASSIGN_OR_RETURN(auto update, iceberg::ViewUpdateFromJson(u));
    change.updates.push_back(std::move(update));
  }
  return change;
}

class ViewRoutes {
 public:
  ViewRoutes(IcebergCatalog& catalog, AllowedLocations allowed) : catalog_(catalog), allowed_(std::move(allowed)) {}

  HttpResponse List(const HttpRequest& req) {
    auto ns = ParseNamespacePath(req.path_params.at(0));
    if (!ns.ok()) return ErrorFromStatus(ns.status());
    auto views = catalog_.ListViews(*ns);
    if (!views.ok()) return ViewError(views.status(), "NoSuchNamespaceException");
    json ids = json::array();
    for (const auto& v : *views) ids.push_back({{"namespace", json(v.ns)}, {"name", v.name}});
    return JsonResponse(200, json({{"identifiers", ids}}).dump());
  }

  HttpResponse Create(const HttpRequest& req) {
    auto ns = ParseNamespacePath(req.path_params.at(0));
    if (!ns.ok()) return ErrorFromStatus(ns.status());
    auto body = ParseBody(req);
    if (!body.ok()) return ErrorFromStatus(body.status());
    if (!body->contains("name") || !(*body)["name"].is_string()) {
      return ErrorResponse(400, "BadRequestException", "name is required");
    }
    TableIdentifier id{*ns, (*body)["name"].get<std::string>()};
    if (auto st = ValidateName(id.name, "view"); !st.ok()) return ErrorFromStatus(st);
    auto view = NewViewFromJson(*body);
    if (!view.ok()) return ErrorFromStatus(view.status());
    if (auto st = CheckViewLocations(*view, allowed_); !st.ok()) return Forbidden(st);
    auto created = catalog_.CreateView(id, std::move(view).value());
    if (!created.ok()) return ViewError(created.status(), "NoSuchNamespaceException");
    return JsonResponse(200, LoadViewResult(*created).dump());
  }

  HttpResponse Load(const HttpRequest& req) {
    auto id = PathView(req);
    if (!id.ok()) return ErrorFromStatus(id.status());
    auto view = catalog_.LoadView(*id);
    if (!view.ok()) return ViewError(view.status());
    if (req.method == "HEAD") return NoContent();
    return JsonResponse(200, LoadViewResult(*view).dump());
  }

  HttpResponse Replace(const HttpRequest& req) {
    auto id = PathView(req);
    if (!id.ok()) return ErrorFromStatus(id.status());
    auto body = ParseBody(req);
    if (!body.ok()) return ErrorFromStatus(body.status());
    auto change = ViewChangeFromJson(*body, *id);
    if (!change.ok()) return ErrorFromStatus(change.status());
    if (auto st = CheckViewChangeLocations(*change, allowed_); !st.ok()) return Forbidden(st);
    auto committed = catalog_.CommitView(*change);
    if (!committed.ok()) return ViewError(committed.status());
    return JsonResponse(200, LoadViewResult(*committed).dump());
  }

  HttpResponse Drop(const HttpRequest& req) {
    auto id = PathView(req);
    if (!id.ok()) return ErrorFromStatus(id.status());
    if (auto st = catalog_.DropView(*id); !st.ok()) return ViewError(st);
    return NoContent();
  }

  HttpResponse Rename(const HttpRequest& req) {
    auto rename = ParseRenameRequest(req);
    if (!rename.ok()) return ErrorFromStatus(rename.status());
    if (!catalog_.LoadNamespaceProperties(rename->to.ns).ok()) {
      return ErrorResponse(404, "NoSuchNamespaceException",
                           "Namespace does not exist: " + catalog::NamespaceToString(rename->to.ns));
    }
    if (auto st = catalog_.RenameView(rename->from, rename->to); !st.ok()) return ViewError(st);
    return NoContent();
  }

 private:
  static Result<TableIdentifier> PathView(const HttpRequest& req) { return PathIdentifier(req, "view"); }

  IcebergCatalog& catalog_;
  AllowedLocations allowed_;
};

}  // namespace

const std::vector<std::string>& RestViewEndpoints() {
  static const std::vector<std::string> endpoints = {
      "GET /v1/{prefix}/namespaces/{namespace}/views",
      "POST /v1/{prefix}/namespaces/{namespace}/views",
      "GET /v1/{prefix}/namespaces/{namespace}/views/{view}",
      "HEAD /v1/{prefix}/namespaces/{namespace}/views/{view}",
      "POST /v1/{prefix}/namespaces/{namespace}/views/{view}",
      "DELETE /v1/{prefix}/namespaces/{namespace}/views/{view}",
      "POST /v1/{prefix}/views/rename",
  };
  return endpoints;
}

void AddRestViewRoutes(HttpServer& server, IcebergCatalog& catalog, const AllowedLocations& allowed) {
  auto routes = std::make_shared<ViewRoutes>(catalog, allowed);
  auto bind = [routes](HttpResponse (ViewRoutes::*fn)(const HttpRequest&)) {
    return [routes, fn](const HttpRequest& req) { return ((*routes).*fn)(req); };
  };
  const std::string views = "/v1/namespaces/([^/]+)/views";
  server.Route("GET", views, bind(&ViewRoutes::List));
  server.Route("POST", views, bind(&ViewRoutes::Create));
  server.Route("GET", views + "/([^/]+)", bind(&ViewRoutes::Load));  // and HEAD: view exists
  server.Route("POST", views + "/([^/]+)", bind(&ViewRoutes::Replace));
  server.Route("DELETE", views + "/([^/]+)", bind(&ViewRoutes::Drop));
  server.Route("POST", "/v1/views/rename", bind(&ViewRoutes::Rename));
}

}  // namespace floe::server
