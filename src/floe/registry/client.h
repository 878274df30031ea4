#pragma once
// Client for a Confluent-compatible Schema Registry. Schemas by id are immutable in the
// registry, so they are cached forever; an unreachable registry is kUnavailable (callers
// retry, never skip a record because of it) and an unknown id is kNotFound.
#include <chrono>
#include <cstdint>
#include <memory>
#include <mutex>
#include <string>
#include <unordered_map>
#include <vector>

#include "floe/core/result.h"

namespace floe::registry {

enum class SchemaType { kAvro, kProtobuf, kJson };

struct SchemaReference {
  std::string name;
  std::string subject;
  int version = 0;
};

struct RegisteredSchema {
  std::int32_t id = 0;
  SchemaType type = SchemaType::kAvro;
  std::string schema;  // the schema text exactly as the registry returned it
  std::vector<SchemaReference> references;
};

struct ClientOptions {
  std::string url;  // http(s)://host:port[/prefix]
  std::string basic_auth_user;
  std::string basic_auth_password;
  std::string bearer_token;
  std::chrono::milliseconds request_timeout{10'000};
  // Transient failures (connect errors, 5xx, 429) are retried this many times with
  // exponential backoff inside one call before the call reports kUnavailable.
  int max_attempts = 3;
  std::chrono::milliseconds initial_backoff{100};
};

class Client {
 public:
  explicit Client(ClientOptions options);
  ~Client();
  Client(const Client&) = delete;
  Client& operator=(const Client&) = delete;

  // GET /schemas/ids/{id}, cached.
  Result<std::shared_ptr<const RegisteredSchema>> GetSchemaById(std::int32_t id);
  // GET /subjects/{subject}/versions/{version} ("latest" allowed) — used to resolve references.
  Result<RegisteredSchema> GetSubjectVersion(const std::string& subject, const std::string& version);

  std::size_t cached_schemas() const;

 private:
  struct HttpResponse {
    long status = 0;
    std::string body;
  };
  Result<HttpResponse> Get(const std::string& path);
  Result<HttpResponse> GetOnce(const std::string& path);

  ClientOptions options_;
  mutable std::mutex mu_;
  std::unordered_map<std::int32_t, std::shared_ptr<const RegisteredSchema>> by_id_;
};

}  // namespace floe::registry
