// TokenCache: one token per store until a minute before it expires; token endpoints' answers.
#include <gtest/gtest.h>

#include "floe/storage/oauth_token.h"

namespace floe::storage {
namespace {

using std::chrono::system_clock;

TEST(TokenCache, ReusesATokenUntilAMinuteBeforeItExpires) {
  int fetches = 0;
  auto lifetime = std::chrono::seconds(3600);
  TokenCache cache([&]() -> Result<AccessToken> {
    ++fetches;
    return AccessToken{"t" + std::to_string(fetches), system_clock::now() + lifetime};
  });
  EXPECT_EQ(*cache.Get(), "t1");
  EXPECT_EQ(*cache.Get(), "t1");
  EXPECT_EQ(fetches, 1);
  lifetime = std::chrono::seconds(30);  // the next token expires within the minute: never reused
  TokenCache short_lived([&]() -> Result<AccessToken> {
    ++fetches;
    return AccessToken{"s" + std::to_string(fetches), system_clock::now() + lifetime};
  });
  EXPECT_EQ(*short_lived.Get(), "s2");
  EXPECT_EQ(*short_lived.Get(), "s3");
}

TEST(TokenCache, AFailedFetchIsReturnedAndTriedAgainNextTime) {
  int fetches = 0;
  TokenCache cache([&]() -> Result<AccessToken> {
    if (++fetches == 1) return Status::Unavailable("token service down");
    return AccessToken{"ok", system_clock::now() + std::chrono::hours(1)};
  });
  EXPECT_EQ(cache.Get().status().code(), StatusCode::kUnavailable);
  EXPECT_EQ(*cache.Get(), "ok");
}

TEST(TokenCache, IcebergMarginRefreshesATenthOfTheLifetimeAtMostFiveMinutesEarly) {
  EXPECT_EQ(IcebergRefreshMargin(std::chrono::seconds(100)), std::chrono::seconds(10));
  EXPECT_EQ(IcebergRefreshMargin(std::chrono::hours(1)), std::chrono::minutes(5));
  auto now = system_clock::time_point{} + std::chrono::hours(1000);
  int fetches = 0;
  bool fail = false;
  TokenCache cache(
      [&]() -> Result<AccessToken> {
        if (fail) return Status::Unavailable("token service down");
        ++fetches;
        return AccessToken{"t" + std::to_string(fetches), now + std::chrono::seconds(100)};
      },
      IcebergRefreshMargin, [&] { return now; });
  EXPECT_EQ(*cache.Get(), "t1");
  now += std::chrono::seconds(89);
  EXPECT_EQ(*cache.Get(), "t1");
  now += std::chrono::seconds(1);  // 10 s before expiry: refreshed
  EXPECT_EQ(*cache.Get(), "t2");
  // A failed refresh keeps a token that still lives, then fails once it is gone.
  now += std::chrono::seconds(95);
  fail = true;
  EXPECT_EQ(*cache.Get(), "t2");
  now += std::chrono::seconds(5);
  EXPECT_EQ(cache.Get().status().code(), StatusCode::kUnavailable);
}

TEST(TokenCache, InvalidateForgetsOnlyTheRefusedToken) {
  int fetches = 0;
  TokenCache cache([&]() -> Result<AccessToken> {
    ++fetches;
    return AccessToken{"t" + std::to_string(fetches), system_clock::time_point::max()};
  });
  EXPECT_EQ(*cache.Get(), "t1");
  EXPECT_EQ(*cache.Get(), "t1");  // no expiry announced: kept
  cache.Invalidate("t0");         // an older token, already replaced
  EXPECT_EQ(*cache.Get(), "t1");
  cache.Invalidate("t1");
  EXPECT_EQ(*cache.Get(), "t2");
}

TEST(TokenAnswer, ExpiryFromExpiresInElseExpiresOnElseAnHour) {
  const auto now = system_clock::time_point{} + std::chrono::hours(500000);
  auto in = ParseTokenAnswer(200, R"({"access_token":"a","expires_in":3599})", "t", now);
  ASSERT_TRUE(in.ok());
  EXPECT_EQ(in->value, "a");
  EXPECT_EQ(in->expires, now + std::chrono::seconds(3599));
  // IMDS sends strings; App Service's managed identity endpoint sends expires_on only.
  EXPECT_EQ(ParseTokenAnswer(200, R"({"access_token":"a","expires_in":"60"})", "t", now)->expires,
            now + std::chrono::seconds(60));
  const auto on = std::chrono::duration_cast<std::chrono::seconds>(now.time_since_epoch()).count() + 7200;
  EXPECT_EQ(ParseTokenAnswer(200, R"({"access_token":"a","expires_on":")" + std::to_string(on) + R"("})", "t", now)->expires,
            now + std::chrono::hours(2));
  EXPECT_EQ(ParseTokenAnswer(200, R"({"access_token":"a"})", "t", now)->expires, now + std::chrono::hours(1));
  EXPECT_EQ(ParseTokenAnswer(200, R"({"token":"a"})", "t", now).status().code(), StatusCode::kIoError);
}

TEST(TokenAnswer, ErrorsQuoteTheServiceErrorAndTellRetryableApart) {
  const auto now = system_clock::now();
  auto refused = ParseTokenAnswer(401, R"({"error":"invalid_client","error_description":"AADSTS7000215: Invalid client secret provided."})",
                                  "getting a token from the environment service principal", now);
  EXPECT_EQ(refused.status().code(), StatusCode::kIoError);
  EXPECT_EQ(refused.status().message(), "getting a token from the environment service principal: HTTP 401 "
                                        "invalid_client: AADSTS7000215: Invalid client secret provided.");
  EXPECT_EQ(ParseTokenAnswer(503, "busy", "t", now).status().code(), StatusCode::kUnavailable);
}

}  // namespace
}  // namespace floe::storage
