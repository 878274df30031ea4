#include "floe/delta/value_format_internal.h"

#include <chrono>
#include <cstdio>

namespace floe::delta {
namespace {

std::int64_t FloorDiv(std::int64_t a, std::int64_t b) { return a / b - ((a % b != 0) && ((a < 0) != (b < 0))); }

struct Civil {
  int year;
  unsigned month, day;
};

Civil FromDays(std::int64_t days) {
  const std::chrono::year_month_day ymd{std::chrono::sys_days{std::chrono::days{days}}};
  return {static_cast<int>(ymd.year()), static_cast<unsigned>(ymd.month()), static_cast<unsigned>(ymd.day())};
}

std::string DateText(std::int64_t days) {
  const Civil c = FromDays(days);
  char buf[32];
  std::snprintf(buf, sizeof buf, "%04d-%02u-%02u", c.year, c.month, c.day);
  return buf;
}

}  // namespace

std::string FormatDate(std::int32_t days_since_epoch) { return DateText(days_since_epoch); }

std::string FormatTimestampMillis(std::int64_t millis, bool utc) {
  constexpr std::int64_t kDay = 86'400'000;
  const std::int64_t days = FloorDiv(millis, kDay);
  const std::int64_t in_day = millis - days * kDay;
  char buf[48];
  std::snprintf(buf, sizeof buf, "%sT%02d:%02d:%02d.%03d%s", DateText(days).c_str(), static_cast<int>(in_day / 3'600'000),
                static_cast<int>(in_day / 60'000 % 60), static_cast<int>(in_day / 1000 % 60),
                static_cast<int>(in_day % 1000), utc ? "Z" : "");
  return buf;
}

std::string FormatPartitionTimestamp(std::int64_t micros) {
  constexpr std::int64_t kDay = 86'400'000'000LL;
  const std::int64_t days = FloorDiv(micros, kDay);
  const std::int64_t in_day = micros - days * kDay;
  char buf[48];
  std::snprintf(buf, sizeof buf, "%s %02d:%02d:%02d.%06d", DateText(days).c_str(),
                static_cast<int>(in_day / 3'600'000'000LL), static_cast<int>(in_day / 60'000'000 % 60),
                static_cast<int>(in_day / 1'000'000 % 60), static_cast<int>(in_day % 1'000'000));
  return buf;
}

}  // namespace floe::delta
