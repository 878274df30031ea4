#include "floe/server/rest_catalog_service.h"

#include <spdlog/spdlog.h>

#include <nlohmann/json.hpp>

#include <utility>

#include "floe/schema/json.h"
#include "floe/server/rest_catalog_auth.h"
#include "floe/server/rest_errors_internal.h"
#include "floe/server/rest_locations_internal.h"
#include "floe/server/rest_requests_internal.h"

namespace floe::server {
namespace {

using catalog::IcebergCatalog;
using catalog::Namespace;
using catalog::TableIdentifier;
using nlohmann::json;

json NamespaceJson(const Namespace& ns) { return json(ns); }

json IdentifierJson(const TableIdentifier& id) { return {{"namespace", NamespaceJson(id.ns)}, {"name", id.name}}; }

json LoadTableResult(const catalog::LoadedTable& t, const std::map<std::string, std::string>& config = {}) {
  json metadata = json::parse(iceberg::SerializeTableMetadata(t.metadata), nullptr, false);
  json out = {{"metadata", metadata}, {"config", json(config)}};
  if (!t.metadata_location.empty()) out["metadata-location"] = t.metadata_location;
  return out;
}

class Routes {
 public:
  Routes(IcebergCatalog& catalog, RestCatalogOptions options)
      : catalog_(catalog),
        options_(std::move(options)),
        allowed_{catalog_.warehouse_uri(), options_.allowed_locations} {}

  HttpResponse Config(const HttpRequest&) {
    json endpoints = json::array();
    for (const char* e : {"GET /v1/{prefix}/namespaces", "POST /v1/{prefix}/namespaces",
                          "GET /v1/{prefix}/namespaces/{namespace}", "HEAD /v1/{prefix}/namespaces/{namespace}",
                          "DELETE /v1/{prefix}/namespaces/{namespace}",
                          "POST /v1/{prefix}/namespaces/{namespace}/properties",
                          "GET /v1/{prefix}/namespaces/{namespace}/tables",
                          "POST /v1/{prefix}/namespaces/{namespace}/tables",
                          "GET /v1/{prefix}/namespaces/{namespace}/tables/{table}",
                          "HEAD /v1/{prefix}/namespaces/{namespace}/tables/{table}",
                          "POST /v1/{prefix}/namespaces/{namespace}/tables/{table}",
                          "DELETE /v1/{prefix}/namespaces/{namespace}/tables/{table}",
                          "POST /v1/{prefix}/namespaces/{namespace}/register", "POST /v1/{prefix}/tables/rename",
                          "POST /v1/{prefix}/namespaces/{namespace}/tables/{table}/metrics",
                          "POST /v1/{prefix}/transactions/commit"}) {
      endpoints.push_back(e);
    }
    for (const auto& e : RestViewEndpoints()) endpoints.push_back(e);
    json body = {{"defaults", json::object()}, {"overrides", json::object()}, {"endpoints", endpoints}};
    return JsonResponse(200, body.dump());
  }

  HttpResponse ListNamespaces(const HttpRequest& req) {
    Namespace parent;
    if (req.HasQuery("parent") && !req.Query("parent").empty()) {
      auto p = ParseNamespacePath(req.Query("parent"));
      if (!p.ok()) return ErrorFromStatus(p.status());
      parent = *p;
      if (auto exists = catalog_.pointers().LoadNamespaceProperties(parent); !exists.ok()) {
        return ErrorFromStatus(exists.status(), "NoSuchNamespaceException");
      }
    }
    auto list = catalog_.pointers().ListNamespaces(parent);
    if (!list.ok()) return ErrorFromStatus(list.status(), "NoSuchNamespaceException");
    json out = json::array();
    for (const auto& ns : *list) out.push_back(NamespaceJson(ns));
    return JsonResponse(200, json({{"namespaces", out}}).dump());
  }

