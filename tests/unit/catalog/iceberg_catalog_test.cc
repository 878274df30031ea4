#include "floe/catalog/iceberg_catalog.h"

#include <gtest/gtest.h>

namespace floe::catalog {
namespace {

TEST(DefaultTableLocation, PlainNamesAreDirectories) {
  EXPECT_EQ(DefaultTableLocation("s3://b/wh/", {{"a", "b"}, "t"}), "s3://b/wh/a/b/t");
}

TEST(DefaultTableLocation, ANameWithSlashIsOneDirectoryOfItsOwn) {
  const std::string slashed = DefaultTableLocation("file:///wh", {{"ns"}, "tab/le"});
  ASSERT_EQ(slashed.rfind("file:///wh/ns/tab_le-", 0), 0u) << slashed;
  EXPECT_EQ(slashed.size(), std::string("file:///wh/ns/tab_le-").size() + 8) << slashed;
  // Neither nested under table "tab" nor shared with "tab_le"; stable for one name.
  EXPECT_NE(slashed, DefaultTableLocation("file:///wh", {{"ns"}, "tab_le"}));
  EXPECT_NE(slashed, DefaultTableLocation("file:///wh", {{"ns"}, "tab_le/"}));
  EXPECT_EQ(slashed, DefaultTableLocation("file:///wh", {{"ns"}, "tab/le"}));
  const std::string ns = DefaultTableLocation("file:///wh", {{"new/db"}, "t"});
  EXPECT_EQ(ns.find("/new/db/"), std::string::npos) << ns;
  EXPECT_EQ(ns.rfind("file:///wh/new_db-", 0), 0u) << ns;
  // ".." inside a name cannot climb out of the warehouse either.
  EXPECT_EQ(DefaultTableLocation("file:///wh", {{"ns"}, "../../etc"}).find("/../"), std::string::npos);
}

}  // namespace
}  // namespace floe::catalog
