#pragma once
// A fresh local table root per test.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <random>
#include <string>

#include "floe/storage/file_io.h"

namespace floe::delta::testing {

class TempTable : public ::testing::Test {
 protected:
  void SetUp() override {
    root_ = std::filesystem::temp_directory_path() / ("floe-delta-" + std::to_string(std::random_device{}()));
    auto io = storage::FileIO::Open(root_.string());
    ASSERT_TRUE(io.ok()) << io.status().ToString();
    io_.emplace(std::move(io).value());
  }
  void TearDown() override { std::filesystem::remove_all(root_); }
  void WriteLog(const std::string& name, const std::string& text) {
    std::filesystem::create_directories(root_ / "_delta_log");
    std::ofstream(root_ / "_delta_log" / name) << text;
  }
  std::filesystem::path root_;
  std::optional<storage::FileIO> io_;
};

}  // namespace floe::delta::testing
