#include "floe/core/uuid.h"

#include <gtest/gtest.h>

#include <set>
#include <string>
#include <thread>
#include <vector>

namespace floe {
namespace {

bool IsCanonicalLowerCase(const std::string& u) {
  if (u.size() != 36) return false;
  for (std::size_t i = 0; i < u.size(); ++i) {
    const bool dash = i == 8 || i == 13 || i == 18 || i == 23;
    const char c = u[i];
    if (dash ? c != '-' : !((c >= '0' && c <= '9') || (c >= 'a' && c <= 'f'))) return false;
  }
  return true;
}

TEST(NewUuid, IsACanonicalVersion4Uuid) {
  for (int i = 0; i < 1000; ++i) {
    const std::string u = NewUuid();
    ASSERT_TRUE(IsCanonicalLowerCase(u)) << u;
    EXPECT_EQ(u[14], '4') << u;                                          // version
    EXPECT_NE(std::string("89ab").find(u[19]), std::string::npos) << u;  // variant
  }
}

TEST(NewUuid, NeverRepeatsAcrossThreads) {
  constexpr int kThreads = 4, kEach = 2000;
  std::vector<std::vector<std::string>> made(kThreads);
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t) {
    threads.emplace_back([&made, t] {
      for (int i = 0; i < kEach; ++i) made[t].push_back(NewUuid());
    });
  }
  for (auto& t : threads) t.join();
  std::set<std::string> seen;
  for (const auto& list : made) seen.insert(list.begin(), list.end());
  EXPECT_EQ(seen.size(), static_cast<std::size_t>(kThreads * kEach));
}

}  // namespace
}  // namespace floe
