#include "floe/catalog/glue_client.h"

#include <spdlog/spdlog.h>

#include <random>
#include <thread>

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

// Reads change nothing, so a read whose outcome is unknown may simply go again.
bool ChangesNothing(const std::string& action) {
  for (const char* prefix : {"Get", "BatchGet", "Search"}) {
    if (action.rfind(prefix, 0) == 0) return true;
  }
  return false;
}

// A random 50-100 % of `wait`.
std::chrono::milliseconds Jittered(std::chrono::milliseconds wait) {
  thread_local std::mt19937 random{std::random_device{}()};
  std::uniform_int_distribution<long long> half(wait.count() / 2, wait.count());
  return std::chrono::milliseconds(half(random));
}

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
                       Transport transport, Sleep sleep)
    : endpoint_(std::move(endpoint)),
      region_(std::move(region)),
      catalog_id_(std::move(catalog_id)),
      credentials_(std::move(credentials)),
      transport_(transport ? std::move(transport) : Transport(storage::SendObjectPut)),
      sleep_(sleep ? std::move(sleep) : Sleep([](std::chrono::milliseconds d) { std::this_thread::sleep_for(d); })) {}

Result<nlohmann::json> GlueClient::Call(const std::string& action, nlohmann::json request,
                                        const std::string& what) const {
  if (!catalog_id_.empty()) request["CatalogId"] = catalog_id_;
  const std::string body = request.dump();
  auto wait = kGlueFirstRetryWait;
  for (int attempt = 1;; ++attempt) {
    // Asked for before each send: an assumed role's temporary keys are refreshed.
    auto credentials = credentials_();
    if (!credentials.ok()) return credentials.status().WithContext(what);
    const storage::ObjectPut put = GlueRequest(endpoint_, region_, action, *credentials);
    auto answer = transport_(put, body, what);
    Status failed;
    bool refused = false;  // Glue answered that it did nothing
    if (!answer.ok()) {
      failed = answer.status();
    } else if (answer->code < 200 || answer->code >= 300) {
      failed = GlueErrorStatus(answer->code, answer->body, what);
      refused = answer->code == 429 || GlueErrorType(answer->body) == "ThrottlingException";
    } else {
      if (answer->body.empty()) return nlohmann::json::object();
      auto json = nlohmann::json::parse(answer->body, nullptr, /*allow_exceptions=*/false);
      if (json.is_discarded()) return Status::IoError(what + ": Glue's answer is not JSON");
      return json;
    }
    const bool again = failed.code() == StatusCode::kUnavailable && (refused || ChangesNothing(action));
    if (!again || attempt >= kGlueMaxAttempts) return failed;
    spdlog::debug("{}: sending again (attempt {} of {}): {}", what, attempt + 1, kGlueMaxAttempts, failed.ToString());
    sleep_(Jittered(wait));
    wait *= 2;
  }
}

Result<GlueClient> OpenGlueClient(const GlueCatalogConfig& config) {
  S3StorageConfig chain;  // the credential fields are storage.s3's
  chain.region = config.region;
  chain.credentials = config.credentials;
  chain.access_key_id = config.access_key_id;
  chain.secret_access_key = config.secret_access_key;
  chain.session_token = config.session_token;
  chain.role_arn = config.role_arn;
  chain.external_id = config.external_id;
  auto source = storage::AwsCredentialSource::Make(chain);
  if (!source.ok()) return source.status().WithContext("catalog (type glue)");
  std::shared_ptr<storage::AwsCredentialSource> credentials = *source;
  if (credentials->region().empty()) {
    return Status::InvalidArgument("catalog.region: no region configured and none found in the AWS chain (AWS_REGION)");
  }
  return GlueClient(config.endpoint, credentials->region(), config.catalog_id,
                    [credentials] { return credentials->Current(); });
}

}  // namespace floe::catalog
