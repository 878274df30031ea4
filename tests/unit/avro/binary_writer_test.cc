#include "floe/avro/binary_writer.h"

#include <gtest/gtest.h>

#include <arrow/api.h>
#include <arrow/json/from_string.h>

#include <cmath>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include "avro_test_encoder.h"
#include "floe/avro/binary_reader.h"
#include "floe/avro/datum_decoder.h"
#include "floe/avro/datum_skip_internal.h"

namespace floe::avro {
namespace {

using testing::AvroTestEncoder;
using testing::FromHex;

std::string Bytes(const BinaryWriter& w) { return std::string(w.data()); }

TEST(AvroBinaryWriter, VarintsAreZigZag) {
  // The specification's table, and the edges of each varint length.
  const std::vector<std::pair<std::int64_t, std::string>> cases = {
      {0, "00"},          {-1, "01"},        {1, "02"},          {-2, "03"},          {2, "04"},
      {63, "7e"},         {-64, "7f"},       {64, "8001"},       {-65, "8101"},       {8191, "fe7f"},
      {8192, "808001"},   {-8193, "818001"},
      {std::numeric_limits<std::int32_t>::max(), "feffffff0f"},
      {std::numeric_limits<std::int32_t>::min(), "ffffffff0f"},
      {std::numeric_limits<std::int64_t>::max(), "feffffffffffffffff01"},
      {std::numeric_limits<std::int64_t>::min(), "ffffffffffffffffff01"},
  };
  for (const auto& [v, hex] : cases) {
    BinaryWriter w;
    w.WriteLong(v);
    EXPECT_EQ(Bytes(w), FromHex(hex)) << v;
    if (v >= std::numeric_limits<std::int32_t>::min() && v <= std::numeric_limits<std::int32_t>::max()) {
      BinaryWriter wi;
      wi.WriteInt(static_cast<std::int32_t>(v));
      EXPECT_EQ(Bytes(wi), FromHex(hex)) << v;
    }
  }
}

TEST(AvroBinaryWriter, FixedWidthAndLengthPrefixedValues) {
  BinaryWriter w;
  w.WriteBoolean(true);
  w.WriteBoolean(false);
  w.WriteFloat(1.5f);
  w.WriteDouble(-2.25);
  w.WriteBytes(std::string_view("\x00\xff", 2));
  w.WriteString("h\xc3\xa9");
  w.WriteString("");
  w.WriteFixed("abcd");
  w.WriteEnum(2);
  w.WriteUnionBranch(1);
  w.WriteNull();  // nothing
  EXPECT_EQ(Bytes(w), FromHex("0100" "0000c03f" "00000000000002c0" "0400ff" "0668c3a9" "00" "61626364" "04" "02"));
}

TEST(AvroBinaryWriter, ArraysAndMapsAreBlocksEndedByZero) {
  BinaryWriter w;
  w.WriteBlockCount(2);  // [1, -2] in one block
  w.WriteLong(1);
  w.WriteLong(-2);
  w.WriteBlockCount(0);
  w.WriteBlockCount(0);  // []
  w.WriteBlockCount(1);  // {"a": 3} then {"b": 4}: two blocks of one
  w.WriteString("a");
  w.WriteLong(3);
  w.WriteBlockCount(1);
  w.WriteString("b");
  w.WriteLong(4);
  w.WriteBlockCount(0);
  EXPECT_EQ(Bytes(w), FromHex("04" "02" "03" "00" "00" "02" "0261" "06" "02" "0262" "08" "00"));

  auto schema = ParseSchema(R"({"type":"record","name":"R","fields":[
      {"name":"a","type":{"type":"array","items":"long"}},
      {"name":"e","type":{"type":"array","items":"long"}},
      {"name":"m","type":{"type":"map","values":"long"}}]})");
  ASSERT_TRUE(schema.ok()) << schema.status().ToString();
  auto decoder = RecordBatchDecoder::Make(*schema);
  ASSERT_TRUE(decoder.ok());
  ASSERT_TRUE(decoder->Append(w.data()).ok());
  auto batch = decoder->Flush();
  ASSERT_TRUE(batch.ok());
  for (const auto& [name, json] : std::vector<std::pair<std::string, std::string>>{
           {"a", "[[1, -2]]"}, {"e", "[[]]"}, {"m", R"([[["a", 3], ["b", 4]]])"}}) {
    auto column = (*batch)->GetColumnByName(name);
    auto expected = arrow::json::ArrayFromJSONString(column->type(), json);
    ASSERT_TRUE(expected.ok());
    EXPECT_TRUE(column->Equals(**expected)) << name << ": " << column->ToString();
  }
}

