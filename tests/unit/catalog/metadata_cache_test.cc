// catalog::MetadataCache: parsed metadata by location, least recently used out, copies out.
#include "floe/catalog/metadata_cache.h"

#include <gtest/gtest.h>

namespace floe::catalog {
namespace {

iceberg::TableMetadata WithLocation(const std::string& location) {
  iceberg::TableMetadata m;
  m.location = location;
  return m;
}

TEST(MetadataCache, FindsWhatWasPutAndForgetsTheLeastRecentlyUsed) {
  MetadataCache cache(2);
  EXPECT_FALSE(cache.Find("a").has_value());
  cache.Put("a", WithLocation("/a"));
  cache.Put("b", WithLocation("/b"));
  ASSERT_TRUE(cache.Find("a").has_value());  // a is now the most recent
  cache.Put("c", WithLocation("/c"));        // b goes
  EXPECT_FALSE(cache.Find("b").has_value());
  EXPECT_EQ(cache.Find("a")->location, "/a");
  EXPECT_EQ(cache.Find("c")->location, "/c");
  auto copy = cache.Find("a");
  copy->location = "/changed";  // a copy: the cached one stays
  EXPECT_EQ(cache.Find("a")->location, "/a");
  cache.Put("a", WithLocation("/a2"));  // replaced, not duplicated
  EXPECT_EQ(cache.Find("a")->location, "/a2");
  EXPECT_EQ(cache.Find("c")->location, "/c");
}

}  // namespace
}  // namespace floe::catalog
