// Local folders created at start (storage/local_dirs.h): a missing warehouse or SQLite folder is
// created with its parents; one that cannot be is refused with its name and what to do.
#include "floe/storage/local_dirs.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>

#include "support/temp_dir.h"

namespace floe::storage {
namespace {

namespace fs = std::filesystem;

TEST(LocalWarehousePath, FileUrisAndPlainPathsAreLocal) {
  EXPECT_EQ(LocalWarehousePath("file:///var/lib/floe/wh"), "/var/lib/floe/wh");
  EXPECT_EQ(LocalWarehousePath("/var/lib/floe/wh"), "/var/lib/floe/wh");
  EXPECT_EQ(LocalWarehousePath("warehouse"), "warehouse");
  EXPECT_EQ(LocalWarehousePath("s3://bucket/wh"), std::nullopt);
  EXPECT_EQ(LocalWarehousePath("abfss://c@acct.dfs.core.windows.net/wh"), std::nullopt);
  EXPECT_EQ(LocalWarehousePath(""), std::nullopt);
}

TEST(EnsureWritableDirectory, CreatesMissingParents) {
  test_support::TempDir dir("floe-local-dirs");
  const auto path = dir.path() / "a" / "b" / "warehouse";
  ASSERT_TRUE(EnsureWritableDirectory(path.string(), "the warehouse folder", "x").ok());
  EXPECT_TRUE(fs::is_directory(path));
  // Already there: nothing to do.
  EXPECT_TRUE(EnsureWritableDirectory(path.string(), "the warehouse folder", "x").ok());
}

TEST(EnsureWritableDirectory, RefusesAFileInTheWayNamingTheFolderAndTheWayOut) {
  test_support::TempDir dir("floe-local-dirs");
  const auto file = dir.path() / "not-a-folder";
  std::ofstream(file) << "x";
  const Status in_place = EnsureWritableDirectory(file.string(), "the warehouse folder", "set `warehouse:` elsewhere");
  EXPECT_EQ(in_place.code(), StatusCode::kIoError);
  EXPECT_NE(in_place.message().find("the warehouse folder " + file.string() + " exists but is not a folder"),
            std::string::npos)
      << in_place.message();
  EXPECT_NE(in_place.message().find("set `warehouse:` elsewhere"), std::string::npos) << in_place.message();

  const auto below = file / "warehouse";
  const Status under = EnsureWritableDirectory(below.string(), "the warehouse folder", "set `warehouse:` elsewhere");
  EXPECT_EQ(under.code(), StatusCode::kIoError);
  EXPECT_NE(under.message().find("cannot create the warehouse folder " + below.string() + ": "), std::string::npos)
      << under.message();
  EXPECT_NE(under.message().find("mkdir -p " + below.string()), std::string::npos) << under.message();
}

TEST(EnsureWritableDirectory, RefusesAFolderThisUserCannotWriteTo) {
  if (::geteuid() == 0) GTEST_SKIP() << "root may write anywhere";
  test_support::TempDir dir("floe-local-dirs");
  const auto locked = dir.path() / "locked";
  fs::create_directory(locked);
  fs::permissions(locked, fs::perms::owner_read | fs::perms::owner_exec);
  const Status existing = EnsureWritableDirectory(locked.string(), "the warehouse folder", "y");
  EXPECT_NE(existing.message().find("cannot create files in it"), std::string::npos) << existing.message();
  const Status below = EnsureWritableDirectory((locked / "wh").string(), "the warehouse folder", "y");
  EXPECT_NE(below.message().find("Permission denied"), std::string::npos) << below.message();
  fs::permissions(locked, fs::perms::owner_all);
}

TEST(PrepareLocalWarehouse, CreatesAFileUriWarehouseAndLeavesObjectStoresAlone) {
  test_support::TempDir dir("floe-local-dirs");
  const auto path = dir.path() / "new" / "warehouse";
  ASSERT_TRUE(PrepareLocalWarehouse("file://" + path.string()).ok());
  EXPECT_TRUE(fs::is_directory(path));
  EXPECT_TRUE(PrepareLocalWarehouse("s3://bucket/warehouse").ok());
}

}  // namespace
}  // namespace floe::storage
