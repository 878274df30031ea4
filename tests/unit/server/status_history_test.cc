#include "floe/server/status_history.h"

#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <thread>

namespace floe::server {
namespace {

using nlohmann::json;
using namespace std::chrono_literals;

json Status(const std::string& state, std::int64_t committed, std::int64_t high_watermark) {
  return {{"topics",
           {{{"topic", "orders"},
             {"state", state},
             {"partitions",
              {{{"partition", 0}, {"committed_offset", committed}, {"high_watermark", high_watermark}},
               {{"partition", 1}, {"committed_offset", 0}, {"high_watermark", 5}}}}}}}};
}

TEST(StatusHistoryTest, LagIsSummedAndThroughputDerivedFromCommittedOffsets) {
  StatusHistory history(10, 5s);
  history.Record(100, Status("running", 0, 100));
  history.Record(105, Status("running", 50, 100));
  history.Record(110, Status("suspended", 50, 120));
  const json j = history.ToJson();
  EXPECT_EQ(j["t"], json({100.0, 105.0, 110.0}));
  EXPECT_EQ(j["interval_seconds"], 5.0);
  const json& orders = j["topics"]["orders"];
  EXPECT_EQ(orders["lag"], json({105.0, 55.0, 75.0}));
  EXPECT_EQ(orders["state"], json({"running", "running", "suspended"}));
  // No rate before the second sample; then 50 records in 5 s; then none.
  EXPECT_EQ(orders["records_per_second"], json({nullptr, 10.0, 0.0}));
  EXPECT_EQ(orders["freshness_seconds"], json({nullptr, nullptr, nullptr}));
}

TEST(StatusHistoryTest, StatusFieldsWinOverDerivedValues) {
  StatusHistory history(10, 5s);
  json s = Status("running", 0, 10);
  s["topics"][0]["records_per_second"] = 42.5;
  s["topics"][0]["freshness_seconds"] = 3;
  history.Record(1, s);
  history.Record(2, s);
  const json all = history.ToJson();
  const json& orders = all["topics"]["orders"];
  EXPECT_EQ(orders["records_per_second"], json({42.5, 42.5}));
  EXPECT_EQ(orders["freshness_seconds"], json({3.0, 3.0}));
}

TEST(StatusHistoryTest, KeepsOnlyTheNewestCapacitySamplesOldestFirst) {
  StatusHistory history(3, 1s);
  for (int i = 1; i <= 7; ++i) history.Record(i, Status("running", i, 100));
  EXPECT_EQ(history.size(), 3u);
  const json j = history.ToJson();
  EXPECT_EQ(j["t"], json({5.0, 6.0, 7.0}));
  // Lag per sample: (100 - i) + (5 - 0).
  EXPECT_EQ(j["topics"]["orders"]["lag"], json({100.0, 99.0, 98.0}));
}

TEST(StatusHistoryTest, TopicsAbsentFromASampleGetNullsAndOutOfOrderSamplesAreIgnored) {
  StatusHistory history(10, 1s);
  history.Record(10, json{{"topics", json::array()}});
  history.Record(11, Status("running", 1, 1));
  history.Record(11, Status("running", 9, 9));  // not after the last: ignored
  history.Record(5, Status("running", 9, 9));
  const json j = history.ToJson();
  EXPECT_EQ(j["t"], json({10.0, 11.0}));
  EXPECT_EQ(j["topics"]["orders"]["state"], json({nullptr, "running"}));
  EXPECT_EQ(j["topics"]["orders"]["lag"], json({nullptr, 5.0}));
}

TEST(StatusHistoryTest, MalformedStatusRecordsAnEmptySample) {
  StatusHistory history(4, 1s);
  history.Record(1, json("not an object"));
  history.Record(2, json{{"topics", {{{"state", "running"}}, 7}}});
  const json j = history.ToJson();
  EXPECT_EQ(j["t"].size(), 2u);
  EXPECT_TRUE(j["topics"].empty());
}

TEST(PeriodicSamplerTest, SamplesAtOnceThenPeriodicallyUntilStopped) {
  std::atomic<int> calls{0};
  {
    PeriodicSampler sampler(10ms, [&] {
      if (++calls == 2) throw std::runtime_error("a failing sample does not end the sampler");
    });
    for (int i = 0; i < 200 && calls < 4; ++i) std::this_thread::sleep_for(5ms);
  }
  const int after_stop = calls.load();
  EXPECT_GE(after_stop, 4);
  std::this_thread::sleep_for(30ms);
  EXPECT_EQ(calls.load(), after_stop);
}

}  // namespace
}  // namespace floe::server
