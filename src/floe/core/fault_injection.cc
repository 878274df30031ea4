#include "floe/core/fault_injection.h"

#include <cstdlib>
#include <set>
#include <string>

namespace floe {

namespace {

std::set<std::string, std::less<>> ArmedPoints() {
  std::set<std::string, std::less<>> armed;
  const char* env = std::getenv("FLOE_FAULT_POINTS");
  if (env == nullptr) return armed;
  std::string_view rest(env);
  while (!rest.empty()) {
    const auto comma = rest.find(',');
    armed.emplace(rest.substr(0, comma));
    rest = comma == std::string_view::npos ? std::string_view() : rest.substr(comma + 1);
  }
  return armed;
}

}  // namespace

bool FaultPointArmed(std::string_view point) {
  static const auto armed = ArmedPoints();
  return !armed.empty() && armed.count(point) > 0;
}

void CrashIfArmed(std::string_view point) {
  if (FaultPointArmed(point)) std::_Exit(137);
}

}  // namespace floe
