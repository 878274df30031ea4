// The one GCS request arrow::fs cannot make: an upload that fails when the object exists
// (`ifGenerationMatch=0`: "only if there is no live object"). Delta's commit protocol rests
// on it. Sent by the shared ObjectPut sender; this builds the request and reads GCS's errors.
#include <nlohmann/json.hpp>

#include "floe/core/percent_encoding.h"
#include "floe/storage/gcs_store_internal.h"
#include "floe/storage/object_put.h"

namespace floe::storage {
namespace {

// {"error": {"code": 403, "message": "…"}} from the JSON API ("" when the body is not that).
std::string ErrorMessage(const std::string& body) {
  const auto json = nlohmann::json::parse(body, nullptr, /*allow_exceptions=*/false);
  if (!json.is_object() || !json.contains("error") || !json["error"].is_object()) return "";
  const auto& e = json["error"];
  return e.contains("message") && e["message"].is_string() ? e["message"].get<std::string>() : "";
}

std::string Hint(long code) {
  switch (code) {
    case 401: return " (the credentials were refused)";
    case 403: return " (the identity needs storage.objects.create on the bucket: docs/storage.md)";
    case 404: return " (the warehouse bucket does not exist)";
    default: return "";
  }
}

}  // namespace

Status GcsPutIfAbsent(const GcsStore& store, const std::string& bucket_object, const std::string& content) {
  const auto slash = bucket_object.find('/');
  if (slash == std::string::npos || slash == 0 || slash + 1 == bucket_object.size()) {
    return Status::InvalidArgument("'" + bucket_object + "' is not bucket/object");
  }
  const std::string bucket = bucket_object.substr(0, slash);
  const std::string object = bucket_object.substr(slash + 1);
  const std::string what = "conditional upload gs://" + bucket_object;
  std::string base = store.config.endpoint.empty() ? "https://storage.googleapis.com" : store.config.endpoint;
  while (!base.empty() && base.back() == '/') base.pop_back();

  ObjectPut put;
  put.store = "gcs";
  put.method = "POST";
  // The object name is one query parameter: its '/' are encoded too.
  put.url = base + "/upload/storage/v1/b/" + PercentEncode(bucket) +
            "/o?uploadType=media&ifGenerationMatch=0&name=" + PercentEncode(object);
  put.headers = {"Content-Type: application/octet-stream"};
  if (store.tokens) {
    FLOE_ASSIGN_OR_RETURN(auto token, store.tokens->Get());
    put.headers.push_back("Authorization: Bearer " + token);
  }
  FLOE_ASSIGN_OR_RETURN(auto answer, SendObjectPut(put, content, what));
  if (answer.code >= 200 && answer.code < 300) return Status::OK();
  return ObjectPutStatus("gcs", answer.code, "", ErrorMessage(answer.body), what, Hint(answer.code),
                         answer.code == 412);
}

}  // namespace floe::storage
