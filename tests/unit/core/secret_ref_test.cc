#include "floe/core/secret_ref.h"

#include <gtest/gtest.h>
#include <stdlib.h>

#include <filesystem>
#include <fstream>

namespace floe {
namespace {

TEST(SecretRef, LiteralTextPassesThrough) {
  EXPECT_EQ(*ResolveSecretRefs("plain"), "plain");
  EXPECT_EQ(*ResolveSecretRefs(""), "");
  EXPECT_EQ(*ResolveSecretRefs("cost: $5"), "cost: $5");
  EXPECT_FALSE(HasSecretRef("plain $ text"));
}

TEST(SecretRef, EnvironmentVariables) {
  ::setenv("FLOE_TEST_SECRET", "s3cr3t", 1);
  EXPECT_EQ(*ResolveSecretRefs("${env:FLOE_TEST_SECRET}"), "s3cr3t");
  EXPECT_EQ(*ResolveSecretRefs("Bearer ${env:FLOE_TEST_SECRET}!"), "Bearer s3cr3t!");
  EXPECT_TRUE(HasSecretRef("x${env:FLOE_TEST_SECRET}"));
  ::unsetenv("FLOE_TEST_SECRET_UNSET");
  auto missing = ResolveSecretRefs("${env:FLOE_TEST_SECRET_UNSET}");
  ASSERT_FALSE(missing.ok());
  EXPECT_NE(missing.status().message().find("FLOE_TEST_SECRET_UNSET"), std::string::npos);
}

TEST(SecretRef, FilesDropOneTrailingNewline) {
  const auto path = std::filesystem::temp_directory_path() / "floe_secret_ref_test";
  std::ofstream(path) << "from-a-file\n";
  EXPECT_EQ(*ResolveSecretRefs("${file:" + path.string() + "}"), "from-a-file");
  std::filesystem::remove(path);
  auto missing = ResolveSecretRefs("${file:" + path.string() + "}");
  ASSERT_FALSE(missing.ok());
  EXPECT_NE(missing.status().message().find(path.string()), std::string::npos);
  EXPECT_FALSE(ResolveSecretRefs("${file:relative/path}").ok());
}

TEST(SecretRef, ErrorsNeverCarryAResolvedValue) {
  ::setenv("FLOE_TEST_SECRET", "s3cr3t", 1);
  auto bad = ResolveSecretRefs("${env:FLOE_TEST_SECRET}${vault:x}");
  ASSERT_FALSE(bad.ok());
  EXPECT_EQ(bad.status().message().find("s3cr3t"), std::string::npos);
  EXPECT_NE(bad.status().message().find("unknown reference kind"), std::string::npos);
  EXPECT_FALSE(ResolveSecretRefs("${env:X").ok());
  EXPECT_FALSE(ResolveSecretRefs("${env:}").ok());
}

TEST(SecretRef, DoubleDollarIsALiteral) {
  EXPECT_EQ(*ResolveSecretRefs("$${env:HOME}"), "${env:HOME}");
  EXPECT_FALSE(HasSecretRef("$${env:HOME}"));
}

}  // namespace
}  // namespace floe
