#include "floe/core/percent_encoding.h"

#include <gtest/gtest.h>

#include <cctype>
#include <string>

namespace floe {
namespace {

std::string AllBytes() {
  std::string s;
  for (int b = 0; b < 256; ++b) s.push_back(static_cast<char>(b));
  return s;
}

TEST(PercentEncode, KeepsOnlyLettersDigitsAndUnreservedPunctuationByDefault) {
  EXPECT_EQ(PercentEncode("AZaz09-._~"), "AZaz09-._~");
  EXPECT_EQ(PercentEncode("a b/c%d?e&f=g"), "a%20b%2Fc%25d%3Fe%26f%3Dg");
  EXPECT_EQ(PercentEncode("\x1f"), "%1F");
  EXPECT_EQ(PercentEncode("\xc3\xa9"), "%C3%A9");  // é, byte by byte
  EXPECT_EQ(PercentEncode(std::string_view("a\0b", 3)), "a%00b");
  EXPECT_EQ(PercentEncode("+"), "%2B");
  EXPECT_EQ(PercentEncode(""), "");
}

TEST(PercentEncode, KeepsTheGivenExtraCharacters) {
  // Delta's add.path: '/' between directories and '=' of Hive-style partition directories.
  EXPECT_EQ(PercentEncode("day=2024-01-01/a b.parquet", "-._~/="), "day=2024-01-01/a%20b.parquet");
  EXPECT_EQ(PercentEncode("a-b", ""), "a%2Db");
}

TEST(PercentEncode, EscapesEveryByteOutsideTheKeptSet) {
  const std::string encoded = PercentEncode(AllBytes());
  // 62 letters and digits and 4 unreserved marks stay; the other 190 bytes take 3 characters.
  EXPECT_EQ(encoded.size(), 66u + 190u * 3u);
  for (const char c : encoded) {
    const auto u = static_cast<unsigned char>(c);
    EXPECT_TRUE(u < 0x80 && (std::isalnum(u) || std::string_view("-._~%").find(c) != std::string_view::npos)) << u;
  }
}

TEST(PercentDecode, DecodesEitherCaseAndPassesOtherBytesThrough) {
  EXPECT_EQ(*PercentDecode("a%20b%2Fc"), "a b/c");
  EXPECT_EQ(*PercentDecode("%c3%A9"), "\xc3\xa9");
  EXPECT_EQ(*PercentDecode("a+b"), "a+b");  // not form decoding
  EXPECT_EQ(*PercentDecode("a b/c"), "a b/c");
  EXPECT_EQ(*PercentDecode("%00"), std::string(1, '\0'));
  EXPECT_EQ(*PercentDecode("%2525"), "%25");  // decoded once, not twice
  EXPECT_EQ(*PercentDecode(""), "");
}

TEST(PercentDecode, RejectsMalformedEscapes) {
  for (const std::string bad : {"%", "%2", "a%", "a%4", "%zz", "%g0", "%0g", "100%", "%%41", "%-1", "% 1", "%+1"}) {
    const auto decoded = PercentDecode(bad);
    ASSERT_FALSE(decoded.ok()) << bad;
    EXPECT_EQ(decoded.status().code(), StatusCode::kInvalidArgument) << bad;
    EXPECT_NE(decoded.status().message().find("offset"), std::string::npos) << decoded.status().message();
  }
  EXPECT_NE(PercentDecode("ab%zz").status().message().find("offset 2"), std::string::npos);
}

TEST(PercentEncoding, RoundTripsEveryByte) {
  const std::string all = AllBytes();
  for (const std::string_view keep : {kUnreservedPunctuation, std::string_view("-._~/="), std::string_view("")}) {
    EXPECT_EQ(*PercentDecode(PercentEncode(all, keep)), all) << keep;
  }
  for (int b = 0; b < 256; ++b) {
    const std::string one(1, static_cast<char>(b));
    const std::string encoded = PercentEncode(one);
    EXPECT_EQ(*PercentDecode(encoded), one) << b;
    if (encoded.size() == 3) {  // lower-case hex decodes to the same byte
      std::string lower = encoded;
      for (char& c : lower) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
      EXPECT_EQ(*PercentDecode(lower), one) << b;
    }
  }
}

}  // namespace
}  // namespace floe
