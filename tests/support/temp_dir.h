#pragma once
// A fresh directory per test, removed afterwards. Unique across the processes ctest runs in
// parallel (pid, a counter and random bits in the name).
#include <unistd.h>

#include <atomic>
#include <filesystem>
#include <random>
#include <string>
#include <system_error>

namespace floe::test_support {

class TempDir {
 public:
  explicit TempDir(const std::string& prefix = "floe-test") {
    static std::atomic<int> counter{0};
    std::random_device rd;
    path_ = std::filesystem::temp_directory_path() /
            (prefix + "-" + std::to_string(::getpid()) + "-" + std::to_string(counter++) + "-" + std::to_string(rd()));
    std::filesystem::create_directories(path_);
  }
  ~TempDir() {
    std::error_code ec;
    std::filesystem::remove_all(path_, ec);
  }
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;

  const std::filesystem::path& path() const { return path_; }
  // sqlite:// URI of a database file in the directory.
  std::string SqliteUri(const std::string& file = "catalog.db") const { return "sqlite://" + (path_ / file).string(); }

 private:
  std::filesystem::path path_;
};

}  // namespace floe::test_support