// Against the test encoder (written separately from the spec) and back through the
// reader, over random values of every width.
TEST(AvroBinaryWriter, MatchesTheTestEncoderAndReadsBack) {
  std::mt19937_64 rng(42);
  BinaryWriter w;
  AvroTestEncoder e;
  std::vector<std::int64_t> longs;
  std::vector<double> doubles;
  std::vector<std::string> strings;
  for (int i = 0; i < 5000; ++i) {
    const int bits = static_cast<int>(rng() % 64);
    const auto v = static_cast<std::int64_t>(rng() >> bits) * ((rng() & 1) != 0 ? -1 : 1);
    longs.push_back(v);
    w.WriteLong(v);
    e.Long(v);
    const double d = std::ldexp(static_cast<double>(rng() % 1000000) - 500000, static_cast<int>(rng() % 200) - 100);
    doubles.push_back(d);
    w.WriteDouble(d);
    e.Double(d);
    strings.push_back(std::string(rng() % 300, static_cast<char>('a' + i % 26)));
    w.WriteString(strings.back());
    e.String(strings.back());
  }
  ASSERT_EQ(Bytes(w), e.bytes());
  BinaryReader r(w.data());
  for (int i = 0; i < 5000; ++i) {
    ASSERT_EQ(*r.ReadLong(), longs[static_cast<std::size_t>(i)]);
    ASSERT_EQ(*r.ReadDouble(), doubles[static_cast<std::size_t>(i)]);
    ASSERT_EQ(*r.ReadString(), strings[static_cast<std::size_t>(i)]);
  }
  EXPECT_TRUE(r.at_end());
}

TEST(AvroBinaryWriter, ClearTruncateAndRelease) {
  BinaryWriter w;
  w.WriteString(std::string(1000, 'x'));
  const std::size_t size = w.size();
  w.WriteLong(5);
  w.Truncate(size);
  EXPECT_EQ(w.size(), size);
  w.Truncate(size + 10);  // no-op past the end
  EXPECT_EQ(w.size(), size);
  w.clear();
  EXPECT_TRUE(w.empty());
  w.WriteBoolean(true);
  std::string out = w.Release();
  EXPECT_EQ(out, "\x01");
  EXPECT_TRUE(w.empty());
}

TEST(AvroBinaryWriter, SkipDatumFindsTheEndOfEveryKindOfValue) {
  auto schema = ParseSchema(R"({"type":"record","name":"R","fields":[
      {"name":"n","type":"null"},
      {"name":"u","type":["null","string",{"type":"fixed","name":"F","size":3}]},
      {"name":"e","type":{"type":"enum","name":"E","symbols":["A","B"]}},
      {"name":"a","type":{"type":"array","items":{"type":"map","values":"float"}}},
      {"name":"z","type":{"type":"array","items":"null"}},
      {"name":"empty","type":{"type":"record","name":"Empty","fields":[]}}]})");
  ASSERT_TRUE(schema.ok()) << schema.status().ToString();
  EXPECT_FALSE(IsAlwaysEmpty(**schema));
  BinaryWriter w;
  w.WriteUnionBranch(2);
  w.WriteFixed("xyz");
  w.WriteEnum(1);
  w.WriteBlockCount(1);
  w.WriteBlockCount(1);
  w.WriteString("k");
  w.WriteFloat(1.0f);
  w.WriteBlockCount(0);
  w.WriteBlockCount(0);
  w.WriteBlockCount(1000000);  // a million nulls take no bytes
  w.WriteBlockCount(0);
  const std::size_t datum_size = w.size();
  w.WriteLong(99);  // the next datum
  BinaryReader r(w.data());
  ASSERT_TRUE(SkipDatum(**schema, r).ok());
  EXPECT_EQ(r.offset(), datum_size);

  BinaryWriter bad;
  bad.WriteUnionBranch(3);
  BinaryReader rb(bad.data());
  Status st = SkipDatum(**schema, rb);
  EXPECT_FALSE(st.ok());
  EXPECT_NE(st.message().find("field 'u'"), std::string::npos) << st.message();
  EXPECT_NE(st.message().find("union branch 3 does not exist"), std::string::npos) << st.message();

  auto empty = ParseSchema(R"({"type":"record","name":"R","fields":[{"name":"n","type":"null"},
      {"name":"r","type":{"type":"record","name":"E","fields":[]}}]})");
  ASSERT_TRUE(empty.ok());
  EXPECT_TRUE(IsAlwaysEmpty(**empty));
}

}  // namespace
}  // namespace floe::avro
