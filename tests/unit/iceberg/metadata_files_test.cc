#include <gtest/gtest.h>

#include <string>

#include "floe/iceberg/metadata_files.h"
#include "floe/iceberg/table_metadata.h"
#include "iceberg_test_util.h"

namespace floe::iceberg {
namespace {

constexpr const char* kUuid = "9c12d441-03fe-4693-9a96-a0705ddf69c1";

TEST(IcebergMetadataFiles, Names) {
  EXPECT_EQ(MetadataFileName(0, kUuid), "00000-9c12d441-03fe-4693-9a96-a0705ddf69c1.metadata.json");
  EXPECT_EQ(MetadataFileName(42, kUuid), "00042-9c12d441-03fe-4693-9a96-a0705ddf69c1.metadata.json");
  EXPECT_EQ(MetadataFileName(123456, kUuid), "123456-9c12d441-03fe-4693-9a96-a0705ddf69c1.metadata.json");
  EXPECT_EQ(MetadataFilePath("s3://bucket/db/t", 1, kUuid),
            "s3://bucket/db/t/metadata/00001-9c12d441-03fe-4693-9a96-a0705ddf69c1.metadata.json");
  EXPECT_EQ(MetadataFilePath("s3://bucket/db/t//", 1, kUuid),
            "s3://bucket/db/t/metadata/00001-9c12d441-03fe-4693-9a96-a0705ddf69c1.metadata.json");
}

TEST(IcebergMetadataFiles, DirectoryAndNewPath) {
  TableMetadata m;
  m.location = "file:///tmp/wh/db/t/";
  EXPECT_EQ(MetadataDirectory(m), "file:///tmp/wh/db/t/metadata");
  std::string path = NewMetadataFilePath(m, 3);
  ASSERT_TRUE(path.starts_with("file:///tmp/wh/db/t/metadata/00003-")) << path;
  ASSERT_TRUE(path.ends_with(".metadata.json")) << path;
  std::string uuid = path.substr(std::string("file:///tmp/wh/db/t/metadata/00003-").size(), 36);
  EXPECT_TRUE(IsValidUuid(uuid)) << uuid;
  EXPECT_NE(NewMetadataFilePath(m, 3), path);
  EXPECT_EQ(ParseMetadataVersion(path).value(), 3);

  m.properties.emplace(std::string(kPropWriteMetadataPath), "s3://meta/t/");
  EXPECT_EQ(MetadataDirectory(m), "s3://meta/t");
  EXPECT_TRUE(NewMetadataFilePath(m, 0).starts_with("s3://meta/t/00000-"));
}

TEST(IcebergMetadataFiles, ParseVersion) {
  EXPECT_EQ(ParseMetadataVersion("00000-9c12d441-03fe-4693-9a96-a0705ddf69c1.metadata.json").value(), 0);
  EXPECT_EQ(ParseMetadataVersion("s3://b/t/metadata/00017-9c12d441-03fe-4693-9a96-a0705ddf69c1.metadata.json").value(), 17);
  EXPECT_EQ(ParseMetadataVersion("/x/123456-abc.metadata.json").value(), 123456);
  EXPECT_EQ(ParseMetadataVersion("/x/00002-9c12d441-03fe-4693-9a96-a0705ddf69c1.gz.metadata.json").value(), 2);
  EXPECT_EQ(ParseMetadataVersion("hdfs://nn/t/metadata/v12.metadata.json").value(), 12);
  EXPECT_EQ(ParseMetadataVersion("v3.gz.metadata.json").value(), 3);
  for (const char* bad : {"", "metadata.json", ".metadata.json", "/x/abc-def.metadata.json", "/x/00001-uuid.json",
                          "/x/-uuid.metadata.json", "/x/00001-.metadata.json", "/x/v.metadata.json", "/x/vx.metadata.json",
                          "/x/99999999999-u.metadata.json", "/x/00001.metadata.json/"}) {
    SCOPED_TRACE(bad);
    auto v = ParseMetadataVersion(bad);
    EXPECT_FALSE(v.ok());
    EXPECT_EQ(v.status().code(), StatusCode::kInvalidArgument);
  }
}

TEST(IcebergMetadataFiles, NextVersion) {
  EXPECT_EQ(NextMetadataVersion("").value(), 0);
  EXPECT_EQ(NextMetadataVersion("s3://b/t/metadata/00041-u.metadata.json").value(), 42);
  EXPECT_FALSE(NextMetadataVersion("s3://b/t/metadata/garbage").ok());
}

// The metadata-log of pyiceberg's files names versions 0, 1, 2, ... in order.
TEST(IcebergMetadataFiles, PyicebergMetadataLogVersions) {
  TableMetadata m = testing::ParseDataFile("pyiceberg-00007.metadata.json");
  for (size_t i = 0; i < m.metadata_log.size(); ++i) {
    auto v = ParseMetadataVersion(m.metadata_log[i].metadata_file);
    ASSERT_TRUE(v.ok()) << v.status().ToString();
    EXPECT_EQ(*v, static_cast<int>(i));
  }
}

}  // namespace
}  // namespace floe::iceberg
