// Where REST catalog clients may put tables (rest_locations_internal.h) and which names they
// may use (ValidateName): the rules docs/security.md states, case by case.
#include "floe/server/rest_locations_internal.h"

#include <gtest/gtest.h>

#include "floe/server/rest_requests_internal.h"

namespace floe::server {
namespace {

bool Inside(const std::string& location, const std::string& warehouse) {
  return CheckInsideWarehouse(location, warehouse, "location").ok();
}

TEST(RestLocations, LocalWarehouseAcceptsEverySpellingOfAPathBelowIt) {
  const std::string wh = "file:///var/lib/floe/wh";
  EXPECT_TRUE(Inside("file:///var/lib/floe/wh/db/t", wh));
  EXPECT_TRUE(Inside("/var/lib/floe/wh/db/t", wh));
  EXPECT_TRUE(Inside("file:/var/lib/floe/wh/db/t/", wh));  // Java's spelling, trailing slash
  EXPECT_TRUE(Inside("file:///var/lib/floe/wh//db/t", wh));
  EXPECT_TRUE(Inside("/var/lib/floe/wh/db/a%20b", wh));  // an escape that is no separator
}

TEST(RestLocations, LocalWarehouseRefusesEverythingElse) {
  const std::string wh = "file:///var/lib/floe/wh";
  for (const char* outside : {"/var/lib/floe/wh", "/var/lib/floe/wh/", "/var/lib/floe/whx/t", "/var/lib/floe",
                              "/etc/floe", "file:///", "/var/lib/floe/wh/../x", "/var/lib/floe/wh/db/../../x",
                              "/var/lib/floe/wh/./t", "/var/lib/floe/wh/%2e%2E/x", "/var/lib/floe/wh/a%2F..%2F..",
                              "/var/lib/floe/wh/a%00b", "/var/lib/floe/wh/a\\b", "file://host/var/lib/floe/wh/t",
                              "relative/wh/t", "", "s3://bucket/var/lib/floe/wh/t", "/var/lib/floe/wh/t?x=1",
                              "/var/lib/floe/wh/t#f"}) {
    EXPECT_FALSE(Inside(outside, wh)) << outside;
  }
  const Status st = CheckInsideWarehouse("/etc/x", wh, "location");
  EXPECT_EQ(st.code(), StatusCode::kInvalidArgument);
  EXPECT_NE(st.message().find("location '/etc/x' is outside the warehouse file:///var/lib/floe/wh"), std::string::npos)
      << st.message();
}

TEST(RestLocations, ObjectStoreWarehouseKeepsBucketAndPrefix) {
  const std::string wh = "s3://lake/floe";
  EXPECT_TRUE(Inside("s3://lake/floe/db/t", wh));
  EXPECT_TRUE(Inside("s3a://lake/floe/db/t", wh));
  EXPECT_TRUE(Inside("S3N://lake/floe/db/t", wh));
  EXPECT_FALSE(Inside("s3://lake2/floe/db/t", wh));
  EXPECT_FALSE(Inside("s3://lake/floex/t", wh));
  EXPECT_FALSE(Inside("s3://lake/floe", wh));
  EXPECT_FALSE(Inside("s3://lake/floe/%2E%2E/other", wh));
  EXPECT_FALSE(Inside("gs://lake/floe/db/t", wh));
  EXPECT_FALSE(Inside("/floe/db/t", wh));
  EXPECT_TRUE(Inside("abfss://c@acct.dfs.core.windows.net/wh/t", "abfss://c@acct.dfs.core.windows.net/wh"));
  EXPECT_FALSE(Inside("abfss://c@other.dfs.core.windows.net/wh/t", "abfss://c@acct.dfs.core.windows.net/wh"));
}

TEST(RestLocations, ChangesAndPropertiesThatMoveFilesAreChecked) {
  const std::string wh = "file:///wh";
  catalog::NewTable table;
  table.location = "/wh/db/t";
  EXPECT_TRUE(CheckTableLocations(table, {wh, {}}).ok());
  table.properties["write.metadata.path"] = "/tmp/meta";
  EXPECT_FALSE(CheckTableLocations(table, {wh, {}}).ok());
  table.properties["write.metadata.path"] = "/wh/db/t/meta";
  table.properties["write.data.path"] = "s3://elsewhere/data";
  EXPECT_FALSE(CheckTableLocations(table, {wh, {}}).ok());

  catalog::TableChange change;
  change.updates.push_back(iceberg::SetPropertiesUpdate{{{"owner", "me"}}});
  EXPECT_TRUE(CheckChangeLocations(change, {wh, {}}).ok());
  change.updates.push_back(iceberg::SetLocationUpdate{"/wh/../etc"});
  EXPECT_FALSE(CheckChangeLocations(change, {wh, {}}).ok());
}

TEST(RestLocations, AllowedLocationsAddPlacesWithTheSameRules) {
  const AllowedLocations allowed{"file:///wh", {"s3://other/tables", "/data/lake"}};
  for (const char* ok : {"/wh/db/t", "s3://other/tables/db/t", "s3a://other/tables/t", "file:/data/lake/t"}) {
    EXPECT_TRUE(CheckAllowedLocation(ok, allowed, "location").ok()) << ok;
  }
  for (const char* bad : {"/data/lake", "/data/lakex/t", "s3://other/t", "/data/lake/../../etc", "/etc/t"}) {
    EXPECT_FALSE(CheckAllowedLocation(bad, allowed, "location").ok()) << bad;
  }
  const Status st = CheckAllowedLocation("/etc/t", allowed, "set-location");
  EXPECT_EQ(st.code(), StatusCode::kInvalidArgument);
  EXPECT_NE(st.message().find("set-location '/etc/t' is outside the warehouse file:///wh and catalog.allowed_locations "
                              "(s3://other/tables, /data/lake)"),
            std::string::npos)
      << st.message();
  catalog::NewTable table;
  table.location = "/data/lake/db/t";
  table.properties["write.data.path"] = "s3://other/tables/db/t/data";
  EXPECT_TRUE(CheckTableLocations(table, allowed).ok());
  EXPECT_FALSE(CheckTableLocations(table, {"file:///wh", {}}).ok());
}

TEST(RestNames, DotSegmentsAndControlCharactersAreRefusedSlashIsNot) {
  for (const char* ok : {"t", "a/b", "a.b", "..a", "a..", "%41", "a/.b"}) EXPECT_TRUE(ValidateName(ok, "table").ok()) << ok;
  for (const char* bad : {"", ".", "..", "a/..", "../a", "a/./b", "%2e%2E", "%2e", "x/%2E%2e/y", "a\\b", "a\x01"}) {
    EXPECT_FALSE(ValidateName(bad, "table").ok()) << bad;
  }
  EXPECT_FALSE(ValidateName(std::string("a\0b", 3), "table").ok());
  EXPECT_FALSE(ValidateName(std::string(256, 'a'), "table").ok());
}

}  // namespace
}  // namespace floe::server
