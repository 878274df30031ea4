#include "floe/delta/table_properties.h"

#include <charconv>
#include <optional>
#include <sstream>
#include <utility>
#include <vector>

#include "floe/core/ascii.h"

namespace floe::delta {
namespace {

// Milliseconds per unit, the plural "s" optional (Spark writes "30 days", delta-rs also "1 day").
std::optional<double> UnitMs(std::string unit) {
  if (unit.size() > 1 && unit.back() == 's') unit.pop_back();
  static const std::pair<const char*, double> kUnits[] = {
      {"week", 7.0 * 24 * 3600 * 1000}, {"day", 24.0 * 3600 * 1000}, {"hour", 3600.0 * 1000},
      {"minute", 60.0 * 1000},          {"second", 1000.0},          {"millisecond", 1.0},
      {"microsecond", 0.001}};
  for (const auto& [name, ms] : kUnits) {
    if (unit == name) return ms;
  }
  return std::nullopt;
}

}  // namespace

Result<std::chrono::milliseconds> ParseInterval(const std::string& text) {
  std::istringstream in(AsciiLower(text));
  std::vector<std::string> words;
  for (std::string w; in >> w;) words.push_back(std::move(w));
  if (!words.empty() && words.front() == "interval") words.erase(words.begin());
  auto bad = [&] {
    return Status::InvalidArgument("'" + text + "' is not an interval such as 'interval 7 days' (units: weeks, days, "
                                   "hours, minutes, seconds, milliseconds, microseconds)");
  };
  if (words.size() != 2) return bad();
  std::int64_t n = 0;
  const auto& digits = words[0];
  auto [end, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), n);
  if (ec != std::errc() || end != digits.data() + digits.size() || n < 0) return bad();
  const auto unit = UnitMs(words[1]);
  if (!unit) return bad();
  return std::chrono::milliseconds(static_cast<std::int64_t>(static_cast<double>(n) * *unit));
}

Result<std::chrono::milliseconds> RetentionProperty(const std::map<std::string, std::string>& configuration,
                                                    const std::string& key, std::chrono::milliseconds fallback) {
  const auto it = configuration.find(key);
  if (it == configuration.end()) return fallback;
  auto parsed = ParseInterval(it->second);
  if (!parsed.ok()) return parsed.status().WithContext("table property " + key);
  return parsed;
}

Result<std::chrono::milliseconds> TombstoneExpiry(const std::map<std::string, std::string>& configuration) {
  FLOE_ASSIGN_OR_RETURN(auto window, RetentionProperty(configuration, kDeletedFileRetentionKey,
                                                       kDefaultDeletedFileRetention));
  return window + kTombstoneMargin;
}

}  // namespace floe::delta
