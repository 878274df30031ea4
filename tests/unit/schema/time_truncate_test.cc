// year/month/day/hour and truncate, including pre-1970 and negative values, against the
// values pyiceberg computes (pyiceberg_goldens.py).
#include <gtest/gtest.h>

#include <cstdint>
#include <string>

#include "floe/schema/partition.h"

namespace floe::schema {
namespace {

TEST(TransformTime, YearsAndMonthsFromDates) {
  // {days since epoch, years, months}
  const std::int32_t cases[][3] = {
      {0, 0, 0},        {1, 0, 0},           {-1, -1, -1},       {-365, -1, -12},
      {-366, -2, -13},  {17486, 47, 574},    {-719162, -1969, -23628},  // 0001-01-01
      {2932896, 8029, 96359},  // 9999-12-31
      {31, 0, 1},       {59, 0, 2},          {-1000, -3, -33},
  };
  for (const auto& c : cases) {
    EXPECT_EQ(YearsFromEpochDays(c[0]), c[1]) << c[0];
    EXPECT_EQ(MonthsFromEpochDays(c[0]), c[2]) << c[0];
  }
  // Leap days: 2000-02-29 is day 11016, 2000-03-01 is 11017; 1900 was not a leap year.
  EXPECT_EQ(MonthsFromEpochDays(11016), 30 * 12 + 1);
  EXPECT_EQ(MonthsFromEpochDays(11017), 30 * 12 + 2);
  EXPECT_EQ(MonthsFromEpochDays(-25509), -70 * 12 + 1);  // 1900-02-28
  EXPECT_EQ(MonthsFromEpochDays(-25508), -70 * 12 + 2);  // 1900-03-01 (no 02-29 in 1900)
  // No overflow or undefined behaviour at the ends of the int32 range.
  EXPECT_GT(YearsFromEpochDays(INT32_MAX), 5'000'000);
  EXPECT_LT(YearsFromEpochDays(INT32_MIN), -5'000'000);
  EXPECT_GT(MonthsFromEpochDays(INT32_MAX), 60'000'000);
}

TEST(TransformTime, DaysHoursYearsMonthsFromMicrosFloorBefore1970) {
  // {micros, day, hour, year, month}
  const std::int64_t cases[][5] = {
      {0, 0, 0, 0, 0},
      {1, 0, 0, 0, 0},
      {-1, -1, -1, -1, -1},
      {86399999999, 0, 23, 0, 0},
      {86400000000, 1, 24, 0, 0},
      {-86400000000, -1, -24, -1, -1},
      {-86400000001, -2, -25, -1, -1},
      {1510871468000000, 17486, 419686, 47, 574},
      {-1510871468000000, -17487, -419687, -48, -575},
      {3599999999, 0, 0, 0, 0},
      {-3600000000, -1, -1, -1, -1},
      {-3600000001, -1, -2, -1, -1},
  };
  for (const auto& c : cases) {
    EXPECT_EQ(DaysFromMicros(c[0]), c[1]) << c[0];
    EXPECT_EQ(HoursFromMicros(c[0]), c[2]) << c[0];
    EXPECT_EQ(YearsFromEpochDays(DaysFromMicros(c[0])), c[3]) << c[0];
    EXPECT_EQ(MonthsFromEpochDays(DaysFromMicros(c[0])), c[4]) << c[0];
  }
  EXPECT_EQ(DaysFromMicros(INT64_MIN), -106751992);
  EXPECT_EQ(DaysFromMicros(INT64_MAX), 106751991);
}

TEST(TransformTime, NanosBecomeMicrosByFloor) {
  EXPECT_EQ(MicrosFromNanos(0), 0);
  EXPECT_EQ(MicrosFromNanos(999), 0);
  EXPECT_EQ(MicrosFromNanos(1000), 1);
  EXPECT_EQ(MicrosFromNanos(-1), -1);
  EXPECT_EQ(MicrosFromNanos(-1000), -1);
  EXPECT_EQ(MicrosFromNanos(-1001), -2);
  EXPECT_EQ(DaysFromMicros(MicrosFromNanos(-1)), -1);
}

TEST(TransformTruncate, IntegersRoundDownToMultiplesOfTheWidth) {
  // {value, truncate[1], truncate[3], truncate[10]}
  const std::int64_t cases[][4] = {
      {0, 0, 0, 0},     {1, 1, 0, 0},     {5, 5, 3, 0},       {9, 9, 9, 0},
      {10, 10, 9, 10},  {11, 11, 9, 10},  {-1, -1, -3, -10},  {-5, -5, -6, -10},
      {-9, -9, -9, -10}, {-10, -10, -12, -10}, {-11, -11, -12, -20},
      {2147483647, 2147483647, 2147483646, 2147483640},
  };
  for (const auto& c : cases) {
    EXPECT_EQ(TruncateInteger(c[0], 1), c[1]) << c[0];
    EXPECT_EQ(TruncateInteger(c[0], 3), c[2]) << c[0];
    EXPECT_EQ(TruncateInteger(c[0], 10), c[3]) << c[0];
  }
  EXPECT_EQ(TruncateInteger(INT64_MAX, 10), INT64_MAX - 7);
  // Below INT64_MIN the exact result does not exist; the call wraps (as Java's long
  // arithmetic does) instead of being undefined behaviour.
  (void)TruncateInteger(INT64_MIN, 10);
}

std::string Hex(std::string_view hex) {
  std::string out;
  for (std::size_t i = 0; i + 1 < hex.size(); i += 2) {
    out.push_back(static_cast<char>(std::stoi(std::string(hex.substr(i, 2)), nullptr, 16)));
  }
  return out;
}

std::string Bytes(std::initializer_list<int> bytes) {
  std::string out;
  for (int b : bytes) out.push_back(static_cast<char>(b));
  return out;
}

TEST(TransformTruncate, DecimalsTruncateTheUnscaledValue) {
  // truncate[10] on decimal(9,2): {unscaled in, unscaled out} from pyiceberg's values
  // (12.34 -> 12.30, -0.05 -> -0.10, ...).
  const std::pair<int, int> cases[] = {{1234, 1230}, {1230, 1230}, {1229, 1220}, {5, 0},
                                       {-5, -10},    {-1234, -1240}, {-1, -10}};
  auto be = [](int v) {  // minimal big-endian two's complement of a small int
    std::string out = Bytes({(v >> 24) & 0xff, (v >> 16) & 0xff, (v >> 8) & 0xff, v & 0xff});
    return MinimalDecimalBytes(out);
  };
  for (const auto& [in, out] : cases) {
    Result<std::string> t = TruncateDecimal(be(in), 10);
    ASSERT_TRUE(t.ok()) << t.status().ToString();
    EXPECT_EQ(*t, be(out)) << in;
  }
  // 16-byte values (values in hex computed with Python's integers): 10^37 truncate[7] is
  // 10^37 - 3, and -10^37 - 1 truncate[7] is -10^37 - 4.
  EXPECT_EQ(*TruncateDecimal(Hex("0785ee10d5da46d900f436a000000000"), 7), Hex("0785ee10d5da46d900f4369ffffffffd"));
  EXPECT_EQ(*TruncateDecimal(Hex("f87a11ef2a25b926ff0bc95fffffffff"), 7), Hex("f87a11ef2a25b926ff0bc95ffffffffc"));
  EXPECT_FALSE(TruncateDecimal(std::string(17, '\x01'), 10).ok());
  EXPECT_FALSE(TruncateDecimal(be(5), 0).ok());
  EXPECT_TRUE(TruncateDecimal(std::string(20, '\xff'), 10).ok()) << "-1 with redundant sign bytes";
}

TEST(TransformTruncate, StringsKeepWholeCodePoints) {
  EXPECT_EQ(TruncateUtf8("", 3), "");
  EXPECT_EQ(TruncateUtf8("ab", 3), "ab");
  EXPECT_EQ(TruncateUtf8("abc", 3), "abc");
  EXPECT_EQ(TruncateUtf8("abcd", 3), "abc");
  EXPECT_EQ(TruncateUtf8("\xc3\xbcn\xc3\xaf\x63\xc3\xb8\x64\xc3\xa9", 3), "\xc3\xbcn\xc3\xaf");  // "ünïcødé" -> "ünï"
  // 4-byte code points (emoji): 3 of them, 12 bytes, never a split sequence.
  EXPECT_EQ(TruncateUtf8("\xF0\x9F\x98\x80\xF0\x9F\x98\x81\xF0\x9F\x98\x82\xF0\x9F\x98\x83", 3),
            "\xF0\x9F\x98\x80\xF0\x9F\x98\x81\xF0\x9F\x98\x82");
  EXPECT_EQ(TruncateUtf8("abc", 0), "");
}

}  // namespace
}  // namespace floe::schema
