#pragma once
// The maintenance thread `floe run` starts beside the pipeline (docs/maintenance.md): its own
// catalog connection, the config's tables plus those of the topics the pipeline has met.
#include <memory>

#include <nlohmann/json.hpp>

#include "floe/catalog/iceberg_catalog.h"
#include "floe/core/config.h"
#include "floe/core/metrics.h"
#include "floe/maintenance/scheduler.h"
#include "floe/pipeline/materializer.h"

namespace floe::cli {

class BackgroundMaintenance {
 public:
  // Null when no topic entry has maintenance enabled. The thread is running on return.
  static Result<std::unique_ptr<BackgroundMaintenance>> Start(const FloeConfig& config,
                                                               const pipeline::Materializer& materializer,
                                                               MetricsRegistry& metrics);
  ~BackgroundMaintenance();  // stops the thread (a running step finishes first)

  nlohmann::json StatusReport() const { return scheduler_->StatusReport(); }

 private:
  BackgroundMaintenance() = default;
  std::unique_ptr<catalog::TableCatalog> catalog_;  // outlives scheduler_, which uses it
  std::unique_ptr<maintenance::MaintenanceScheduler> scheduler_;
};

}  // namespace floe::cli
