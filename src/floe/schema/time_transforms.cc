// year / month / day / hour. All are floor-based: an instant before 1970 belongs to the
// period that contains it (-1 us is in day -1, hour -1 and year -1), never rounded toward
// zero, which would put 1969-12-31T23:59 into 1970's partition.
#include <cstdint>

#include "floe/schema/partition.h"

namespace floe::schema {
namespace {

constexpr std::int64_t kMicrosPerHour = 3'600'000'000LL;
constexpr std::int64_t kMicrosPerDay = 24 * kMicrosPerHour;

std::int64_t FloorDiv(std::int64_t a, std::int64_t b) {
  std::int64_t q = a / b;
  if ((a % b != 0) && ((a < 0) != (b < 0))) --q;
  return q;
}

struct YearMonth {
  std::int64_t year;
  int month;  // 1..12
};

// The proleptic Gregorian year and month of a day count, in 64-bit arithmetic so that every
// int32 day (about +-5.8 million years) works; std::chrono's calendar stops at year 32767.
// Counting from 0000-03-01 puts the leap day at the end of each year, so a 400-year era
// has a fixed 146097 days and months follow the 153-days-per-5-months pattern.
YearMonth CivilYearMonth(std::int32_t days) {
  const std::int64_t z = static_cast<std::int64_t>(days) + 719468;  // days since 0000-03-01
  const std::int64_t era = FloorDiv(z, 146097);
  const std::int64_t day_of_era = z - era * 146097;  // [0, 146096]
  const std::int64_t year_of_era =
      (day_of_era - day_of_era / 1460 + day_of_era / 36524 - day_of_era / 146096) / 365;  // [0, 399]
  const std::int64_t day_of_year = day_of_era - (365 * year_of_era + year_of_era / 4 - year_of_era / 100);
  const std::int64_t march_based_month = (5 * day_of_year + 2) / 153;  // 0 = March
  const int month = static_cast<int>(march_based_month < 10 ? march_based_month + 3 : march_based_month - 9);
  const std::int64_t year = year_of_era + era * 400 + (month <= 2 ? 1 : 0);
  return {year, month};
}

}  // namespace

std::int32_t YearsFromEpochDays(std::int32_t days) {
  return static_cast<std::int32_t>(CivilYearMonth(days).year - 1970);
}

std::int32_t MonthsFromEpochDays(std::int32_t days) {
  const YearMonth ym = CivilYearMonth(days);
  return static_cast<std::int32_t>((ym.year - 1970) * 12 + ym.month - 1);
}

// Days and hours of the int64 micros range fit in int32 (about +-106 million days), so
// the narrowing below is exact; hours beyond +-245,000 years wrap modulo 2^32.
std::int32_t DaysFromMicros(std::int64_t micros) { return static_cast<std::int32_t>(FloorDiv(micros, kMicrosPerDay)); }

std::int32_t HoursFromMicros(std::int64_t micros) {
  return static_cast<std::int32_t>(FloorDiv(micros, kMicrosPerHour));
}

std::int64_t MicrosFromNanos(std::int64_t nanos) { return FloorDiv(nanos, 1000); }

}  // namespace floe::schema
