#include "floe/registry/client.h"

#include <curl/curl.h>

#include <nlohmann/json.hpp>
#include <cstdlib>
#include <thread>
#include <utility>

#include "floe/core/percent_encoding.h"
#include "floe/registry/schema_response_internal.h"

namespace floe::registry {
namespace {

std::once_flag g_curl_init;

std::size_t AppendToString(char* data, std::size_t size, std::size_t count, void* out) {
  static_cast<std::string*>(out)->append(data, size * count);
  return size * count;
}

bool IsTransient(long http_status) { return http_status == 429 || http_status >= 500; }

bool IsTlsFailure(CURLcode rc) {
  switch (rc) {
    case CURLE_SSL_CONNECT_ERROR:
    case CURLE_PEER_FAILED_VERIFICATION:
    case CURLE_SSL_CACERT_BADFILE:
    case CURLE_SSL_CERTPROBLEM:
    case CURLE_SSL_CIPHER:
    case CURLE_SSL_ISSUER_ERROR:
      return true;
    default:
      return false;
  }
}

// "https://user:pw@host/x" -> "https://host/x": credentials in a URL must not reach a message.
std::string WithoutUserInfo(const std::string& url) {
  const auto scheme = url.find("://");
  if (scheme == std::string::npos) return url;
  const auto authority_end = url.find_first_of("/?#", scheme + 3);
  const auto at = url.rfind('@', authority_end == std::string::npos ? std::string::npos : authority_end);
  if (at == std::string::npos || at < scheme + 3) return url;
  return url.substr(0, scheme + 3) + url.substr(at + 1);
}

}  // namespace

ClientOptions ClientOptionsFor(const SchemaRegistryConfig& config) {
  ClientOptions options;
  options.url = config.url;
  options.basic_auth_user = config.basic_auth_user;
  options.basic_auth_password = config.basic_auth_password;
  options.bearer_token = config.bearer_token;
  options.ca_file = config.ca_file;
  return options;
}

Client::Client(ClientOptions options) : options_(std::move(options)) {
  std::call_once(g_curl_init, [] { curl_global_init(CURL_GLOBAL_DEFAULT); });
  while (!options_.url.empty() && options_.url.back() == '/') options_.url.pop_back();
  display_url_ = WithoutUserInfo(options_.url);
}

Client::~Client() = default;

std::size_t Client::cached_schemas() const {
  std::lock_guard lock(mu_);
  return by_id_.size();
}

Result<Client::HttpResponse> Client::GetOnce(const std::string& path) {
  std::unique_ptr<CURL, decltype(&curl_easy_cleanup)> curl(curl_easy_init(), curl_easy_cleanup);
  if (!curl) return Status::Internal("curl_easy_init failed");
  HttpResponse response;
  const std::string url = options_.url + path;
  char error[CURL_ERROR_SIZE] = {0};
  curl_easy_setopt(curl.get(), CURLOPT_URL, url.c_str());
  curl_easy_setopt(curl.get(), CURLOPT_ERRORBUFFER, error);
  curl_easy_setopt(curl.get(), CURLOPT_WRITEFUNCTION, AppendToString);
  curl_easy_setopt(curl.get(), CURLOPT_WRITEDATA, &response.body);
  curl_easy_setopt(curl.get(), CURLOPT_TIMEOUT_MS, static_cast<long>(options_.request_timeout.count()));
  curl_easy_setopt(curl.get(), CURLOPT_NOSIGNAL, 1L);
  curl_easy_setopt(curl.get(), CURLOPT_PROTOCOLS_STR, "http,https");
  // A private CA: the configured file, else OpenSSL's variables (which Floe's other HTTPS
  // clients honour too); unset, libcurl's built-in bundle applies.
  const char* env_file = std::getenv("SSL_CERT_FILE");
  const char* env_dir = std::getenv("SSL_CERT_DIR");
  if (!options_.ca_file.empty()) {
    curl_easy_setopt(curl.get(), CURLOPT_CAINFO, options_.ca_file.c_str());
  } else {
    if (env_file != nullptr && *env_file) curl_easy_setopt(curl.get(), CURLOPT_CAINFO, env_file);
    if (env_dir != nullptr && *env_dir) curl_easy_setopt(curl.get(), CURLOPT_CAPATH, env_dir);
  }
  std::unique_ptr<curl_slist, decltype(&curl_slist_free_all)> headers(nullptr, curl_slist_free_all);
  headers.reset(curl_slist_append(headers.release(), "Accept: application/vnd.schemaregistry.v1+json, application/json"));
  std::string auth_header;
  if (!options_.bearer_token.empty()) {
    auth_header = "Authorization: Bearer " + options_.bearer_token;
    headers.reset(curl_slist_append(headers.release(), auth_header.c_str()));
  } else if (!options_.basic_auth_user.empty()) {
    curl_easy_setopt(curl.get(), CURLOPT_HTTPAUTH, static_cast<long>(CURLAUTH_BASIC));
    curl_easy_setopt(curl.get(), CURLOPT_USERNAME, options_.basic_auth_user.c_str());
    curl_easy_setopt(curl.get(), CURLOPT_PASSWORD, options_.basic_auth_password.c_str());
  }
  curl_easy_setopt(curl.get(), CURLOPT_HTTPHEADER, headers.get());
  const CURLcode rc = curl_easy_perform(curl.get());
  if (rc != CURLE_OK) {
    response.body.clear();
    response.transport_error = error[0] ? std::string(error) : std::string(curl_easy_strerror(rc));
    response.tls_failure = IsTlsFailure(rc);
    return response;
  }
  curl_easy_getinfo(curl.get(), CURLINFO_RESPONSE_CODE, &response.status);
  return response;
}

Result<Client::HttpResponse> Client::Get(const std::string& path) {
  auto backoff = options_.initial_backoff;
  for (int attempt = 1;; ++attempt) {
    FLOE_ASSIGN_OR_RETURN(auto response, GetOnce(path));
    const bool transient = response.status == 0 || IsTransient(response.status);
    if (!transient || attempt >= std::max(1, options_.max_attempts)) return response;
    std::this_thread::sleep_for(backoff);
    backoff *= 2;
  }
}

Status Client::Unreachable(const HttpResponse& response) const {
  std::string message = "schema registry " + display_url_ + " unreachable: " + response.transport_error;
  if (response.tls_failure) {
    message += options_.ca_file.empty()
                   ? " (TLS: is the registry's certificate signed by a CA in the system store or SSL_CERT_FILE? "
                     "schema_registry.ca_file names a private CA)"
                   : " (TLS: is the registry's certificate signed by a CA in schema_registry.ca_file " + options_.ca_file +
                         ", for this host name?)";
  }
  return Status::Unavailable(message);
}

Result<Client::HttpResponse> Client::GetAnswered(const std::string& path) {
  FLOE_ASSIGN_OR_RETURN(auto response, Get(path));
  if (response.status == 0) return Unreachable(response);
  if (IsTransient(response.status)) {
    return Status::Unavailable("schema registry " + display_url_ + path + " answered HTTP " +
                               std::to_string(response.status) + ": " + RegistryMessage(response.body));
  }
  if (response.status == 401 || response.status == 403) return CredentialsRefused(response);
  return response;
}

Status Client::CredentialsRefused(const HttpResponse& response) const {
  const std::string sent = !options_.bearer_token.empty()      ? "schema_registry.bearer_token"
                           : !options_.basic_auth_user.empty() ? "schema_registry.basic_auth_user/basic_auth_password"
                                                               : "no credentials (none configured)";
  return Status::Unavailable("schema registry " + display_url_ + " refused the credentials (HTTP " +
                             std::to_string(response.status) + ": " + RegistryMessage(response.body) + "); sent " +
                             sent);
}

Status Client::CheckAccess() {
  FLOE_ASSIGN_OR_RETURN(auto response, Get("/schemas/types"));
  if (response.status == 0) {
    auto unreachable = Unreachable(response);
    return response.tls_failure ? Status::InvalidArgument(unreachable.message()) : unreachable;
  }
  if (response.status == 401 || response.status == 403) {
    return Status::InvalidArgument(CredentialsRefused(response).message());
  }
  if (IsTransient(response.status)) {
    return Status::Unavailable("schema registry " + display_url_ + " answered HTTP " +
                               std::to_string(response.status) + ": " + RegistryMessage(response.body));
  }
  return Status::OK();  // other answers (a 404 from an older registry) still prove access
}

Result<std::shared_ptr<const RegisteredSchema>> Client::GetSchemaById(std::int32_t id) {
  {
    std::lock_guard lock(mu_);
    if (auto it = by_id_.find(id); it != by_id_.end()) return it->second;
  }
  FLOE_ASSIGN_OR_RETURN(auto response, GetAnswered("/schemas/ids/" + std::to_string(id)));
  if (response.status == 404) {
    return Status::NotFound("schema id " + std::to_string(id) + " is not in the schema registry (" +
                            RegistryMessage(response.body) + ")");
  }
  if (response.status != 200) {
    return Status::Unavailable("schema registry " + display_url_ + " answered HTTP " +
                               std::to_string(response.status) + " for schema id " + std::to_string(id) + ": " + RegistryMessage(response.body));
  }
  FLOE_ASSIGN_OR_RETURN(auto parsed, ParseSchemaResponse(response.body, id));
  parsed.id = id;
  auto shared = std::make_shared<const RegisteredSchema>(std::move(parsed));
  std::lock_guard lock(mu_);
  return by_id_.emplace(id, std::move(shared)).first->second;
}

Result<RegisteredSchema> Client::GetSubjectVersion(const std::string& subject, const std::string& version) {
  FLOE_ASSIGN_OR_RETURN(auto response, GetAnswered("/subjects/" + PercentEncode(subject) + "/versions/" + PercentEncode(version)));
  if (response.status == 404) {
    return Status::NotFound("subject '" + subject + "' version " + version + " is not in the schema registry (" +
                            RegistryMessage(response.body) + ")");
  }
  if (response.status != 200) {
    return Status::Unavailable("schema registry " + display_url_ + " answered HTTP " +
                               std::to_string(response.status) + " for subject '" +
                               subject + "': " + RegistryMessage(response.body));
  }
  return ParseSchemaResponse(response.body, 0);
}

}  // namespace floe::registry
