#include "floe/catalog/glue_client.h"

#include "floe/storage/retry_metrics.h"

namespace floe::catalog {

storage::ObjectPut GlueRequest(const std::string& endpoint, const std::string& region, const std::string& action,
                               const storage::AwsCredentials& credentials) {
  storage::ObjectPut put;
  put.store = "glue";
  put.method = "POST";
  std::string base = endpoint.empty() ? "https://glue." + region + ".amazonaws.com" : endpoint;
  while (!base.empty() && base.back() == '/') base.pop_back();
  put.url = base + "/";
  put.aws_sigv4 = "aws:amz:" + region + ":glue";
  put.user = credentials.access_key_id;
  put.password = credentials.secret_access_key;
  put.user_agent = "floe-glue-catalog";
  // Both are signed (libcurl signs content-type and every x-amz-* header).
  put.headers = {"X-Amz-Target: AWSGlue." + action, "Content-Type: application/x-amz-json-1.1"};
  if (!credentials.session_token.empty()) put.headers.push_back("x-amz-security-token: " + credentials.session_token);
  return put;
}

std::string GlueErrorType(const std::string& body) {
  const auto json = nlohmann::json::parse(body, nullptr, /*allow_exceptions=*/false);
  // Authorization failures may come as an XML ErrorResponse (moto's IAM check answers so).
  if (!json.is_object()) return storage::XmlElement(body, "Code");
  std::string type;
  for (const char* key : {"__type", "code", "Code"}) {
    if (json.contains(key) && json[key].is_string()) {
      type = json[key].get<std::string>();
      break;
    }
  }
  // "com.amazonaws.glue#EntityNotFoundException" and "EntityNotFoundException:http://…" forms.
  if (const auto hash = type.rfind('#'); hash != std::string::npos) type = type.substr(hash + 1);
  if (const auto colon = type.find(':'); colon != std::string::npos) type = type.substr(0, colon);
  return type;
}

namespace {

std::string GlueErrorMessage(const std::string& body) {
  const auto json = nlohmann::json::parse(body, nullptr, /*allow_exceptions=*/false);
  if (!json.is_object()) {
    const std::string xml = storage::XmlElement(body, "Message");
    return xml.empty() ? body.substr(0, 200) : xml;
  }
  for (const char* key : {"Message", "message"}) {
    if (json.contains(key) && json[key].is_string()) return json[key].get<std::string>();
  }
  return "";
}

}  // namespace

Status GlueErrorStatus(long code, const std::string& body, const std::string& what) {
  const std::string type = GlueErrorType(body);
  const std::string message = GlueErrorMessage(body);
  std::string text = what + ": HTTP " + std::to_string(code);
  if (!type.empty()) text += " " + type;
  if (!message.empty()) text += ": " + message;
  if (type == "EntityNotFoundException") return Status::NotFound(text);
  if (type == "AlreadyExistsException") return Status::AlreadyExists(text);
  if (type == "ConcurrentModificationException") return Status::Conflict(text);
  if (type == "ThrottlingException" || code == 429 || code >= 500) {
    storage::CountRetry("glue", type.empty() ? "HTTP " + std::to_string(code) : type, text);
    return Status::Unavailable(text);
  }
  if (type == "InvalidInputException" || type == "ValidationException") return Status::InvalidArgument(text);
  if (code == 403 || type == "AccessDeniedException" || type == "AccessDenied") {
    return Status::IoError(text + " (the IAM policy must allow this Glue action: docs/catalog.md, \"AWS Glue\")");
  }
  return Status::IoError(text);
}

GlueClient::GlueClient(std::string endpoint, std::string region, std::string catalog_id, Credentials credentials,
                       Transport transport)
    : endpoint_(std::move(endpoint)),
      region_(std::move(region)),
      catalog_id_(std::move(catalog_id)),
      credentials_(std::move(credentials)),
      transport_(transport ? std::move(transport) : Transport(storage::SendObjectPut)) {}

Result<nlohmann::json> GlueClient::Call(const std::string& action, nlohmann::json request,
                                        const std::string& what) const {
  if (!catalog_id_.empty()) request["CatalogId"] = catalog_id_;
  auto credentials = credentials_();
  if (!credentials.ok()) return credentials.status().WithContext(what);
  const storage::ObjectPut put = GlueRequest(endpoint_, region_, action, *credentials);
  FLOE_ASSIGN_OR_RETURN(auto answer, transport_(put, request.dump(), what));
  if (answer.code < 200 || answer.code >= 300) return GlueErrorStatus(answer.code, answer.body, what);
  if (answer.body.empty()) return nlohmann::json::object();
  auto json = nlohmann::json::parse(answer.body, nullptr, /*allow_exceptions=*/false);
  if (json.is_discarded()) return Status::IoError(what + ": Glue's answer is not JSON");
  return json;
}

}  // namespace floe::catalog
