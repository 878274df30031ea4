#pragma once
// Bearer tokens for the conditional puts of stores whose data path (arrow::fs) keeps its OAuth
// tokens to itself (GCS with Google credentials, Azure with Entra ID identities), and for the
// Iceberg REST catalog client's OAuth2 client credentials. A user asks a TokenCache for a
// token; the cache calls the user's fetch function when it has none, when the one it has is
// within its refresh margin of expiring, or after the server refused it (Invalidate).
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
  std::chrono::system_clock::time_point expires;  // time_point::max(): no expiry announced
};

class TokenCache {
 public:
  using Fetch = std::function<Result<AccessToken>()>;
  using Clock = std::function<std::chrono::system_clock::time_point()>;
  // How long before its expiry a token of the given lifetime is replaced.
  using Margin = std::function<std::chrono::system_clock::duration(std::chrono::system_clock::duration lifetime)>;

  // Default margin: a minute (so a token living less than that is never reused).
  explicit TokenCache(Fetch fetch, Margin margin = {}, Clock clock = {});

  // A token outside its refresh margin (fetched when needed; one fetch at a time). When a
  // refresh inside the margin fails, the current token is returned while it has not expired
  // (the next call tries again); a failed fetch with no usable token is the fetch's Status.
  Result<std::string> Get();
  // The server refused `token` (HTTP 401): the next Get fetches a new one. A token other than
  // the current one (already replaced by another caller) is ignored.
  void Invalidate(const std::string& token);

 private:
  Fetch fetch_;
  Margin margin_;
  Clock clock_;
  std::mutex mutex_;
  AccessToken token_;
  std::chrono::system_clock::time_point refresh_at_;
};

// Iceberg's RESTCatalog refresh window: min(lifetime / 10, 5 minutes) before expiry.
std::chrono::system_clock::duration IcebergRefreshMargin(std::chrono::system_clock::duration lifetime);

// An OAuth 2 token endpoint's answer to a POST of `form` (application/x-www-form-urlencoded,
// values encoded here) or, with an empty form, a GET (metadata services): see ParseTokenAnswer.
// `what` names the request in errors, which quote the service's error/error_description but
// never the form. `connect_timeout`: short for endpoints that may not exist (Azure's IMDS).
Result<AccessToken> RequestToken(const std::string& url, const std::map<std::string, std::string>& form,
                                 const std::vector<std::string>& headers, const std::string& what,
                                 std::chrono::milliseconds connect_timeout = std::chrono::seconds(10));

// A token endpoint's HTTP answer: the JSON's access_token, living expires_in seconds from `now`
// (a string on some services), else until expires_on (Unix seconds, as Azure's managed identity
// endpoints answer), else an hour. Not 2xx: kUnavailable for 5xx, else kIoError.
Result<AccessToken> ParseTokenAnswer(long code, const std::string& body, const std::string& what,
                                     std::chrono::system_clock::time_point now);

}  // namespace floe::storage
