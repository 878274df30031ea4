// FileIO::PutIfAbsent on local files: the atomic create Delta commits rest on.
#include <arrow/buffer.h>
#include <gtest/gtest.h>

#include <filesystem>
#include <thread>
#include <vector>

#include "floe/storage/file_io.h"
#include "support/temp_dir.h"

namespace floe::storage {
namespace {

TEST(FileIOPutIfAbsent, SecondCreateOfOneNameIsAConflict) {
  test_support::TempDir dir;
  auto io = FileIO::Open(dir.path().string());
  ASSERT_TRUE(io.ok()) << io.status().ToString();
  ASSERT_TRUE(io->PutIfAbsent("log/0001.json", "first").ok());
  const Status second = io->PutIfAbsent("log/0001.json", "second");
  EXPECT_EQ(second.code(), StatusCode::kConflict) << second.ToString();
  auto file = io->OpenRead("log/0001.json");
  ASSERT_TRUE(file.ok());
  EXPECT_EQ((*file)->ReadAt(0, 100).ValueOrDie()->ToString(), "first");
  // No temporary files are left beside it.
  int entries = 0;
  for (const auto& e : std::filesystem::directory_iterator(dir.path() / "log")) entries += e.is_regular_file();
  EXPECT_EQ(entries, 1);
}

TEST(FileIOPutIfAbsent, RacingWritersExactlyOneWins) {
  test_support::TempDir dir;
  auto io = FileIO::Open(dir.path().string());
  ASSERT_TRUE(io.ok());
  std::vector<Status> results(8);
  std::vector<std::thread> threads;
  for (std::size_t i = 0; i < results.size(); ++i) {
    threads.emplace_back([&, i] { results[i] = io->PutIfAbsent("v.json", "writer " + std::to_string(i)); });
  }
  for (auto& t : threads) t.join();
  int wins = 0;
  for (const auto& r : results) {
    if (r.ok()) ++wins;
    else EXPECT_EQ(r.code(), StatusCode::kConflict) << r.ToString();
  }
  EXPECT_EQ(wins, 1);
}

}  // namespace
}  // namespace floe::storage
