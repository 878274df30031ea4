#include "floe/storage/oauth_token.h"

#include <nlohmann/json.hpp>
#include <spdlog/spdlog.h>

#include <algorithm>

#include "floe/core/percent_encoding.h"
#include "floe/storage/object_put.h"

namespace floe::storage {

TokenCache::TokenCache(Fetch fetch, Margin margin, Clock clock)
    : fetch_(std::move(fetch)),
      margin_(margin ? std::move(margin) : [](auto) -> std::chrono::system_clock::duration { return std::chrono::minutes(1); }),
      clock_(clock ? std::move(clock) : [] { return std::chrono::system_clock::now(); }) {}

Result<std::string> TokenCache::Get() {
  std::lock_guard lock(mutex_);
  const auto now = clock_();
  if (!token_.value.empty() && now < refresh_at_) return token_.value;
  auto fetched = fetch_();
  if (!fetched.ok()) {
    if (!token_.value.empty() && now < token_.expires) {
      spdlog::warn("token refresh failed, the current token is used until it expires: {}", fetched.status().ToString());
      return token_.value;
    }
    return fetched.status();
  }
  token_ = std::move(fetched).value();
  refresh_at_ = token_.expires == std::chrono::system_clock::time_point::max()
                    ? token_.expires
                    : token_.expires - margin_(token_.expires - now);
  return token_.value;
}

void TokenCache::Invalidate(const std::string& token) {
  std::lock_guard lock(mutex_);
  if (token == token_.value) token_ = AccessToken{};
}

std::chrono::system_clock::duration IcebergRefreshMargin(std::chrono::system_clock::duration lifetime) {
  return std::min<std::chrono::system_clock::duration>(lifetime / 10, std::chrono::minutes(5));
}

Result<AccessToken> RequestToken(const std::string& url, const std::map<std::string, std::string>& form,
                                 const std::vector<std::string>& headers, const std::string& what) {
  ObjectPut request;
  request.store = "oauth";
  request.method = form.empty() ? "GET" : "POST";
  request.url = url;
  request.headers = headers;
  std::string body;
  for (const auto& [k, v] : form) body += (body.empty() ? "" : "&") + PercentEncode(k) + "=" + PercentEncode(v);
  if (!form.empty()) request.headers.push_back("Content-Type: application/x-www-form-urlencoded");
  FLOE_ASSIGN_OR_RETURN(auto answer, SendObjectPut(request, body, what));
  const auto json = nlohmann::json::parse(answer.body, nullptr, /*allow_exceptions=*/false);
  if (answer.code < 200 || answer.code >= 300) {
    std::string detail;
    if (json.is_object()) {
      for (const char* key : {"error", "error_description"}) {
        if (json.contains(key) && json[key].is_string()) detail += (detail.empty() ? "" : ": ") + json[key].get<std::string>();
      }
    }
    const std::string text = what + ": HTTP " + std::to_string(answer.code) + (detail.empty() ? "" : " " + detail);
    return answer.code >= 500 ? Status::Unavailable(text) : Status::IoError(text);
  }
  if (!json.is_object() || !json.contains("access_token") || !json["access_token"].is_string()) {
    return Status::IoError(what + ": the answer has no access_token");
  }
  std::int64_t seconds = 3600;
  if (json.contains("expires_in")) {
    const auto& e = json["expires_in"];
    if (e.is_number_integer()) seconds = e.get<std::int64_t>();
    if (e.is_string()) seconds = std::strtoll(e.get<std::string>().c_str(), nullptr, 10);
  }
  return AccessToken{json["access_token"].get<std::string>(), std::chrono::system_clock::now() + std::chrono::seconds(seconds)};
}

}  // namespace floe::storage
