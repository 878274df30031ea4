#include "floe/registry/client.h"

#include <curl/curl.h>

#include <nlohmann/json.hpp>
#include <thread>
#include <utility>

#include "floe/core/percent_encoding.h"

namespace floe::registry {
namespace {

std::once_flag g_curl_init;

std::size_t AppendToString(char* data, std::size_t size, std::size_t count, void* out) {
  static_cast<std::string*>(out)->append(data, size * count);
  return size * count;
}

bool IsTransient(long http_status) { return http_status == 429 || http_status >= 500; }

// The registry's own explanation, {"error_code":40403,"message":"Schema not found"}, when it sent one.
std::string RegistryMessage(const std::string& body) {
  auto json = nlohmann::json::parse(body, nullptr, /*allow_exceptions=*/false);
  if (json.is_object() && json.contains("message") && json["message"].is_string()) {
    return json["message"].get<std::string>();
  }
  return body.substr(0, 200);
}

Result<SchemaType> ParseSchemaType(const nlohmann::json& j) {
  // Confluent omits schemaType for Avro.
  if (!j.contains("schemaType") || j["schemaType"].is_null()) return SchemaType::kAvro;
  if (!j["schemaType"].is_string()) return Status::InvalidArgument("schemaType is not a string");
  const auto& t = j["schemaType"].get_ref<const std::string&>();
  if (t == "AVRO") return SchemaType::kAvro;
  if (t == "PROTOBUF") return SchemaType::kProtobuf;
  if (t == "JSON") return SchemaType::kJson;
  return Status::Unsupported("schema type '" + t + "' is not supported");
}

Result<RegisteredSchema> ParseSchemaResponse(const std::string& body, std::int32_t id) {
  auto j = nlohmann::json::parse(body, nullptr, /*allow_exceptions=*/false);
  if (!j.is_object() || !j.contains("schema") || !j["schema"].is_string()) {
    return Status::InvalidArgument("schema registry answered with an unexpected body: " + body.substr(0, 200));
  }
  RegisteredSchema s;
  s.id = j.contains("id") && j["id"].is_number_integer() ? j["id"].get<std::int32_t>() : id;
  FLOE_ASSIGN_OR_RETURN(s.type, ParseSchemaType(j));
  s.schema = j["schema"].get<std::string>();
  if (j.contains("references") && j["references"].is_array()) {
    for (const auto& r : j["references"]) {
      if (!r.is_object() || !r.contains("name") || !r.contains("subject") || !r.contains("version") ||
          !r["name"].is_string() || !r["subject"].is_string() || !r["version"].is_number_integer()) {
        return Status::InvalidArgument("schema registry returned a malformed reference: " + r.dump());
      }
      s.references.push_back({r["name"].get<std::string>(), r["subject"].get<std::string>(), r["version"].get<int>()});
    }
  }
  return s;
}

}  // namespace

Client::Client(ClientOptions options) : options_(std::move(options)) {
  std::call_once(g_curl_init, [] { curl_global_init(CURL_GLOBAL_DEFAULT); });
  while (!options_.url.empty() && options_.url.back() == '/') options_.url.pop_back();
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
    return Status::Unavailable("schema registry " + options_.url + " unreachable: " +
                               (error[0] ? std::string(error) : std::string(curl_easy_strerror(rc))));
  }
  curl_easy_getinfo(curl.get(), CURLINFO_RESPONSE_CODE, &response.status);
  return response;
}

Result<Client::HttpResponse> Client::Get(const std::string& path) {
  auto backoff = options_.initial_backoff;
  for (int attempt = 1;; ++attempt) {
    auto response = GetOnce(path);
    const bool transient = !response.ok() || IsTransient(response->status);
    if (!transient) return response;
    if (attempt >= std::max(1, options_.max_attempts)) {
      if (!response.ok()) return response.status();
      return Status::Unavailable("schema registry " + options_.url + path + " answered HTTP " +
                                 std::to_string(response->status) + ": " + RegistryMessage(response->body));
    }
    std::this_thread::sleep_for(backoff);
    backoff *= 2;
  }
}

Result<std::shared_ptr<const RegisteredSchema>> Client::GetSchemaById(std::int32_t id) {
  {
    std::lock_guard lock(mu_);
    if (auto it = by_id_.find(id); it != by_id_.end()) return it->second;
  }
  FLOE_ASSIGN_OR_RETURN(auto response, Get("/schemas/ids/" + std::to_string(id)));
  if (response.status == 404) {
    return Status::NotFound("schema id " + std::to_string(id) + " is not in the schema registry (" +
                            RegistryMessage(response.body) + ")");
  }
  if (response.status == 401 || response.status == 403) {
    return Status::Unavailable("schema registry refused the credentials (HTTP " + std::to_string(response.status) +
                               "): " + RegistryMessage(response.body));
  }
  if (response.status != 200) {
    return Status::Unavailable("schema registry answered HTTP " + std::to_string(response.status) +
                               " for schema id " + std::to_string(id) + ": " + RegistryMessage(response.body));
  }
  FLOE_ASSIGN_OR_RETURN(auto parsed, ParseSchemaResponse(response.body, id));
  parsed.id = id;
  auto shared = std::make_shared<const RegisteredSchema>(std::move(parsed));
  std::lock_guard lock(mu_);
  return by_id_.emplace(id, std::move(shared)).first->second;
}

Result<RegisteredSchema> Client::GetSubjectVersion(const std::string& subject, const std::string& version) {
  FLOE_ASSIGN_OR_RETURN(auto response, Get("/subjects/" + PercentEncode(subject) + "/versions/" + PercentEncode(version)));
  if (response.status == 404) {
    return Status::NotFound("subject '" + subject + "' version " + version + " is not in the schema registry (" +
                            RegistryMessage(response.body) + ")");
  }
  if (response.status != 200) {
    return Status::Unavailable("schema registry answered HTTP " + std::to_string(response.status) + " for subject '" +
                               subject + "': " + RegistryMessage(response.body));
  }
  return ParseSchemaResponse(response.body, 0);
}

}  // namespace floe::registry
