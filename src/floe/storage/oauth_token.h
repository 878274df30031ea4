#pragma once
// Bearer tokens for the conditional puts of stores whose data path (arrow::fs) keeps its OAuth
// tokens to itself: GCS with Google credentials, Azure with Entra ID (Azure AD) identities.
// A store asks a TokenCache for a token; the cache calls the store's fetch function when it has
// none or the one it has expires within a minute.
#include <chrono>
#include <functional>
#include <map>
#include <mutex>
#include <string>
#include <vector>

#include "floe/core/result.h"

namespace floe::storage {

struct AccessToken {
  std::string value;
  std::chrono::system_clock::time_point expires;
};

class TokenCache {
 public:
  using Fetch = std::function<Result<AccessToken>()>;
  explicit TokenCache(Fetch fetch) : fetch_(std::move(fetch)) {}

  // A token valid for at least another minute (fetched when needed; one fetch at a time).
  Result<std::string> Get();

 private:
  Fetch fetch_;
  std::mutex mutex_;
  AccessToken token_;
};

// An OAuth 2 token endpoint's answer to a POST of `form` (application/x-www-form-urlencoded,
// values encoded here) or, with an empty form, a GET (metadata services): the JSON's
// access_token and expires_in (seconds; a string on some services). `what` names the request in
// errors, which quote the service's error/error_description but never the form.
Result<AccessToken> RequestToken(const std::string& url, const std::map<std::string, std::string>& form,
                                 const std::vector<std::string>& headers, const std::string& what);

}  // namespace floe::storage
