#pragma once
// How `floe status`, `floe resume` and `floe skip` reach a running process's admin API
// (docs/admin-api.md): the address from --admin, else admin.listen of --config's floe.yaml; the
// token from --token, else $FLOE_ADMIN_TOKEN, else admin.token of the config. Requests go
// through libcurl (the REST catalog client's transport).
#include <string>

#include <nlohmann/json.hpp>

#include "floe/core/result.h"

namespace floe::cli {

struct AdminTarget {
  std::string admin_url;    // --admin http://host:port
  std::string token;        // --token
  std::string config_path;  // --config: where admin.listen and admin.token come from otherwise
};

struct AdminAnswer {
  long status = 0;
  nlohmann::json body;  // the JSON answer (null if the body was not JSON)
  std::string text;     // the raw body
};

class AdminClient {
 public:
  // kInvalidArgument when no address can be worked out (the message says which option to give).
  static Result<AdminClient> Make(const AdminTarget& target);
  const std::string& base_url() const { return base_url_; }
  // kUnavailable when the process does not answer; any HTTP answer is returned as it is.
  Result<AdminAnswer> Get(const std::string& path) const;
  Result<AdminAnswer> Post(const std::string& path, const nlohmann::json& body) const;

 private:
  AdminClient(std::string base_url, std::string token) : base_url_(std::move(base_url)), token_(std::move(token)) {}
  Result<AdminAnswer> Send(const std::string& method, const std::string& path, const std::string& body) const;
  std::string base_url_;
  std::string token_;
};

// An error answer's message ({"error":{"message"}}), else the HTTP status and raw body.
std::string AdminErrorText(const AdminAnswer& answer);


}  // namespace floe::cli
