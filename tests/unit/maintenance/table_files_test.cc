// The path keys expiry and orphan removal compare locations by: one file, however an engine
// spells its location, has one key.
#include <gtest/gtest.h>

#include "floe/maintenance/table_files_internal.h"

namespace floe::maintenance {
namespace {

TEST(PathKey, SpellingsOfOneFileHaveOneKey) {
  EXPECT_EQ(PathKey("file:///w/t/data/a.parquet"), "/w/t/data/a.parquet");
  EXPECT_EQ(PathKey("file:/w/t/data/a.parquet"), "/w/t/data/a.parquet");
  EXPECT_EQ(PathKey("file://localhost/w/t/data/a.parquet"), "/w/t/data/a.parquet");
  EXPECT_EQ(PathKey("/w/t//data/a.parquet"), "/w/t/data/a.parquet");
  EXPECT_EQ(PathKey("s3://bucket/t/data/a.parquet"), "/t/data/a.parquet");
  EXPECT_EQ(PathKey("s3a://bucket/t/data/a.parquet"), "/t/data/a.parquet");
  EXPECT_EQ(PathKey("abfss://c@account.dfs.core.windows.net/t/a.parquet"), "/t/a.parquet");
  EXPECT_NE(PathKey("s3://bucket/t/data/a.parquet"), PathKey("s3://bucket/t/data/b.parquet"));
}

TEST(PathKey, ExtraLivePathsMayBeRelativeToTheTable) {
  const auto keys = ExtraLiveKeys("s3://bucket/warehouse/t/", {"data/a.parquet", "s3a://bucket/warehouse/t/data/b.parquet",
                                                               "data/p=1:2/c.parquet"});
  EXPECT_EQ(keys, (std::set<std::string>{"/warehouse/t/data/a.parquet", "/warehouse/t/data/b.parquet",
                                         "/warehouse/t/data/p=1:2/c.parquet"}));
}

}  // namespace
}  // namespace floe::maintenance
