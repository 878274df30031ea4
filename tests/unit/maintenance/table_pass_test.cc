// maintenance::RunTablePass and MaintenanceScheduler over an Iceberg table in Floe's own
// catalog: the steps in order with the table's settings, the dry run that changes nothing, the
// min_files gate, and the scheduler's passes, /status and /metrics. End to end with floe run
// and other readers: tests/integration/test_maintenance.py.
#include "floe/maintenance/table_pass.h"

#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <fstream>
#include <functional>
#include <thread>

#include "floe/maintenance/scheduler.h"
#include "iceberg_test_table.h"

namespace floe::maintenance {
namespace {

using testing::IcebergTestTable;
using testing::LocalPath;
using testing::Range;
namespace fs = std::filesystem;

class TablePass : public IcebergTestTable {
 protected:
  MaintenanceTarget Target() const {
    MaintenanceTarget t;
    t.table_name = "lake.events";
    t.id = id_;
    t.iceberg = true;
    t.settings.compaction.min_files = 4;
    t.settings.compaction.target_file_size = 1 << 20;
    t.settings.snapshot_retention = std::chrono::milliseconds(1);
    t.settings.min_snapshots = 2;
    t.settings.orphan_age = std::chrono::hours(1);
    return t;
  }

  void AppendFiles(int n, std::int64_t rows = 10) {
    for (int i = 0; i < n; ++i, next_ += rows) ASSERT_TRUE(Append(next_, rows).ok());
  }

  // A Parquet file no snapshot references, written two days ago (a fenced zombie's).
  std::string PlantZombie() {
    auto file = WriteFile(1'000'000, 5);
    EXPECT_TRUE(file.ok()) << file.status().ToString();
    const std::string path = LocalPath(file->file_path);
    fs::last_write_time(path, fs::file_time_type::clock::now() - std::chrono::hours(48));
    return path;
  }

  // The scheduler's first table once `done` holds for it (within 30 s), else null.
  static nlohmann::json WaitForTable(const MaintenanceScheduler& scheduler,
                                     const std::function<bool(const nlohmann::json&)>& done) {
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(30);
    while (std::chrono::steady_clock::now() < deadline) {
      const nlohmann::json status = scheduler.StatusReport();
      if (!status["tables"].empty() && done(status["tables"][0])) return status["tables"][0];
      std::this_thread::sleep_for(std::chrono::milliseconds(50));
    }
    return nullptr;
  }

