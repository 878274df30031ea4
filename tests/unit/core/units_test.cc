#include "floe/core/units.h"

#include <gtest/gtest.h>

namespace floe {
namespace {

TEST(ParseDuration, AcceptsEachUnit) {
  EXPECT_EQ(ParseDuration("250ms")->count(), 250);
  EXPECT_EQ(ParseDuration("10s")->count(), 10'000);
  EXPECT_EQ(ParseDuration("5m")->count(), 300'000);
  EXPECT_EQ(ParseDuration("1h")->count(), 3'600'000);
  EXPECT_EQ(ParseDuration("7d")->count(), 7LL * 86'400'000);
}

TEST(ParseDuration, RejectsBareNumbersAndUnknownUnits) {
  EXPECT_FALSE(ParseDuration("10").ok());
  EXPECT_FALSE(ParseDuration("10 s").ok());
  EXPECT_FALSE(ParseDuration("10w").ok());
  EXPECT_FALSE(ParseDuration("-1s").ok());
  EXPECT_FALSE(ParseDuration("").ok());
  EXPECT_NE(ParseDuration("10").status().message().find("unit"), std::string::npos);
}

TEST(ParseDuration, RejectsOverflow) {
  EXPECT_FALSE(ParseDuration("9223372036854775807h").ok());
  EXPECT_FALSE(ParseDuration("99999999999999999999s").ok());
}

TEST(ParseByteSize, BinaryAndDecimalUnits) {
  EXPECT_EQ(*ParseByteSize("128MiB"), 128LL * 1024 * 1024);
  EXPECT_EQ(*ParseByteSize("64MB"), 64LL * 1000 * 1000);
  EXPECT_EQ(*ParseByteSize("1GiB"), 1LL << 30);
  EXPECT_EQ(*ParseByteSize("512KiB"), 512LL * 1024);
  EXPECT_EQ(*ParseByteSize("4096"), 4096);
  EXPECT_EQ(*ParseByteSize("7B"), 7);
}

TEST(ParseByteSize, RejectsUnknownUnits) {
  EXPECT_FALSE(ParseByteSize("12mb").ok());
  EXPECT_FALSE(ParseByteSize("1TiB").ok());
  EXPECT_FALSE(ParseByteSize("MiB").ok());
}

}  // namespace
}  // namespace floe
