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

#include "floe/core/config.h"
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
  // PEM CA certificates for an https URL; empty: SSL_CERT_FILE / SSL_CERT_DIR (OpenSSL's
  // variables, as Floe's other HTTPS clients honour them), else libcurl's system bundle.
  std::string ca_file;
  std::chrono::milliseconds request_timeout{10'000};
  // Transient failures (connect errors, 5xx, 429) are retried this many times with
  // exponential backoff inside one call before the call reports kUnavailable.
  int max_attempts = 3;
  std::chrono::milliseconds initial_backoff{100};
};

// The options floe.yaml's schema_registry section asks for.
ClientOptions ClientOptionsFor(const SchemaRegistryConfig& config);

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

  // One cheap authenticated request (GET /schemas/types), for start-up: kInvalidArgument when
  // the registry refuses the credentials (401/403) or its TLS certificate cannot be verified —
  // configuration errors that retrying cannot fix — and kUnavailable when it is merely
  // unreachable or failing. Messages name the URL (without any userinfo), never a secret.
  Status CheckAccess();

  // The URL for messages: options.url without any user:password@.
  const std::string& display_url() const { return display_url_; }

 private:
  struct HttpResponse {
    long status = 0;  // 0: no HTTP answer, see transport_error
    std::string body;
    std::string transport_error;
    bool tls_failure = false;  // the TLS handshake or certificate verification failed
  };
  // Get's answer after retries; status 0 (unreachable) and 5xx become kUnavailable here.
  Result<HttpResponse> GetAnswered(const std::string& path);
  Status Unreachable(const HttpResponse& response) const;
  Status CredentialsRefused(const HttpResponse& response) const;
  Result<HttpResponse> Get(const std::string& path);
  Result<HttpResponse> GetOnce(const std::string& path);

  ClientOptions options_;
  std::string display_url_;
  mutable std::mutex mu_;
  std::unordered_map<std::int32_t, std::shared_ptr<const RegisteredSchema>> by_id_;
};

}  // namespace floe::registry
