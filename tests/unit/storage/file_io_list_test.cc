// FileIO::ListFiles on local files: every file below a directory, recursively, relative to the
// root, with size and modification time; directories are not listed; a missing directory is
// empty. (Object stores list through the same arrow::fs::FileSelector; maintenance's
// integration tests cover them.)
#include <gtest/gtest.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <map>

#include "floe/storage/file_io.h"
#include "support/temp_dir.h"

namespace floe::storage {
namespace {

TEST(FileIOList, ListsFilesRecursivelyWithSizesAndTimes) {
  test_support::TempDir dir("floe-file-io-list");
  const auto root = dir.path() / "table";
  std::filesystem::create_directories(root / "data" / "p=1");
  std::filesystem::create_directories(root / "data" / "empty");
  std::ofstream(root / "data" / "a.parquet") << "abc";
  std::ofstream(root / "data" / "p=1" / "b.parquet") << "abcdef";
  std::ofstream(root / "metadata.json") << "{}";
  const auto old = std::filesystem::file_time_type::clock::now() - std::chrono::hours(50);
  std::filesystem::last_write_time(root / "data" / "a.parquet", old);

  auto io = FileIO::Open(root.string());
  ASSERT_TRUE(io.ok()) << io.status().ToString();
  auto files = io->ListFiles("data");
  ASSERT_TRUE(files.ok()) << files.status().ToString();
  std::map<std::string, ListedFile> by_path;
  for (const auto& f : *files) by_path[f.relative_path] = f;
  ASSERT_EQ(by_path.size(), 2u);
  ASSERT_TRUE(by_path.count("data/a.parquet"));
  ASSERT_TRUE(by_path.count("data/p=1/b.parquet"));
  EXPECT_EQ(by_path["data/a.parquet"].size, 3);
  EXPECT_EQ(by_path["data/p=1/b.parquet"].size, 6);
  const auto now_ms = std::chrono::duration_cast<std::chrono::milliseconds>(
                          std::chrono::system_clock::now().time_since_epoch())
                          .count();
  ASSERT_TRUE(by_path["data/a.parquet"].modified_ms.has_value());
  ASSERT_TRUE(by_path["data/p=1/b.parquet"].modified_ms.has_value());
  EXPECT_NEAR(static_cast<double>(now_ms - *by_path["data/a.parquet"].modified_ms), 50.0 * 3600 * 1000, 120'000);
  EXPECT_LT(now_ms - *by_path["data/p=1/b.parquet"].modified_ms, 120'000);

  auto everything = io->ListFiles("");
  ASSERT_TRUE(everything.ok());
  EXPECT_EQ(everything->size(), 3u);
  auto missing = io->ListFiles("no/such/dir");
  ASSERT_TRUE(missing.ok()) << missing.status().ToString();
  EXPECT_TRUE(missing->empty());
}

}  // namespace
}  // namespace floe::storage