  HttpResponse CreateNamespace(const HttpRequest& req) {
    auto request = ParseCreateNamespaceRequest(req);
    if (!request.ok()) return ErrorFromStatus(request.status());
    if (auto st = catalog_.pointers().CreateNamespace(request->ns, request->properties); !st.ok()) {
      return ErrorFromStatus(st, "NoSuchNamespaceException", "AlreadyExistsException");
    }
    return JsonResponse(200, json({{"namespace", NamespaceJson(request->ns)}, {"properties", request->properties}}).dump());
  }

  HttpResponse LoadNamespace(const HttpRequest& req) {
    auto ns = ParseNamespacePath(req.path_params.at(0));
    if (!ns.ok()) return ErrorFromStatus(ns.status());
    auto props = catalog_.pointers().LoadNamespaceProperties(*ns);
    if (!props.ok()) return ErrorFromStatus(props.status(), "NoSuchNamespaceException");
    if (req.method == "HEAD") return {204, "", "", {}};
    return JsonResponse(200, json({{"namespace", NamespaceJson(*ns)}, {"properties", *props}}).dump());
  }

  HttpResponse DropNamespace(const HttpRequest& req) {
    auto ns = ParseNamespacePath(req.path_params.at(0));
    if (!ns.ok()) return ErrorFromStatus(ns.status());
    if (auto st = catalog_.pointers().DropNamespace(*ns); !st.ok()) {
      return ErrorFromStatus(st, "NoSuchNamespaceException", "NamespaceNotEmptyException");
    }
    return {204, "", "", {}};
  }

  HttpResponse UpdateNamespaceProperties(const HttpRequest& req) {
    auto ns = ParseNamespacePath(req.path_params.at(0));
    if (!ns.ok()) return ErrorFromStatus(ns.status());
    auto request = ParsePropertiesUpdateRequest(req);
    if (!request.ok()) return ErrorFromStatus(request.status());
    const std::vector<std::string>& removals = request->removals;
    const std::map<std::string, std::string>& updates = request->updates;
    for (const auto& r : removals) {
      if (updates.count(r)) {
        return ErrorResponse(422, "UnprocessableEntityException", "property '" + r + "' is both updated and removed");
      }
    }
    auto before = catalog_.pointers().LoadNamespaceProperties(*ns);
    if (!before.ok()) return ErrorFromStatus(before.status(), "NoSuchNamespaceException");
    if (auto st = catalog_.pointers().UpdateNamespaceProperties(*ns, removals, updates); !st.ok()) {
      return ErrorFromStatus(st, "NoSuchNamespaceException");
    }
    json removed = json::array();
    json missing = json::array();
    for (const auto& r : removals) (before->count(r) ? removed : missing).push_back(r);
    json updated = json::array();
    for (const auto& [k, v] : updates) updated.push_back(k);
    return JsonResponse(200, json({{"updated", updated}, {"removed", removed}, {"missing", missing}}).dump());
  }

  HttpResponse ListTables(const HttpRequest& req) {
    auto ns = ParseNamespacePath(req.path_params.at(0));
    if (!ns.ok()) return ErrorFromStatus(ns.status());
    auto tables = catalog_.pointers().ListTables(*ns);
    if (!tables.ok()) return ErrorFromStatus(tables.status(), "NoSuchNamespaceException");
    json ids = json::array();
    for (const auto& t : *tables) ids.push_back(IdentifierJson(t));
    return JsonResponse(200, json({{"identifiers", ids}}).dump());
  }

  HttpResponse CreateTable(const HttpRequest& req) {
    auto ns = ParseNamespacePath(req.path_params.at(0));
    if (!ns.ok()) return ErrorFromStatus(ns.status());
    auto request = ParseCreateTableRequest(*ns, req);
    if (!request.ok()) return ErrorFromStatus(request.status());
    if (auto st = CheckTableLocations(request->table, allowed_); !st.ok()) return Forbidden(st);
    auto created = catalog_.CreateTable(request->table, request->stage);
    if (!created.ok()) return ErrorFromStatus(created.status(), "NoSuchNamespaceException", "AlreadyExistsException");
    return JsonResponse(200, LoadTableForClient(*created).dump());
  }

