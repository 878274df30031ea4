#include "floe/avro/binary_reader.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <limits>
#include <memory>
#include <random>
#include <string>

#include "avro_test_encoder.h"

namespace floe::avro {
namespace {

using testing::AvroTestEncoder;
using testing::FromHex;

TEST(AvroBinaryReader, LongsKnownEncodings) {
  const std::pair<const char*, std::int64_t> cases[] = {
      {"00", 0},
      {"01", -1},
      {"02", 1},
      {"7e", 63},
      {"7f", -64},
      {"8001", 64},
      {"8101", -65},
      {"feffffffffffffffff01", std::numeric_limits<std::int64_t>::max()},
      {"ffffffffffffffffff01", std::numeric_limits<std::int64_t>::min()},
      {"8000", 0},  // redundant continuation: accepted, as the Java reader does
  };
  for (const auto& [hex, value] : cases) {
    const std::string bytes = FromHex(hex);
    BinaryReader in(bytes);
    std::int64_t v = 0;
    ASSERT_TRUE(in.ReadLong(&v).ok()) << hex;
    EXPECT_EQ(v, value) << hex;
    EXPECT_TRUE(in.at_end()) << hex;
  }
}

TEST(AvroBinaryReader, LongsRoundTrip) {
  const std::int64_t values[] = {0,          1,          -1,         127,        -128,       1 << 20,
                                 -(1 << 20), 1LL << 40,  -(1LL << 40), 1LL << 62, -(1LL << 62),
                                 std::numeric_limits<std::int64_t>::max(), std::numeric_limits<std::int64_t>::min()};
  AvroTestEncoder enc;
  for (auto v : values) enc.Long(v);
  BinaryReader in(enc.bytes());
  for (auto expected : values) {
    auto v = in.ReadLong();
    ASSERT_TRUE(v.ok()) << v.status().ToString();
    EXPECT_EQ(*v, expected);
  }
  EXPECT_TRUE(in.at_end());
}

TEST(AvroBinaryReader, RejectsOverlongAndOverflowingLongs) {
  {
    const std::string bytes = FromHex("8080808080808080808001");  // 11 bytes
    BinaryReader in(bytes);
    auto v = in.ReadLong();
    ASSERT_FALSE(v.ok());
    EXPECT_EQ(v.status().message(), "invalid Avro data at byte 0: long varint is longer than 10 bytes");
    EXPECT_EQ(in.offset(), 0u);  // a failed read does not move
  }
  {
    const std::string bytes = FromHex("ffffffffffffffffff02");  // 10th byte carries more than bit 63
    BinaryReader in(bytes);
    auto v = in.ReadLong();
    ASSERT_FALSE(v.ok());
    EXPECT_NE(v.status().message().find("overflows 64 bits"), std::string::npos);
  }
}

TEST(AvroBinaryReader, IntsAndTheirRange) {
  const std::pair<const char*, std::int32_t> ok[] = {
      {"00", 0},
      {"feffffff0f", std::numeric_limits<std::int32_t>::max()},
      {"ffffffff0f", std::numeric_limits<std::int32_t>::min()},
      {"8001", 64},
  };
  for (const auto& [hex, value] : ok) {
    const std::string bytes = FromHex(hex);
    BinaryReader in(bytes);
    auto v = in.ReadInt();
    ASSERT_TRUE(v.ok()) << hex << ": " << v.status().ToString();
    EXPECT_EQ(*v, value);
  }
  {  // 2^31 as a long is fine, as an int it is out of range
    AvroTestEncoder enc;
    enc.Long(std::int64_t{1} << 31);
    BinaryReader in(enc.bytes());
    auto v = in.ReadInt();
    ASSERT_FALSE(v.ok());
    EXPECT_EQ(v.status().message(), "invalid Avro data at byte 0: int varint is out of 32-bit range");
    EXPECT_EQ(*BinaryReader(enc.bytes()).ReadLong(), std::int64_t{1} << 31);
  }
  {
    const std::string bytes = FromHex("808080808000");  // 6 bytes
    BinaryReader in(bytes);
    EXPECT_NE(in.ReadInt().status().message().find("longer than 5 bytes"), std::string::npos);
  }
}

TEST(AvroBinaryReader, TruncatedVarintsSayWhere) {
  const std::string bytes = FromHex("02" "8080");
  BinaryReader in(bytes);
  EXPECT_EQ(*in.ReadLong(), 1);
  auto v = in.ReadLong();
  ASSERT_FALSE(v.ok());
  EXPECT_EQ(v.status().message(), "truncated Avro data at byte 1: the varint of a long ends after 2 bytes");
  EXPECT_EQ(in.offset(), 1u);
  BinaryReader empty(std::string_view{});
  EXPECT_EQ(empty.ReadInt().status().message(), "truncated Avro data at byte 0: the varint of an int ends after 0 bytes");
}

TEST(AvroBinaryReader, Booleans) {
  const std::string bytes = FromHex("000102");
  BinaryReader in(bytes);
  EXPECT_EQ(*in.ReadBoolean(), false);
  EXPECT_EQ(*in.ReadBoolean(), true);
  auto bad = in.ReadBoolean();
  ASSERT_FALSE(bad.ok());
  EXPECT_EQ(bad.status().message(), "invalid Avro data at byte 2: boolean byte is 2, not 0 or 1");
  EXPECT_EQ(in.offset(), 2u);
  EXPECT_TRUE(in.Skip(1).ok());
  EXPECT_NE(in.ReadBoolean().status().message().find("truncated Avro data at byte 3"), std::string::npos);
}

TEST(AvroBinaryReader, FloatsAndDoublesAreLittleEndian) {
  const std::string bytes = FromHex("0000c03f" "000000000000f8bf" "0000807f" "000000000000f87f");
  BinaryReader in(bytes);
  EXPECT_EQ(*in.ReadFloat(), 1.5f);
  EXPECT_EQ(*in.ReadDouble(), -1.5);
  EXPECT_EQ(*in.ReadFloat(), std::numeric_limits<float>::infinity());
  EXPECT_TRUE(std::isnan(*in.ReadDouble()));
  EXPECT_TRUE(in.at_end());

  AvroTestEncoder enc;
  enc.Float(-0.0f).Double(std::numeric_limits<double>::denorm_min()).Double(1e300);
  BinaryReader in2(enc.bytes());
  EXPECT_TRUE(std::signbit(*in2.ReadFloat()));
  EXPECT_EQ(*in2.ReadDouble(), std::numeric_limits<double>::denorm_min());
  EXPECT_EQ(*in2.ReadDouble(), 1e300);
}

TEST(AvroBinaryReader, TruncatedFloatsAndDoubles) {
  const std::string bytes = FromHex("00000000" "000000");
  BinaryReader in(bytes);
  EXPECT_TRUE(in.ReadFloat().ok());
  auto d = in.ReadDouble();
  ASSERT_FALSE(d.ok());
  EXPECT_EQ(d.status().message(), "truncated Avro data at byte 4: a double needs 8 bytes, 3 left");
  EXPECT_NE(in.ReadFloat().status().message().find("a float needs 4 bytes, 3 left"), std::string::npos);
}

TEST(AvroBinaryReader, BytesAndStrings) {
  AvroTestEncoder enc;
  enc.Bytes(std::string("\x00\xff", 2)).String("").String("h\xc3\xa9");
  BinaryReader in(enc.bytes());
  EXPECT_EQ(*in.ReadBytes(), std::string_view("\x00\xff", 2));
  EXPECT_EQ(*in.ReadString(), "");
  EXPECT_EQ(*in.ReadString(), "h\xc3\xa9");
  EXPECT_TRUE(in.at_end());
}

TEST(AvroBinaryReader, RejectsNegativeAndPastTheEndLengths) {
  {
    AvroTestEncoder enc;
    enc.Long(-1).Raw("abc");
    BinaryReader in(enc.bytes());
    auto v = in.ReadBytes();
    ASSERT_FALSE(v.ok());
    EXPECT_EQ(v.status().message(), "invalid Avro data at byte 0: negative length -1 of bytes");
    EXPECT_EQ(in.offset(), 0u);
  }
  {
    AvroTestEncoder enc;
    enc.Long(1).Long(10).Raw("abc");
    BinaryReader in(enc.bytes());
    EXPECT_EQ(*in.ReadLong(), 1);
    auto v = in.ReadString();
    ASSERT_FALSE(v.ok());
    EXPECT_EQ(v.status().message(), "truncated Avro data at byte 1: a string value needs 10 bytes, 3 left");
  }
  {  // a length near 2^63 must not wrap around any bounds arithmetic
    AvroTestEncoder enc;
    enc.Long(std::numeric_limits<std::int64_t>::max()).Raw("abc");
    BinaryReader in(enc.bytes());
    EXPECT_FALSE(in.ReadBytes().ok());
  }
}

TEST(AvroBinaryReader, FixedAndSkip) {
  BinaryReader in(std::string_view("abcdef"));
  EXPECT_EQ(*in.ReadFixed(2), "ab");
  EXPECT_EQ(*in.ReadFixed(0), "");
  EXPECT_TRUE(in.Skip(1).ok());
  EXPECT_EQ(in.remaining(), 3u);
  auto v = in.ReadFixed(4);
  ASSERT_FALSE(v.ok());
  EXPECT_EQ(v.status().message(), "truncated Avro data at byte 3: a fixed needs 4 bytes, 3 left");
  EXPECT_FALSE(in.Skip(4).ok());
  EXPECT_EQ(*in.ReadFixed(3), "def");
  EXPECT_TRUE(in.at_end());
}

TEST(AvroBinaryReader, SpanConstructor) {
  const std::uint8_t bytes[] = {0x04, 0x01};
  BinaryReader in{std::span<const std::uint8_t>(bytes)};
  EXPECT_EQ(*in.ReadInt(), 2);
  EXPECT_EQ(*in.ReadBoolean(), true);
  EXPECT_EQ(in.size(), 2u);
}

// Random bytes through every read: errors are fine, reading out of bounds is not (ASan).
TEST(AvroBinaryReader, RandomInputNeverReadsOutOfBounds) {
  std::mt19937 rng(1234);
  for (int round = 0; round < 2000; ++round) {
    std::string bytes(rng() % 24, '\0');
    for (auto& c : bytes) c = static_cast<char>(rng() % 4 == 0 ? 0xff : rng());
    // Copy into an exactly-sized heap buffer so that ASan sees any overrun.
    auto buf = std::make_unique<std::uint8_t[]>(bytes.size() + 1);
    std::memcpy(buf.get(), bytes.data(), bytes.size());
    BinaryReader in(buf.get(), bytes.size());
    while (!in.at_end()) {
      const std::size_t before = in.offset();
      Status st;
      std::string_view sv;
      switch (rng() % 7) {
        case 0: st = in.ReadLong().status(); break;
        case 1: st = in.ReadInt().status(); break;
        case 2: st = in.ReadBoolean().status(); break;
        case 3: st = in.ReadFloat().status(); break;
        case 4: st = in.ReadDouble().status(); break;
        case 5: st = in.ReadBytes(&sv); break;
        default: st = in.ReadFixed(rng() % 5, &sv); break;
      }
      if (!st.ok()) {
        EXPECT_EQ(in.offset(), before);
        EXPECT_NE(st.message().find("at byte " + std::to_string(before)), std::string::npos) << st.message();
        break;
      }
      EXPECT_LE(in.offset(), in.size());
    }
  }
}

}  // namespace
}  // namespace floe::avro
