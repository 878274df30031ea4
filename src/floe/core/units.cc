#include "floe/core/units.h"

#include <charconv>
#include <limits>
#include <string>
#include <utility>

namespace floe {
namespace {

struct NumberAndUnit {
  std::int64_t number;
  std::string_view unit;
};

Result<NumberAndUnit> SplitNumber(std::string_view text, std::string_view what) {
  std::int64_t n = 0;
  auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), n);
  if (ec == std::errc::result_out_of_range) {
    return Status::InvalidArgument("'" + std::string(text) + "' is too large for a " + std::string(what));
  }
  if (ec != std::errc() || n < 0) {
    return Status::InvalidArgument("'" + std::string(text) + "' is not a " + std::string(what) +
                                   ": expected a non-negative whole number followed by a unit");
  }
  return NumberAndUnit{n, text.substr(static_cast<std::size_t>(end - text.data()))};
}

Result<std::int64_t> Scale(std::int64_t n, std::int64_t factor, std::string_view text) {
  if (n > std::numeric_limits<std::int64_t>::max() / factor) {
    return Status::InvalidArgument("'" + std::string(text) + "' is too large");
  }
  return n * factor;
}

}  // namespace

Result<std::chrono::milliseconds> ParseDuration(std::string_view text) {
  FLOE_ASSIGN_OR_RETURN(auto parts, SplitNumber(text, "duration"));
  static constexpr std::pair<std::string_view, std::int64_t> kUnits[] = {
      {"ms", 1}, {"s", 1000}, {"m", 60'000}, {"h", 3'600'000}, {"d", 86'400'000}};
  for (const auto& [unit, factor] : kUnits) {
    if (parts.unit == unit) {
      FLOE_ASSIGN_OR_RETURN(auto ms, Scale(parts.number, factor, text));
      return std::chrono::milliseconds(ms);
    }
  }
  return Status::InvalidArgument("'" + std::string(text) +
                                 "' is not a duration: use a unit of ms, s, m, h or d (e.g. 10s)");
}

Result<std::int64_t> ParseByteSize(std::string_view text) {
  FLOE_ASSIGN_OR_RETURN(auto parts, SplitNumber(text, "size"));
  static constexpr std::pair<std::string_view, std::int64_t> kUnits[] = {
      {"", 1},           {"B", 1},
      {"KB", 1000},      {"MB", 1000 * 1000},    {"GB", 1000LL * 1000 * 1000},
      {"KiB", 1LL << 10}, {"MiB", 1LL << 20},    {"GiB", 1LL << 30}};
  for (const auto& [unit, factor] : kUnits) {
    if (parts.unit == unit) return Scale(parts.number, factor, text);
  }
  return Status::InvalidArgument("'" + std::string(text) +
                                 "' is not a size: use B, KB, MB, GB, KiB, MiB or GiB (e.g. 128MiB)");
}

}  // namespace floe
