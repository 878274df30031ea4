// The registry URL as messages show it: credentials written into the URL never appear.
#include <gtest/gtest.h>

#include "floe/registry/client.h"

namespace floe::registry {
namespace {

std::string Shown(const std::string& url) {
  ClientOptions options;
  options.url = url;
  return Client(options).display_url();
}

TEST(RegistryClientDisplayUrl, DropsUserInfo) {
  EXPECT_EQ(Shown("https://floe:s3cret@registry.example:8081/"), "https://registry.example:8081");
  EXPECT_EQ(Shown("https://key:p@ss@registry.example/prefix"), "https://registry.example/prefix");
  EXPECT_EQ(Shown("http://registry.example:8081/a@b"), "http://registry.example:8081/a@b");  // '@' in the path stays
  EXPECT_EQ(Shown("https://registry.example"), "https://registry.example");
}

}  // namespace
}  // namespace floe::registry
