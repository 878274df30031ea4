// Storage access a catalog delegates for table prefixes (storage/delegated_access.h): which
// store a URI gets, and when the catalog is asked again. Building an S3 store sends no request.
#include "floe/storage/delegated_access.h"

#include <gtest/gtest.h>

#include <chrono>
#include <string>

#include "floe/storage/object_stores.h"
#include "floe/storage/s3_store_internal.h"

namespace floe::storage {
namespace {

using Props = std::map<std::string, std::string>;

std::string NowPlusMs(std::chrono::milliseconds d) {
  const auto at = std::chrono::system_clock::now() + d;
  return std::to_string(std::chrono::duration_cast<std::chrono::milliseconds>(at.time_since_epoch()).count());
}

Props Keys(const std::string& key, std::string expires_ms = "") {
  Props p = {{"s3.access-key-id", key}, {"s3.secret-access-key", "secret-" + key}, {"s3.session-token", "tok"}};
  if (!expires_ms.empty()) p["s3.session-token-expires-at-ms"] = expires_ms;
  return p;
}

class DelegatedAccessTest : public ::testing::Test {
 protected:
  void SetUp() override {
    StorageConfig config;
    S3StorageConfig s3;
    s3.region = "eu-west-1";
    s3.endpoint = "http://127.0.0.1:1";
    s3.path_style = true;
    s3.credentials = S3CredentialsKind::kStatic;
    s3.access_key_id = "OWN";
    s3.secret_access_key = "own-secret";
    config.s3 = s3;
    ASSERT_TRUE(ConfigureObjectStores(config).ok());
  }
  void TearDown() override { RevokeDelegations(this); }

