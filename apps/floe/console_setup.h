#pragma once
// The web console beside the admin API (docs/console.md): the history sampler and the routes
// under /ui, wired to this process's status and configured tables.
#include <functional>
#include <memory>

#include <nlohmann/json.hpp>

#include "floe/core/config.h"
#include "floe/server/http_server.h"

namespace floe::cli {

// Owns the sampler thread and what the routes read; destroy it after the server has stopped
// (the routes point into it) and before whatever `status` reads.
class Console {
 public:
  virtual ~Console() = default;
};

// Registers /ui on `server` and starts sampling `status` every 5 s into an hour of history.
// `config` must outlive the returned Console. Table pages read through a catalog of their
// own, opened at the first table request, so the console never shares the pipeline's.
std::unique_ptr<Console> AddConsole(server::HttpServer& server, const FloeConfig& config,
                                    std::function<nlohmann::json()> status);

}  // namespace floe::cli
