// TokenCache: one token per store until a minute before it expires.
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

}  // namespace
}  // namespace floe::storage
