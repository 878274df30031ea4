#include <gtest/gtest.h>

#include "floe/json/scalar_parse_internal.h"

namespace floe::json::internal {
namespace {

TEST(JsonScalarParseTest, DateTimes) {
  EXPECT_EQ(ParseDateTimeMicros("1970-01-01T00:00:00Z"), 0);
  EXPECT_EQ(ParseDateTimeMicros("1970-01-01T00:00:00.000001Z"), 1);
  EXPECT_EQ(ParseDateTimeMicros("1970-01-01T00:00:00.0000019Z"), 1);  // finer digits dropped
  EXPECT_EQ(ParseDateTimeMicros("1970-01-01T01:00:00+01:00"), 0);
  EXPECT_EQ(ParseDateTimeMicros("1969-12-31T19:00:00-05:00"), 0);
  EXPECT_EQ(ParseDateTimeMicros("0001-01-01T00:00:00Z"), -62135596800LL * 1000000);
  EXPECT_EQ(ParseDateTimeMicros("9999-12-31T23:59:59.999999Z"), 253402300799999999LL);
  for (const char* bad : {"", "1970-01-01T00:00:00", "1970-01-01T00:00:00ZZ", "1970-01-01X00:00:00Z",
                          "1970-00-01T00:00:00Z", "1970-01-32T00:00:00Z", "1900-02-29T00:00:00Z",
                          "1970-01-01T00:00:00.Z", "1970-01-01T00:00:00+01", "1970-01-01T00:00:00+01:60",
                          "+1970-01-01T00:00:00Z", "1970-01-01T0:00:00Z", "1970-01-01T00:00:00 Z"}) {
    EXPECT_FALSE(ParseDateTimeMicros(bad).has_value()) << bad;
  }
  EXPECT_TRUE(ParseDateTimeMicros("2000-02-29T00:00:00Z").has_value());  // divisible by 400
}

TEST(JsonScalarParseTest, DatesAndTimes) {
  EXPECT_EQ(ParseDateDays("1970-01-02"), 1);
  EXPECT_EQ(ParseDateDays("1969-12-31"), -1);
  EXPECT_FALSE(ParseDateDays("1970-01-02Z").has_value());
  EXPECT_FALSE(ParseDateDays("70-01-02").has_value());
  EXPECT_EQ(ParseTimeMicros("00:00:01.25"), 1250000);
  EXPECT_EQ(ParseTimeMicros("00:30:00+01:00"), 84600000000LL);  // wraps to the previous day's 23:30
  EXPECT_EQ(ParseTimeMicros("23:30:00-01:00"), 1800000000LL);
  EXPECT_FALSE(ParseTimeMicros("24:00:00").has_value());
  EXPECT_FALSE(ParseTimeMicros("12:00:00x").has_value());
}

TEST(JsonScalarParseTest, Base64) {
  EXPECT_EQ(DecodeBase64(""), "");
  EXPECT_EQ(DecodeBase64("Zg=="), "f");
  EXPECT_EQ(DecodeBase64("Zg"), "f");
  EXPECT_EQ(DecodeBase64("Zm8="), "fo");
  EXPECT_EQ(DecodeBase64("Zm9v"), "foo");
  EXPECT_EQ(DecodeBase64("+/+/"), "\xfb\xff\xbf");
  for (const char* bad : {"Z", "Zg=", "Zg===", "Z===", "Zm9v=", "Zh==", "Zm-v", "Zm_v", "Zm 9v", "=Zm9"}) {
    EXPECT_FALSE(DecodeBase64(bad).has_value()) << bad;
  }
}

TEST(JsonScalarParseTest, DecimalsFromDoubles) {
  EXPECT_EQ(DecimalFromDouble(0.1, 5, 2)->ToString(2), "0.10");
  EXPECT_EQ(DecimalFromDouble(-123.45, 5, 2)->ToString(2), "-123.45");
  EXPECT_EQ(DecimalFromDouble(1e20, 38, 0)->ToString(0), "100000000000000000000");
  EXPECT_EQ(DecimalFromDouble(0.0, 1, 0)->ToString(0), "0");
  EXPECT_FALSE(DecimalFromDouble(0.125, 5, 2).ok());
  EXPECT_FALSE(DecimalFromDouble(1000.0, 5, 2).ok());
  EXPECT_FALSE(DecimalFromDouble(0.1 + 0.2, 20, 18).ok());  // 0.30000000000000004: 17 digits
  EXPECT_FALSE(DecimalFromDouble(1e300, 38, 2).ok());
  EXPECT_FALSE(DecimalFromDouble(1e37, 38, 2).ok());
  EXPECT_EQ(DecimalFromDouble(1e35, 38, 2)->ToString(2), "100000000000000000000000000000000000.00");
  EXPECT_EQ(DecimalFromDouble(1e-300, 38, 2).status().code(), StatusCode::kInvalidArgument);
  EXPECT_EQ(DecimalFromDouble(5e-3, 38, 38)->ToString(38), "0.00500000000000000000000000000000000000");
}

TEST(JsonScalarParseTest, DecimalsFromBytes) {
  EXPECT_EQ(DecimalFromBytes(std::string("\x30\x39", 2), 5)->ToIntegerString(), "12345");
  EXPECT_EQ(DecimalFromBytes(std::string("\xff", 1), 1)->ToIntegerString(), "-1");
  EXPECT_FALSE(DecimalFromBytes(std::string("\x30\x39", 2), 4).ok());
  EXPECT_FALSE(DecimalFromBytes("", 4).ok());
  EXPECT_FALSE(DecimalFromBytes(std::string(17, '\x01'), 38).ok());
}

}  // namespace
}  // namespace floe::json::internal
