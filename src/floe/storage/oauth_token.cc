#include "floe/storage/oauth_token.h"

#include <nlohmann/json.hpp>
#include <spdlog/spdlog.h>

#include <algorithm>
#include <optional>

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
                                 const std::vector<std::string>& headers, const std::string& what,
                                 std::chrono::milliseconds connect_timeout) {
  ObjectPut request;
  request.store = "oauth";
  request.method = form.empty() ? "GET" : "POST";
  request.url = url;
  request.headers = headers;
  request.connect_timeout = connect_timeout;
  std::string body;
  for (const auto& [k, v] : form) body += (body.empty() ? "" : "&") + PercentEncode(k) + "=" + PercentEncode(v);
  if (!form.empty()) request.headers.push_back("Content-Type: application/x-www-form-urlencoded");
  FLOE_ASSIGN_OR_RETURN(auto answer, SendObjectPut(request, body, what));
  return ParseTokenAnswer(answer.code, answer.body, what, std::chrono::system_clock::now());
}

Result<AccessToken> ParseTokenAnswer(long code, const std::string& body, const std::string& what,
                                     std::chrono::system_clock::time_point now) {
  const auto json = nlohmann::json::parse(body, nullptr, /*allow_exceptions=*/false);
  if (code < 200 || code >= 300) {
    std::string detail;
    if (json.is_object()) {
      for (const char* key : {"error", "error_description"}) {
        if (json.contains(key) && json[key].is_string()) detail += (detail.empty() ? "" : ": ") + json[key].get<std::string>();
      }
    }
    const std::string text = what + ": HTTP " + std::to_string(code) + (detail.empty() ? "" : " " + detail);
    return code >= 500 ? Status::Unavailable(text) : Status::IoError(text);
  }
  if (!json.is_object() || !json.contains("access_token") || !json["access_token"].is_string()) {
    return Status::IoError(what + ": the answer has no access_token");
  }
  auto seconds_of = [&json](const char* key) -> std::optional<std::int64_t> {
    if (!json.contains(key)) return std::nullopt;
    const auto& v = json[key];
    if (v.is_number_integer()) return v.get<std::int64_t>();
    if (v.is_string() && !v.get<std::string>().empty()) return std::strtoll(v.get<std::string>().c_str(), nullptr, 10);
    return std::nullopt;
  };
  auto expires = now + std::chrono::hours(1);
  if (auto in = seconds_of("expires_in")) {
    expires = now + std::chrono::seconds(*in);
  } else if (auto on = seconds_of("expires_on"); on && *on > 0) {
    expires = std::chrono::system_clock::time_point(std::chrono::seconds(*on));
  }
  return AccessToken{json["access_token"].get<std::string>(), expires};
}

}  // namespace floe::storage
