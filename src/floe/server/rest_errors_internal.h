#pragma once
// Status -> Iceberg REST ErrorModel: {"error": {"message", "type", "code"}}.
#include <string>

#include "floe/core/status.h"
#include "floe/server/http_server.h"

namespace floe::server {

HttpResponse ErrorResponse(int code, const std::string& type, const std::string& message);
// `not_found_type` names what was missing: NoSuchTableException, NoSuchNamespaceException, …
HttpResponse ErrorFromStatus(const Status& status, const std::string& not_found_type = "NoSuchTableException",
                             const std::string& conflict_type = "CommitFailedException");
HttpResponse JsonResponse(int code, const std::string& body);
// `response` with Cache-Control: no-store. For answers that change from one request to the
// next (status, metrics, admin commands): a proxy must not serve old ones.
HttpResponse NoStore(HttpResponse response);
// 403 ForbiddenException: a well-formed request for something no client may do (a table
// location outside the warehouse).
HttpResponse Forbidden(const Status& status);

}  // namespace floe::server
