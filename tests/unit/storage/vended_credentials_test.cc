// The session policy that scopes vended credentials to one table (storage/vended_credentials.h).
#include "floe/storage/vended_credentials.h"

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

namespace floe::storage {
namespace {

TEST(VendedCredentials, SessionPolicyAllowsReadingTheTableOnly) {
  auto policy = ReadOnlySessionPolicy("s3://acme-lake/floe/kafka/orders/");
  ASSERT_TRUE(policy.ok()) << policy.status().ToString();
  const auto json = nlohmann::json::parse(*policy);
  ASSERT_EQ(json["Statement"].size(), 2u);
  const auto& read = json["Statement"][0];
  EXPECT_EQ(read["Effect"], "Allow");
  EXPECT_EQ(read["Action"], nlohmann::json::array({"s3:GetObject"}));
  EXPECT_EQ(read["Resource"], "arn:aws:s3:::acme-lake/floe/kafka/orders/*");
  const auto& list = json["Statement"][1];
  EXPECT_EQ(list["Action"], nlohmann::json::array({"s3:ListBucket"}));
  EXPECT_EQ(list["Resource"], "arn:aws:s3:::acme-lake");
  EXPECT_EQ(list["Condition"]["StringLike"]["s3:prefix"],
            nlohmann::json::array({"floe/kafka/orders", "floe/kafka/orders/*"}));
  // Nothing that writes or deletes.
  EXPECT_EQ(policy->find("Put"), std::string::npos);
  EXPECT_EQ(policy->find("Delete"), std::string::npos);
}

TEST(VendedCredentials, OnlyS3LocationsWithABucketAndPrefix) {
  EXPECT_EQ(ReadOnlySessionPolicy("file:///tmp/wh/t").status().code(), StatusCode::kInvalidArgument);
  EXPECT_EQ(ReadOnlySessionPolicy("s3://bucket-only").status().code(), StatusCode::kInvalidArgument);
}

}  // namespace
}  // namespace floe::storage