  std::int64_t next_ = 0;
};

// The light pass between full passes (issue 34): compaction, then expiry once the table holds
// more than max_snapshots and a tenth (at least one more), however young the snapshots; no
// orphan removal (it lists storage). The metadata file's size is in the shape.
TEST_F(TablePass, LightPassExpiresOnlyOnceOverMaxSnapshots) {
  MaintenanceTarget target = Target();
  target.settings.snapshot_retention = std::chrono::hours(24 * 7);  // every snapshot is young
  target.settings.compaction.enabled = false;
  target.settings.min_snapshots = 1;
  target.settings.max_snapshots = 4;
  PassOptions light;
  light.light = true;
  AppendFiles(5);  // 5 snapshots: at the bound 4 + 1, not over it
  const std::string zombie = PlantZombie();
  TablePassReport r = RunTablePass(*catalog_, target, light);
  EXPECT_TRUE(r.errors.empty()) << r.ToJson().dump();
  EXPECT_EQ(r.snapshots_expired, 0u);
  ASSERT_TRUE(r.after && r.after->metadata_bytes);
  EXPECT_EQ(*r.after->metadata_bytes, static_cast<std::int64_t>(fs::file_size(LocalPath(Load().metadata_location))));
  AppendFiles(1);
  r = RunTablePass(*catalog_, target, light);
  EXPECT_TRUE(r.errors.empty()) << r.ToJson().dump();
  EXPECT_EQ(r.snapshots_expired, 2u);
  ASSERT_TRUE(r.after);
  EXPECT_EQ(r.after->snapshots, 4u);
  EXPECT_EQ(Load().metadata.snapshots.size(), 4u);
  EXPECT_TRUE(fs::exists(zombie));  // orphans wait for the full pass
  EXPECT_EQ(Ids(), Range(next_));
}

TEST_F(TablePass, CompactsExpiresAndRemovesOrphansKeepingRowsAndOffsets) {
  AppendFiles(6);
  const std::string zombie = PlantZombie();
  const std::string young = LocalPath(WriteFile(2'000'000, 5)->file_path);  // may be in flight: kept
  std::this_thread::sleep_for(std::chrono::milliseconds(5));  // past the 1 ms retention

  const TablePassReport r = RunTablePass(*catalog_, Target());
  EXPECT_TRUE(r.errors.empty()) << r.ToJson().dump();
  ASSERT_TRUE(r.before && r.after);
  EXPECT_EQ(r.before->data_files, 6u);
  EXPECT_EQ(r.before->small_files, 6u);
  EXPECT_TRUE(r.compacted);
  EXPECT_EQ(r.files_rewritten, 6u);
  EXPECT_EQ(r.files_added, 1u);
  EXPECT_GT(r.bytes_rewritten, 0);
  EXPECT_EQ(r.after->data_files, 1u);
  EXPECT_GE(r.snapshots_expired, 1u);
  EXPECT_EQ(r.after->snapshots, 2u);  // min_snapshots: the replace and its parent
  EXPECT_EQ(r.orphans_removed, 1u);
  EXPECT_FALSE(fs::exists(zombie));
  EXPECT_TRUE(fs::exists(young));

  EXPECT_EQ(Ids(), Range(60));
  const catalog::LoadedTable loaded = Load();
  const auto* current = loaded.metadata.CurrentSnapshot();
  ASSERT_NE(current, nullptr);
  EXPECT_EQ(current->SummaryValue("floe.offsets").value_or(""), R"({"t":{"0":60}})");
  EXPECT_EQ(Ids(current->parent_snapshot_id), Range(60));  // time travel to the retained parent
  ExpectReferencedFilesExist();
}

TEST_F(TablePass, DryRunPlansEveryStepAndChangesNothing) {
  AppendFiles(5);
  const std::string zombie = PlantZombie();
  std::this_thread::sleep_for(std::chrono::milliseconds(5));
  const std::string metadata = Load().metadata_location;
  const auto files = FilesOnDisk();

  PassOptions options;
  options.dry_run = true;
  const TablePassReport r = RunTablePass(*catalog_, Target(), options);
  EXPECT_TRUE(r.errors.empty()) << r.ToJson().dump();
  EXPECT_TRUE(r.dry_run);
  EXPECT_FALSE(r.compacted);
  EXPECT_EQ(r.files_rewritten, 5u);
  EXPECT_GE(r.snapshots_expired, 1u);
  EXPECT_EQ(r.orphans_removed, 1u);
  EXPECT_FALSE(r.after.has_value());
  EXPECT_EQ(Load().metadata_location, metadata);
  EXPECT_EQ(FilesOnDisk(), files);
  EXPECT_TRUE(fs::exists(zombie));
  EXPECT_EQ(r.ToJson()["orphans"]["removed"], 1);
}

TEST_F(TablePass, FewerSmallFilesThanMinFilesAreLeftAlone) {
  AppendFiles(3);
  const TablePassReport r = RunTablePass(*catalog_, Target());
  EXPECT_TRUE(r.errors.empty()) << r.ToJson().dump();
  EXPECT_FALSE(r.compacted);
  EXPECT_EQ(r.files_rewritten, 0u);
  ASSERT_FALSE(r.notes.empty());
  EXPECT_NE(r.notes.front().find("3 small files, fewer than min_files 4"), std::string::npos) << r.notes.front();
  EXPECT_EQ(r.after->data_files, 3u);
}

TEST_F(TablePass, ATableThatDoesNotExistYetIsLeftAlone) {
  MaintenanceTarget t = Target();
  t.id = {{"lake"}, "not_yet"};
  const TablePassReport r = RunTablePass(*catalog_, t);
  EXPECT_TRUE(r.errors.empty()) << r.ToJson().dump();
  EXPECT_FALSE(r.before.has_value());
  ASSERT_EQ(r.notes.size(), 1u);
  EXPECT_EQ(r.notes[0], "the table does not exist yet");
}

TEST_F(TablePass, AStopRequestEndsThePassBeforeTheNextStep) {
  AppendFiles(5);
  int steps = 0;
  PassOptions options;
  options.stop_requested = [&] { return steps >= 2; };  // after inspect and compaction
  std::vector<StepCost> costs;
  options.after_step = [&](const StepCost& cost) {
    ++steps;
    costs.push_back(cost);
  };
  const TablePassReport r = RunTablePass(*catalog_, Target(), options);
  ASSERT_EQ(costs.size(), 2u);
  // The compaction's work is on this thread (Arrow's pool is not used): its CPU time is counted.
  EXPECT_GT(costs[1].cpu.count(), 0);
  EXPECT_LE(costs[1].cpu, costs[1].wall + std::chrono::milliseconds(20));
  EXPECT_TRUE(r.stopped);
  EXPECT_TRUE(r.compacted);
  EXPECT_EQ(r.snapshots_expired, 0u);
  EXPECT_EQ(steps, 2);
}

TEST_F(TablePass, SchedulerPassesEveryIntervalAndReportsStatusAndMetrics) {
  AppendFiles(5);
  MetricsRegistry metrics;
  SchedulerOptions options;
  options.cpu_share = 1.0;
  options.first_delay = std::chrono::milliseconds(0);
  MaintenanceTarget target = Target();
  target.settings.interval = std::chrono::milliseconds(1000);
  options.targets = [&] { return std::vector<MaintenanceTarget>{target}; };
  MaintenanceScheduler scheduler(*catalog_, metrics, options);
  scheduler.Start();
  const nlohmann::json table =
      WaitForTable(scheduler, [](const nlohmann::json& t) { return t["totals"]["passes"].get<int>() >= 2; });
  const auto stop_started = std::chrono::steady_clock::now();
  scheduler.Stop();
  EXPECT_LT(std::chrono::steady_clock::now() - stop_started, std::chrono::seconds(5));
  ASSERT_FALSE(table.is_null()) << scheduler.StatusReport().dump();
  EXPECT_EQ(table["table"], "lake.events");
  EXPECT_EQ(table["formats"], nlohmann::json::array({"iceberg"}));
  EXPECT_EQ(table["totals"]["compactions"], 1);  // the second pass found nothing to merge
  EXPECT_EQ(table["totals"]["files_rewritten"], 5);
  EXPECT_EQ(table["data_files"], 1);
  EXPECT_TRUE(table["last_compaction"].is_string());
  EXPECT_TRUE(table["last_error"].is_null());
  const std::string scrape = metrics.RenderPrometheus();
  EXPECT_NE(scrape.find(R"(floe_compactions_total{table="lake.events"} 1)"), std::string::npos) << scrape;
  EXPECT_NE(scrape.find(R"(floe_table_data_files{table="lake.events"} 1)"), std::string::npos) << scrape;
  EXPECT_NE(scrape.find(R"(floe_compaction_files_rewritten_total{table="lake.events"} 5)"), std::string::npos);
  EXPECT_EQ(Ids(), Range(50));
}

// Between full passes (an hour apart here), min_files committed files bring a compaction-only
// pass: compaction follows 1 s commits while expiry and orphan removal keep to the interval.
TEST_F(TablePass, SchedulerCompactsBetweenPassesOnceMinFilesWereCommitted) {
  AppendFiles(4);
  MetricsRegistry metrics;
  SchedulerOptions options;
  options.cpu_share = 1.0;
  options.first_delay = std::chrono::hours(1);
  MaintenanceTarget target = Target();  // min_files 4
  target.settings.interval = std::chrono::hours(1);
  std::atomic<std::int64_t> committed{3};
  options.targets = [&] {
    MaintenanceTarget t = target;
    t.files_committed = committed.load();
    return std::vector<MaintenanceTarget>{t};
  };
  MaintenanceScheduler scheduler(*catalog_, metrics, options);
  scheduler.Start();
  std::this_thread::sleep_for(std::chrono::milliseconds(2500));  // past a recheck: 3 < min_files
  EXPECT_EQ(scheduler.StatusReport()["tables"][0]["totals"]["passes"], 0);
  committed = 4;
  const nlohmann::json table =
      WaitForTable(scheduler, [](const nlohmann::json& t) { return t["totals"]["compactions"].get<int>() >= 1; });
  scheduler.Stop();
  ASSERT_FALSE(table.is_null()) << scheduler.StatusReport().dump();
  EXPECT_EQ(table["totals"]["passes"], 1);
  EXPECT_EQ(table["totals"]["files_rewritten"], 4);
  EXPECT_EQ(table["totals"]["snapshots_expired"], 0);  // no full pass: expiry waits for the interval
  EXPECT_TRUE(table["last_pass"]["light"].get<bool>());
  EXPECT_EQ(table["data_files"], 1);
  EXPECT_EQ(Ids(), Range(40));
}

TEST(MaintenanceTargets, FromTheConfigAndByName) {
  auto config = ParseConfig(R"yaml(kafka: {bootstrap_servers: "localhost:9092"}
warehouse: "file:///tmp/wh"
defaults: {namespace: lake}
topics:
  - {name: Orders.V1, value: json}
  - {name: clicks, value: json, formats: [iceberg, delta], maintenance: {interval: 10s}}
  - {name: audit, value: json, formats: [delta], table: ops.audit}
  - {pattern: "^logs\\.", value: json}
)yaml",
                            "floe.yaml");
  ASSERT_TRUE(config.ok()) << config.status().ToString();
  const auto targets = TargetsFor(*config, {{"logs.app", 7}, {"clicks", 3}, {"logs.db"}});
  ASSERT_EQ(targets.size(), 5u);
  EXPECT_EQ(targets[0].files_committed, 0);
  EXPECT_EQ(targets[1].files_committed, 3);  // a named entry's topic
  EXPECT_EQ(targets[3].files_committed, 7);
  EXPECT_EQ(targets[0].table_name, "lake.orders_v1");
  EXPECT_TRUE(targets[0].iceberg && !targets[0].delta);
  EXPECT_EQ(targets[1].table_name, "lake.clicks");
  EXPECT_TRUE(targets[1].iceberg && targets[1].delta);
  EXPECT_EQ(targets[1].settings.interval, std::chrono::seconds(10));
  EXPECT_EQ(targets[2].table_name, "ops.audit");
  EXPECT_EQ(targets[2].delta_location, "file:///tmp/wh/ops/audit");
  EXPECT_EQ(targets[3].table_name, "lake.logs_app");  // pattern entries: the topics met
  EXPECT_EQ(targets[4].table_name, "lake.logs_db");

  EXPECT_EQ(TargetNamed(*config, "Orders.V1")->table_name, "lake.orders_v1");  // a topic
  EXPECT_EQ(TargetNamed(*config, "lake.clicks")->table_name, "lake.clicks");   // a table
  EXPECT_EQ(TargetNamed(*config, "orders_v1")->table_name, "lake.orders_v1");  // bare, in the namespace
  EXPECT_EQ(TargetNamed(*config, "logs.web")->table_name, "lake.logs_web");    // a pattern's topic
  auto unknown = TargetNamed(*config, "nosuch");
  ASSERT_FALSE(unknown.ok());
  EXPECT_EQ(unknown.status().code(), StatusCode::kNotFound);
  EXPECT_NE(unknown.status().message().find("lake.orders_v1, lake.clicks, ops.audit"), std::string::npos)
      << unknown.status().message();
}

}  // namespace
}  // namespace floe::maintenance
