#include "maintenance_setup.h"

#include <spdlog/spdlog.h>

#include <algorithm>

#include "floe/maintenance/targets.h"

namespace floe::cli {

Result<std::unique_ptr<BackgroundMaintenance>> BackgroundMaintenance::Start(const FloeConfig& config,
                                                                           const pipeline::Materializer& materializer,
                                                                           MetricsRegistry& metrics) {
  const bool any = std::any_of(config.topics.begin(), config.topics.end(),
                               [](const TopicConfig& t) { return t.maintenance.enabled; });
  if (!any) return std::unique_ptr<BackgroundMaintenance>();
  std::unique_ptr<BackgroundMaintenance> m(new BackgroundMaintenance());
  // Its own connection: a pass may hold one for a while, and commits must not queue behind it.
  FLOE_ASSIGN_OR_RETURN(m->catalog_, catalog::OpenTableCatalog(config));
  maintenance::SchedulerOptions options;
  options.cpu_share = config.maintenance.cpu_share;
  // Pattern entries name a table per matching topic: the topics the pipeline has met.
  options.targets = [&config, &materializer] {
    std::vector<maintenance::SeenTopic> topics;
    const nlohmann::json status = materializer.StatusReport();
    if (auto it = status.find("topics"); it != status.end() && it->is_array()) {
      for (const auto& t : *it) {
        if (!t.contains("topic") || !t["topic"].is_string()) continue;
        topics.push_back({t["topic"].get<std::string>(), t.value("files_committed", std::int64_t{0})});
      }
    }
    return maintenance::TargetsFor(config, topics);
  };
  m->scheduler_ = std::make_unique<maintenance::MaintenanceScheduler>(*m->catalog_, metrics, std::move(options));
  m->scheduler_->Start();
  spdlog::info("maintenance: running on its own thread (cpu_share {})", config.maintenance.cpu_share);
  return m;
}

BackgroundMaintenance::~BackgroundMaintenance() {
  if (scheduler_) scheduler_->Stop();
}

}  // namespace floe::cli
