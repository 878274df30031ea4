// write.metadata.delete-after-commit.enabled in Floe's catalog (catalog/iceberg_catalog.cc):
// the metadata files that fall off the metadata-log (write.metadata.previous-versions-max) are
// deleted by the commit that drops them, so a table committed every second keeps a bounded
// metadata directory; "false" keeps them for orphan removal, as Java's default does.
#include <gtest/gtest.h>

#include <filesystem>
#include <set>

#include "iceberg_test_table.h"

namespace floe::maintenance {
namespace {

using testing::IcebergTestTable;
using testing::LocalPath;
namespace fs = std::filesystem;

class MetadataLogCleanup : public IcebergTestTable {
 protected:
  void SetProperties(std::map<std::string, std::string, std::less<>> props) {
    catalog::TableChange change{id_, {}, {iceberg::SetPropertiesUpdate{std::move(props)}}};
    auto r = catalog_->CommitTable(change);
    ASSERT_TRUE(r.ok()) << r.status().ToString();
  }
  std::set<std::string> MetadataFiles() {
    std::set<std::string> out;
    const fs::path dir = fs::path(LocalPath(Load().metadata.location)) / "metadata";
    for (const auto& e : fs::directory_iterator(dir)) {
      if (e.path().string().ends_with(".metadata.json")) out.insert(e.path().filename().string());
    }
    return out;
  }
};

TEST_F(MetadataLogCleanup, CommitsDeleteTheFilesThatFellOffTheLog) {
  SetProperties({{"write.metadata.previous-versions-max", "3"}});
  for (int k = 0; k < 8; ++k) ASSERT_TRUE(Append(k * 10, 10).ok());
  const auto table = Load();
  ASSERT_EQ(table.metadata.metadata_log.size(), 3u);
  // The current file and the three the log lists, nothing else.
  std::set<std::string> expected = {fs::path(LocalPath(table.metadata_location)).filename().string()};
  for (const auto& e : table.metadata.metadata_log) expected.insert(fs::path(LocalPath(e.metadata_file)).filename().string());
  EXPECT_EQ(MetadataFiles(), expected);
  ExpectReferencedFilesExist();
}

TEST_F(MetadataLogCleanup, FalseKeepsThemForOrphanRemoval) {
  SetProperties({{"write.metadata.previous-versions-max", "3"}, {"write.metadata.delete-after-commit.enabled", "false"}});
  for (int k = 0; k < 8; ++k) ASSERT_TRUE(Append(k * 10, 10).ok());
  // Creation, the property change and eight appends: ten metadata files.
  EXPECT_EQ(MetadataFiles().size(), 10u);
}

}  // namespace
}  // namespace floe::maintenance
