#include "floe/maintenance/scheduler.h"

#include <spdlog/spdlog.h>

#include <algorithm>
#include <ctime>

#ifdef __linux__
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>
#endif

#include "floe/maintenance/metadata_growth.h"

namespace floe::maintenance {
namespace {

using Clock = std::chrono::steady_clock;
using WallClock = std::chrono::system_clock;

// A pause never exceeds this, so that a very long step cannot silence maintenance for hours.
constexpr auto kMaxPause = std::chrono::minutes(5);
// New tables (topics floe run meets later) and files committed are noticed at least this often.
constexpr auto kRecheckTargets = std::chrono::seconds(2);
// A light pass that failed (a lost race, storage down) waits this long before the
// next one (or the interval, when shorter); the full pass keeps its own schedule.
constexpr auto kCompactionRetry = std::chrono::seconds(30);

std::string Iso8601(WallClock::time_point t) {
  const std::time_t seconds = WallClock::to_time_t(t);
  std::tm tm{};
  gmtime_r(&seconds, &tm);
  char text[32];
  std::strftime(text, sizeof(text), "%Y-%m-%dT%H:%M:%SZ", &tm);
  return text;
}

// Maintenance yields the CPU to the pipeline: on Linux a thread has its own nice value.
void LowerThreadPriority() {
#ifdef __linux__
  const auto tid = static_cast<id_t>(syscall(SYS_gettid));
  if (setpriority(PRIO_PROCESS, tid, 10) != 0) spdlog::debug("maintenance: could not lower the thread's priority");
#endif
}

nlohmann::json Formats(const MaintenanceTarget& t) {
  nlohmann::json formats = nlohmann::json::array();
  if (t.iceberg) formats.push_back("iceberg");
  if (t.delta) formats.push_back("delta");
  return formats;
}

}  // namespace

struct MaintenanceScheduler::TableMetrics {
  Gauge* data_files;
  Gauge* small_files;
  Gauge* snapshots;
  Gauge* metadata_bytes;
  Gauge* last_compaction;
  Counter* passes;
  Counter* errors;
  Counter* compactions;
  Counter* files_rewritten;
  Counter* bytes_rewritten;
  Counter* snapshots_expired;
  Counter* orphans_removed;
};

struct MaintenanceScheduler::TableState {
  MaintenanceTarget target;
  Clock::time_point next_pass;
  // target.files_committed when the last pass began: compaction is due between passes once
  // compaction.min_files more were committed.
  std::int64_t files_committed_at_pass = 0;
  Clock::time_point no_compaction_before{};  // after a failed light pass
  std::unique_ptr<TableMetrics> metrics;  // set right after the table is first seen
  std::optional<TableShape> shape;
  std::optional<WallClock::time_point> last_pass_at;
  double last_pass_seconds = 0;
  bool last_pass_light = false;
  bool warned_large_metadata = false;
  nlohmann::json last_pass;
  std::optional<WallClock::time_point> last_compaction_at;
  std::int64_t passes = 0, compactions = 0, files_rewritten = 0, bytes_rewritten = 0, snapshots_expired = 0,
               orphans_removed = 0, vacuumed_files = 0;
  nlohmann::json last_error;  // {"time", "step", "message"} or null
};

MaintenanceScheduler::MaintenanceScheduler(catalog::TableCatalog& catalog, MetricsRegistry& metrics,
                                           SchedulerOptions options)
    : catalog_(catalog), metrics_(metrics), options_(std::move(options)) {
  options_.cpu_share = std::clamp(options_.cpu_share, 0.01, 1.0);
}

MaintenanceScheduler::~MaintenanceScheduler() { Stop(); }

void MaintenanceScheduler::Start() {
  if (thread_.joinable()) return;
  stop_ = false;
  thread_ = std::thread([this] { Loop(); });
}

void MaintenanceScheduler::Stop() {
  {
    std::lock_guard lock(mu_);
    stop_ = true;
  }
  wake_.notify_all();
  if (thread_.joinable()) thread_.join();
}

std::unique_ptr<MaintenanceScheduler::TableMetrics> MaintenanceScheduler::MetricsFor(const std::string& table) {
  const Labels labels = {{"table", table}};
  auto m = std::make_unique<TableMetrics>();
  m->data_files = &metrics_.GetGauge("floe_table_data_files", "Live data files of the table", labels);
  m->small_files = &metrics_.GetGauge("floe_table_small_files",
                                      "Live data files smaller than the compaction target_file_size", labels);
  m->snapshots = &metrics_.GetGauge("floe_table_snapshots", "Snapshots in the Iceberg table's metadata", labels);
  m->metadata_bytes = &metrics_.GetGauge("floe_table_metadata_bytes",
                                         "Size of the Iceberg table's current metadata file", labels);
  m->last_compaction = &metrics_.GetGauge("floe_last_compaction_timestamp_seconds",
                                          "Unix time of the table's last committed compaction", labels);
  m->passes = &metrics_.GetCounter("floe_maintenance_passes_total", "Maintenance passes over the table", labels);
  m->errors = &metrics_.GetCounter("floe_maintenance_errors_total",
                                   "Maintenance steps that failed (retried at the next pass; /status has the last)",
                                   labels);
  m->compactions = &metrics_.GetCounter("floe_compactions_total", "Compactions committed", labels);
  m->files_rewritten =
      &metrics_.GetCounter("floe_compaction_files_rewritten_total", "Small data files replaced by compaction", labels);
  m->bytes_rewritten =
      &metrics_.GetCounter("floe_compaction_bytes_rewritten_total", "Bytes of small data files compaction replaced", labels);
  m->snapshots_expired = &metrics_.GetCounter("floe_snapshots_expired_total", "Snapshots removed by expiry", labels);
  m->orphans_removed = &metrics_.GetCounter("floe_orphan_files_removed_total",
                                            "Unreferenced files removed by the orphan pass", labels);
  return m;
}

void MaintenanceScheduler::Loop() {
  LowerThreadPriority();
  while (!stop_) {
    const auto targets = options_.targets ? options_.targets() : std::vector<MaintenanceTarget>{};
    const auto now = Clock::now();
    std::optional<MaintenanceTarget> due;
    bool light = false;
    Clock::time_point wake_at = now + kRecheckTargets;
    std::vector<std::string> fresh;
    {
      std::lock_guard lock(mu_);
      Clock::time_point due_at = Clock::time_point::max();
      std::optional<MaintenanceTarget> light_due;
      for (const auto& target : targets) {
        auto& state = tables_[target.table_name];
        if (!state) {
          state = std::make_unique<TableState>();
          state->next_pass = now + std::min<Clock::duration>(options_.first_delay, target.settings.interval);
          fresh.push_back(target.table_name);
        }
        state->target = target;  // settings may differ per topic entry, formats never change
        if (!target.settings.enabled) continue;
        if (state->next_pass <= now && state->next_pass < due_at) {
          due_at = state->next_pass;
          due = target;
        }
        wake_at = std::min(wake_at, state->next_pass);
        // Also with compaction disabled: the light pass keeps the snapshot count bounded.
        if (!light_due && state->no_compaction_before <= now &&
            target.files_committed - state->files_committed_at_pass >= target.settings.compaction.min_files) {
          light_due = target;
        }
      }
      if (!due && light_due) {
        due = std::move(light_due);
        light = true;
      }
    }
    for (const auto& table : fresh) {
      auto m = MetricsFor(table);  // outside mu_: the registry has its own lock
      std::lock_guard lock(mu_);
      tables_.at(table)->metrics = std::move(m);
    }
    if (due) {
      RunPass(*due, light);
      continue;
    }
    std::unique_lock lock(mu_);
    wake_.wait_until(lock, wake_at, [this] { return stop_.load(); });
  }
}

void MaintenanceScheduler::Pause(const StepCost& cost) {
  auto pause = std::chrono::duration_cast<Clock::duration>(cost.cpu / options_.cpu_share) - cost.wall;
  pause = std::min<Clock::duration>(pause, kMaxPause);
  if (pause <= Clock::duration::zero()) return;
  std::unique_lock lock(mu_);
  wake_.wait_for(lock, pause, [this] { return stop_.load(); });
}

void MaintenanceScheduler::RunPass(const MaintenanceTarget& target, bool light) {
  {
    std::lock_guard lock(mu_);
    tables_.at(target.table_name)->files_committed_at_pass = target.files_committed;
  }
  PassOptions options;
  options.light = light;
  options.stop_requested = [this] { return stop_.load(); };
  options.after_step = [this](const StepCost& cost) { Pause(cost); };
  const auto started = Clock::now();
  const TablePassReport report = RunTablePass(catalog_, target, options);
  const double seconds = std::chrono::duration<double>(Clock::now() - started).count();
  for (const auto& e : report.errors) {
    spdlog::warn("maintenance {}: {} failed: {}", target.table_name, e.step, e.message);
  }
  if (report.compacted || report.snapshots_expired > 0 || report.orphans_removed > 0 || report.vacuumed_files > 0 ||
      report.manifests_replaced > 0 || report.delta_log_files_deleted > 0) {
    spdlog::info(
        "maintenance {}: compacted {} files into {} ({} bytes), merged {} manifests into {}, expired {} snapshots ({} "
        "files), removed {} orphan files, vacuumed {} files, deleted {} Delta log files in {:.1f}s",
        target.table_name, report.compacted ? report.files_rewritten : 0, report.compacted ? report.files_added : 0,
        report.compacted ? report.bytes_rewritten : 0, report.manifests_replaced, report.manifests_created,
        report.snapshots_expired, report.expired_files_deleted, report.orphans_removed, report.vacuumed_files,
        report.delta_log_files_deleted, seconds);
  }
  Record(target, light, report, seconds);
}

void MaintenanceScheduler::Record(const MaintenanceTarget& target, bool light, const TablePassReport& report,
                                  double seconds) {
  std::lock_guard lock(mu_);
  TableState& state = *tables_.at(target.table_name);
  const auto now = WallClock::now();
  if (!light) {
    // Stopped midway: the pass is not over; the next process (or the next start) does it again.
    state.next_pass =
        Clock::now() + (report.stopped ? Clock::duration::zero() : Clock::duration(target.settings.interval));
  } else if (!report.errors.empty()) {
    state.no_compaction_before =
        Clock::now() + std::min<Clock::duration>(kCompactionRetry, target.settings.interval);
  }
  state.last_pass_at = now;
  state.last_pass_seconds = seconds;
  state.last_pass_light = light;
  state.last_pass = report.ToJson();
  ++state.passes;
  if (const auto& shape = report.after ? report.after : report.before) state.shape = shape;
  // Once per table while it stays large: what floe validate estimated, now measured.
  const bool large = state.shape && state.shape->metadata_bytes && *state.shape->metadata_bytes > kMetadataWarnBytes;
  if (large && !state.warned_large_metadata) {
    spdlog::warn("maintenance {}: the metadata file is {} bytes with {} snapshots; every commit rewrites it and every "
                 "query reads it: lower maintenance.max_snapshots (docs/maintenance.md, \"How large the metadata grows\")",
                 target.table_name, *state.shape->metadata_bytes, state.shape->snapshots.value_or(0));
  }
  state.warned_large_metadata = large;
  if (report.compacted) {
    state.last_compaction_at = now;
    ++state.compactions;
    state.files_rewritten += static_cast<std::int64_t>(report.files_rewritten);
    state.bytes_rewritten += report.bytes_rewritten;
  }
  state.snapshots_expired += static_cast<std::int64_t>(report.snapshots_expired);
  state.orphans_removed += static_cast<std::int64_t>(report.orphans_removed);
  state.vacuumed_files += static_cast<std::int64_t>(report.vacuumed_files);
  if (!report.errors.empty()) {
    state.last_error = {{"time", Iso8601(now)}, {"step", report.errors.front().step},
                        {"message", report.errors.front().message}};
  }
  if (TableMetrics* m = state.metrics.get()) {
    m->passes->Increment();
    m->errors->Increment(static_cast<std::int64_t>(report.errors.size()));
    if (state.shape) {
      m->data_files->Set(static_cast<double>(state.shape->data_files));
      m->small_files->Set(static_cast<double>(state.shape->small_files));
      if (state.shape->snapshots) m->snapshots->Set(static_cast<double>(*state.shape->snapshots));
      if (state.shape->metadata_bytes) m->metadata_bytes->Set(static_cast<double>(*state.shape->metadata_bytes));
    }
    if (report.compacted) {
      m->compactions->Increment();
      m->files_rewritten->Increment(static_cast<std::int64_t>(report.files_rewritten));
      m->bytes_rewritten->Increment(report.bytes_rewritten);
      m->last_compaction->Set(static_cast<double>(WallClock::to_time_t(now)));
    }
    m->snapshots_expired->Increment(static_cast<std::int64_t>(report.snapshots_expired));
    m->orphans_removed->Increment(static_cast<std::int64_t>(report.orphans_removed));
  }
}

nlohmann::json MaintenanceScheduler::StatusReport() const {
  std::lock_guard lock(mu_);
  nlohmann::json tables = nlohmann::json::array();
  const auto now = Clock::now();
  for (const auto& [name, state] : tables_) {
    const MaintenanceConfig& s = state->target.settings;
    nlohmann::json t = {{"table", name},
                        {"formats", Formats(state->target)},
                        {"enabled", s.enabled},
                        {"interval_seconds", std::chrono::duration<double>(s.interval).count()}};
    if (s.enabled) {
      t["next_pass_in_seconds"] =
          std::max(0.0, std::chrono::duration<double>(state->next_pass - now).count());
    }
    if (state->shape) {
      t["data_files"] = state->shape->data_files;
      t["small_files"] = state->shape->small_files;
      t["data_bytes"] = state->shape->data_bytes;
      t["snapshots"] = state->shape->snapshots ? nlohmann::json(*state->shape->snapshots) : nlohmann::json(nullptr);
      t["metadata_bytes"] =
          state->shape->metadata_bytes ? nlohmann::json(*state->shape->metadata_bytes) : nlohmann::json(nullptr);
      t["manifests"] = state->shape->manifests ? nlohmann::json(*state->shape->manifests) : nlohmann::json(nullptr);
    }
    t["last_compaction"] = state->last_compaction_at ? nlohmann::json(Iso8601(*state->last_compaction_at))
                                                     : nlohmann::json(nullptr);
    t["last_pass"] = state->last_pass_at ? nlohmann::json{{"time", Iso8601(*state->last_pass_at)},
                                                          {"duration_seconds", state->last_pass_seconds},
                                                          {"light", state->last_pass_light},
                                                          {"report", state->last_pass}}
                                         : nlohmann::json(nullptr);
    t["totals"] = {{"passes", state->passes},
                   {"compactions", state->compactions},
                   {"files_rewritten", state->files_rewritten},
                   {"bytes_rewritten", state->bytes_rewritten},
                   {"snapshots_expired", state->snapshots_expired},
                   {"orphans_removed", state->orphans_removed},
                   {"vacuumed_files", state->vacuumed_files}};
    t["last_error"] = state->last_error;
    tables.push_back(std::move(t));
  }
  return {{"cpu_share", options_.cpu_share}, {"tables", std::move(tables)}};
}

}  // namespace floe::maintenance