  std::string KeyFor(const std::string& uri) {
    auto store = S3StoreForUri(uri);
    EXPECT_TRUE(store.ok()) << store.status().ToString();
    return store.ok() ? (*store)->config.access_key_id : "";
  }
};

TEST_F(DelegatedAccessTest, FilesUnderAPrefixUseItsCredentialsOthersTheStoresOwn) {
  ASSERT_TRUE(Delegate(this, {{"s3://lake/wh/ns/orders", Keys("VENDED")}}, nullptr).ok());
  EXPECT_EQ(KeyFor("s3://lake/wh/ns/orders/data/00001.parquet"), "VENDED");
  EXPECT_EQ(KeyFor("s3://lake/wh/ns/orders"), "VENDED");
  // A sibling whose name merely starts like the prefix is not under it.
  EXPECT_EQ(KeyFor("s3://lake/wh/ns/orders_v2/data/x.parquet"), "OWN");
  EXPECT_EQ(KeyFor("s3://other/wh/ns/orders/x"), "OWN");

  auto store = S3StoreForUri("s3://lake/wh/ns/orders/x");
  ASSERT_TRUE(store.ok());
  // storage.s3's endpoint and region stay unless the catalog says otherwise; no role on top.
  EXPECT_EQ((*store)->config.endpoint, "http://127.0.0.1:1");
  EXPECT_EQ((*store)->config.session_token, "tok");
  EXPECT_TRUE((*store)->config.role_arn.empty());
  // The same answer again keeps the store.
  ASSERT_TRUE(Delegate(this, {{"s3://lake/wh/ns/orders/", Keys("VENDED")}}, nullptr).ok());
  EXPECT_EQ(S3StoreForUri("s3://lake/wh/ns/orders/y")->get(), store->get());
}

TEST_F(DelegatedAccessTest, TheLongestPrefixWinsAndCatalogSettingsApply) {
  Props table = {{"s3.endpoint", "http://127.0.0.1:2"}, {"s3.region", "us-west-2"}, {"s3.path-style-access", "false"}};
  ASSERT_TRUE(Delegate(this, {{"s3://lake/wh/t", table}, {"s3://lake/wh/t/data", Keys("DATA")}}, nullptr).ok());
  EXPECT_EQ(KeyFor("s3://lake/wh/t/data/f.parquet"), "DATA");
  auto metadata_store = S3StoreForUri("s3://lake/wh/t/metadata/v1.json");
  ASSERT_TRUE(metadata_store.ok());
  EXPECT_EQ((*metadata_store)->config.access_key_id, "OWN");  // settings only: the store's own keys
  EXPECT_EQ((*metadata_store)->config.endpoint, "http://127.0.0.1:2");
  EXPECT_EQ((*metadata_store)->config.region, "us-west-2");
  EXPECT_FALSE((*metadata_store)->config.path_style);
}

TEST_F(DelegatedAccessTest, AKeyWithoutItsSecretIsRefusedWithoutQuotingIt) {
  auto refused = Delegate(this, {{"s3://lake/wh/t", {{"s3.access-key-id", "AKIASECRETISH"}}}}, nullptr);
  EXPECT_EQ(refused.code(), StatusCode::kInvalidArgument);
  EXPECT_NE(refused.message().find("s3://lake/wh/t"), std::string::npos);
  EXPECT_EQ(refused.message().find("AKIASECRETISH"), std::string::npos);
  EXPECT_EQ(KeyFor("s3://lake/wh/t/x"), "OWN");
}

TEST_F(DelegatedAccessTest, OtherStoresAndUnknownKeysAreIgnored) {
  ASSERT_TRUE(Delegate(this, {{"gs://lake/wh/t", Keys("GCS")}, {"s3://lake/wh/u", {{"unrelated", "x"}}}}, nullptr).ok());
  EXPECT_EQ(KeyFor("s3://lake/wh/u/x"), "OWN");
}

TEST_F(DelegatedAccessTest, ExpiringCredentialsAreAskedForAgainAtMostEveryTenSeconds) {
  int asked = 0;
  std::chrono::milliseconds lifetime = std::chrono::hours(1);
  DelegationRefresh refresh;
  refresh = [&] {
    ++asked;
    return Delegate(this, {{"s3://lake/wh/t", Keys("FRESH" + std::to_string(asked), NowPlusMs(lifetime))}}, refresh);
  };
  // Credentials far from expiry are used as they are.
  ASSERT_TRUE(Delegate(this, {{"s3://lake/wh/t", Keys("LONG", NowPlusMs(std::chrono::hours(1)))}}, refresh).ok());
  EXPECT_EQ(KeyFor("s3://lake/wh/t/a"), "LONG");
  EXPECT_EQ(asked, 0);
  // Two minutes left (inside the five-minute window): asked again before the file is opened.
  ASSERT_TRUE(Delegate(this, {{"s3://lake/wh/t", Keys("OLD", NowPlusMs(std::chrono::minutes(2)))}}, refresh).ok());
  EXPECT_EQ(KeyFor("s3://lake/wh/t/a"), "FRESH1");
  EXPECT_EQ(asked, 1);
  // A catalog that vends short-lived credentials is not asked on every file.
  lifetime = std::chrono::minutes(1);
  ASSERT_TRUE(Delegate(this, {{"s3://lake/wh/t", Keys("SHORT", NowPlusMs(lifetime))}}, refresh).ok());
  EXPECT_EQ(KeyFor("s3://lake/wh/t/b"), "SHORT");
  EXPECT_EQ(asked, 1);
}

TEST_F(DelegatedAccessTest, AFailedRefreshKeepsTheCurrentCredentials) {
  int asked = 0;
  DelegationRefresh broken = [&] {
    ++asked;
    return Status::Unavailable("catalog down");
  };
  ASSERT_TRUE(Delegate(this, {{"s3://lake/wh/t", Keys("CURRENT", NowPlusMs(std::chrono::minutes(1)))}}, broken).ok());
  EXPECT_EQ(KeyFor("s3://lake/wh/t/a"), "CURRENT");
  EXPECT_EQ(KeyFor("s3://lake/wh/t/b"), "CURRENT");
  EXPECT_EQ(asked, 1);
}

TEST_F(DelegatedAccessTest, RevokedGrantsFallBackToTheStoresOwn) {
  ASSERT_TRUE(Delegate(this, {{"s3://lake/wh/t", Keys("VENDED")}}, nullptr).ok());
  int other_owner = 0;
  ASSERT_TRUE(Delegate(&other_owner, {{"s3://lake/wh/u", Keys("OTHER")}}, nullptr).ok());
  RevokeDelegations(this);
  EXPECT_EQ(KeyFor("s3://lake/wh/t/x"), "OWN");
  EXPECT_EQ(KeyFor("s3://lake/wh/u/x"), "OTHER");
  RevokeDelegations(&other_owner);
}

}  // namespace
}  // namespace floe::storage
