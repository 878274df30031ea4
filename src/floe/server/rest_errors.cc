#include "floe/server/rest_errors_internal.h"

#include <nlohmann/json.hpp>

namespace floe::server {

HttpResponse ErrorResponse(int code, const std::string& type, const std::string& message) {
  nlohmann::json body = {{"error", {{"message", message}, {"type", type}, {"code", code}}}};
  // Messages may quote request bytes (a percent-decoded name) that are not UTF-8.
  return {code, "application/json", body.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace), {}};
}

HttpResponse ErrorFromStatus(const Status& status, const std::string& not_found_type,
                             const std::string& conflict_type) {
  switch (status.code()) {
    case StatusCode::kOk: return {204, "", "", {}};
    case StatusCode::kInvalidArgument: return ErrorResponse(400, "BadRequestException", status.message());
    case StatusCode::kNotFound: return ErrorResponse(404, not_found_type, status.message());
    case StatusCode::kAlreadyExists: return ErrorResponse(409, "AlreadyExistsException", status.message());
    case StatusCode::kConflict: return ErrorResponse(409, conflict_type, status.message());
    case StatusCode::kUnsupported: return ErrorResponse(406, "UnsupportedOperationException", status.message());
    case StatusCode::kUnavailable: return ErrorResponse(503, "ServiceUnavailableException", status.message());
    case StatusCode::kIoError:
    case StatusCode::kInternal: return ErrorResponse(500, "InternalServerError", status.message());
  }
  return ErrorResponse(500, "InternalServerError", status.message());
}

HttpResponse JsonResponse(int code, const std::string& body) { return {code, "application/json", body, {}}; }

HttpResponse NoStore(HttpResponse response) {
  response.headers["Cache-Control"] = "no-store";
  return response;
}

HttpResponse Forbidden(const Status& status) { return ErrorResponse(403, "ForbiddenException", status.message()); }

}  // namespace floe::server
