#include "console_setup.h"

#include <chrono>
#include <mutex>

#include "floe/catalog/iceberg_catalog.h"
#include "floe/server/console_routes.h"
#include "floe/server/status_history.h"
#include "floe/sink/table_description.h"

namespace floe::cli {
namespace {

using namespace std::chrono_literals;

// One sample every 5 s for an hour: 720 points, a few hundred KiB at most.
constexpr auto kSampleInterval = 5s;
constexpr std::size_t kSamples = 3600 / 5;

double UnixSeconds() {
  return std::chrono::duration<double>(std::chrono::system_clock::now().time_since_epoch()).count();
}

class ConsoleImpl final : public Console {
 public:
  ConsoleImpl(const FloeConfig& config, std::function<nlohmann::json()> status)
      : config_(config),
        history_(kSamples, kSampleInterval),
        sampler_(kSampleInterval, [this, status = std::move(status)] { history_.Record(UnixSeconds(), status()); }) {}

  const server::StatusHistory& history() const { return history_; }

  Result<nlohmann::json> Describe(const std::string& table) {
    // Table pages are rare and slow enough (manifests are read); one at a time is plenty.
    std::lock_guard lock(mu_);
    if (!catalog_) {
      FLOE_ASSIGN_OR_RETURN(catalog_, catalog::OpenTableCatalog(config_));
    }
    return sink::DescribeTable(config_, *catalog_, table);
  }

 private:
  const FloeConfig& config_;
  server::StatusHistory history_;
  std::mutex mu_;
  std::unique_ptr<catalog::TableCatalog> catalog_;
  server::PeriodicSampler sampler_;  // last: stops before what it writes goes
};

}  // namespace

std::unique_ptr<Console> AddConsole(server::HttpServer& server, const FloeConfig& config,
                                    std::function<nlohmann::json()> status) {
  auto console = std::make_unique<ConsoleImpl>(config, std::move(status));
  server::ConsoleHandlers handlers;
  handlers.history = &console->history();
  handlers.list_tables = [&config]() -> Result<nlohmann::json> { return sink::ListConfiguredTables(config); };
  handlers.describe_table = [c = console.get()](const std::string& table) { return c->Describe(table); };
  server::AddConsoleRoutes(server, std::move(handlers));
  return console;
}

}  // namespace floe::cli
