#include "floe/core/logging.h"

#include <spdlog/sinks/stdout_color_sinks.h>
#include <spdlog/spdlog.h>

#include <string>

namespace floe {

Status InitLogging(std::string_view level) {
  const auto parsed = spdlog::level::from_str(std::string(level));
  // from_str maps unknown names to "off"; only accept that when it was asked for.
  if (parsed == spdlog::level::off && level != "off") {
    return Status::InvalidArgument("unknown log level '" + std::string(level) +
                                   "': use trace, debug, info, warn, error or off");
  }
  auto logger = spdlog::stderr_color_mt("floe");
  logger->set_pattern("%Y-%m-%dT%H:%M:%S.%e %^%l%$ %v");
  logger->set_level(parsed);
  spdlog::set_default_logger(logger);
  return Status::OK();
}

}  // namespace floe