  Result<TableIdentifier> PathTable(const HttpRequest& req) { return PathIdentifier(req, "table"); }

  // A missing table is always NoSuchTableException, also when its namespace is missing
  // (the message says which): Java clients resolve metadata tables ("t.files") and
  // branch/snapshot identifiers by retrying on NoSuchTableException only.
  HttpResponse TableNotFound(const TableIdentifier& id, const Status& st) {
    if (st.code() != StatusCode::kNotFound) return ErrorFromStatus(st);
    if (!catalog_.pointers().LoadNamespaceProperties(id.ns).ok()) {
      return ErrorResponse(404, "NoSuchTableException",
                           "Table does not exist: " + Join(id.ns) + "." + id.name + " (namespace " + Join(id.ns) +
                               " does not exist)");
    }
    return ErrorFromStatus(st, "NoSuchTableException");
  }

  HttpResponse LoadTable(const HttpRequest& req) {
    auto id = PathTable(req);
    if (!id.ok()) return ErrorFromStatus(id.status());
    if (req.method == "HEAD") {
      auto record = catalog_.pointers().LoadTable(*id);
      if (!record.ok()) return TableNotFound(*id, record.status());
      return {204, "", "", {}};
    }
    auto table = catalog_.LoadTable(*id);
    if (!table.ok()) {
      if (table.status().code() == StatusCode::kNotFound) return TableNotFound(*id, table.status());
      return ErrorFromStatus(table.status());
    }
    return JsonResponse(200, LoadTableForClient(*table).dump());
  }

  HttpResponse CommitTable(const HttpRequest& req) {
    auto id = PathTable(req);
    if (!id.ok()) return ErrorFromStatus(id.status());
    auto change = ParseCommitTableRequest(*id, req);
    if (!change.ok()) return ErrorFromStatus(change.status());
    if (auto st = CheckChangeLocations(*change, allowed_); !st.ok()) return Forbidden(st);
    auto committed = catalog_.CommitTable(*change);
    if (!committed.ok()) {
      if (committed.status().code() == StatusCode::kNotFound) return TableNotFound(*id, committed.status());
      return ErrorFromStatus(committed.status());
    }
    json out = LoadTableResult(*committed);
    out.erase("config");
    return JsonResponse(200, out.dump());
  }

  HttpResponse DropTable(const HttpRequest& req) {
    auto id = PathTable(req);
    if (!id.ok()) return ErrorFromStatus(id.status());
    const bool purge = req.Query("purgeRequested") == "true";
    if (auto st = catalog_.DropTable(*id, purge); !st.ok()) return TableNotFound(*id, st);
    return {204, "", "", {}};
  }

  HttpResponse RegisterTable(const HttpRequest& req) {
    auto ns = ParseNamespacePath(req.path_params.at(0));
    if (!ns.ok()) return ErrorFromStatus(ns.status());
    auto request = ParseRegisterTableRequest(*ns, req);
    if (!request.ok()) return ErrorFromStatus(request.status());
    if (auto st = CheckAllowedLocation(request->metadata_location, allowed_, "metadata-location");
        !st.ok()) {
      return Forbidden(st);
    }
    auto table = catalog_.RegisterTable(request->id, request->metadata_location);
    if (!table.ok()) return ErrorFromStatus(table.status(), "NoSuchNamespaceException", "AlreadyExistsException");
    return JsonResponse(200, LoadTableForClient(*table).dump());
  }

  HttpResponse RenameTable(const HttpRequest& req) {
    auto rename = ParseRenameRequest(req);
    if (!rename.ok()) return ErrorFromStatus(rename.status());
    if (!catalog_.pointers().LoadNamespaceProperties(rename->to.ns).ok()) {
      return ErrorResponse(404, "NoSuchNamespaceException", "Namespace does not exist: " + Join(rename->to.ns));
    }
    if (auto st = catalog_.pointers().RenameTable(rename->from, rename->to); !st.ok()) {
      return ErrorFromStatus(st, "NoSuchTableException", "AlreadyExistsException");
    }
    return {204, "", "", {}};
  }

  HttpResponse ReportMetrics(const HttpRequest& req) {
    auto id = PathTable(req);
    if (!id.ok()) return ErrorFromStatus(id.status());
    // Scan/commit reports are accepted so that clients which always send them work; Floe's
    // own metrics come from /metrics on the admin listener.
    return {204, "", "", {}};
  }

  HttpResponse CommitTransaction(const HttpRequest& req) {
    auto changes = ParseCommitTransactionRequest(req);
    if (!changes.ok()) return ErrorFromStatus(changes.status());
    for (const auto& change : *changes) {
      if (auto st = CheckChangeLocations(change, allowed_); !st.ok()) return Forbidden(st);
    }
    if (auto st = catalog_.CommitTransaction(*changes); !st.ok()) return ErrorFromStatus(st);
    return {204, "", "", {}};
  }

 private:
  static std::string Join(const Namespace& ns) {
    std::string out;
    for (const auto& p : ns) out += (out.empty() ? "" : ".") + p;
    return out;
  }
  IcebergCatalog& catalog_;
  // LoadTableResult for engines: the FileIO properties, and vended credentials when on. A
  // vending failure is logged, not fatal: the table still loads, for engines with keys of
  // their own.
  json LoadTableForClient(const catalog::LoadedTable& t) {
    json out = LoadTableResult(t, options_.table_config);
    if (!options_.vend_credentials) return out;
    auto vended = options_.vend_credentials(t.metadata.location);
    if (!vended.ok()) {
      spdlog::warn("credential vending for {}: {}", t.metadata.location, vended.status().message());
      return out;
    }
    for (const auto& [key, value] : *vended) out["config"][key] = value;
    out["storage-credentials"] = json::array({{{"prefix", t.metadata.location}, {"config", *vended}}});
    return out;
  }

  RestCatalogOptions options_;
  AllowedLocations allowed_;
};

}  // namespace

void AddRestCatalogRoutes(HttpServer& server, IcebergCatalog& catalog, const RestCatalogOptions& options) {
  auto routes = std::make_shared<Routes>(catalog, options);
  auto bind = [routes](HttpResponse (Routes::*fn)(const HttpRequest&)) {
    return [routes, fn](const HttpRequest& req) { return ((*routes).*fn)(req); };
  };
  AddRestCatalogAuth(server, std::make_shared<TokenIssuer>(options.bearer_token, options.auth));
  const std::string ns = "/v1/namespaces/([^/]+)";
  server.Route("GET", "/v1/config", bind(&Routes::Config));
  server.Route("GET", "/v1/namespaces", bind(&Routes::ListNamespaces));
  server.Route("POST", "/v1/namespaces", bind(&Routes::CreateNamespace));
  server.Route("GET", ns, bind(&Routes::LoadNamespace));
  server.Route("DELETE", ns, bind(&Routes::DropNamespace));
  server.Route("POST", ns + "/properties", bind(&Routes::UpdateNamespaceProperties));
  server.Route("GET", ns + "/tables", bind(&Routes::ListTables));
  server.Route("POST", ns + "/tables", bind(&Routes::CreateTable));
  server.Route("POST", ns + "/register", bind(&Routes::RegisterTable));
  server.Route("GET", ns + "/tables/([^/]+)", bind(&Routes::LoadTable));
  server.Route("POST", ns + "/tables/([^/]+)", bind(&Routes::CommitTable));
  server.Route("DELETE", ns + "/tables/([^/]+)", bind(&Routes::DropTable));
  server.Route("POST", ns + "/tables/([^/]+)/metrics", bind(&Routes::ReportMetrics));
  server.Route("POST", "/v1/tables/rename", bind(&Routes::RenameTable));
  server.Route("POST", "/v1/transactions/commit", bind(&Routes::CommitTransaction));
  AddRestViewRoutes(server, catalog, AllowedLocations{catalog.warehouse_uri(), options.allowed_locations});
}

}  // namespace floe::server
