// Decoding bytes written by another implementation: Apache Avro's Python library 1.12.2
// (avro.io.DatumWriter with the schema below minus its logical-type attributes, which
// leaves the binary layout unchanged; logical values were given as their base values).
// AvroTestEncoder and the decoder are read from the same spec by the same hands; these
// bytes are the independent check.
#include <arrow/api.h>
#include <arrow/json/from_string.h>
#include <gtest/gtest.h>

#include <map>
#include <string>
#include <vector>

#include "arrow_test_util.h"
#include "avro_test_encoder.h"
#include "floe/avro/datum_decoder.h"

namespace floe::avro {
namespace {

using testing::BinaryAt;
using testing::FromHex;

constexpr const char* kSchema = R"({"type": "record", "name": "All", "namespace": "floe.test", "fields": [
  {"name": "b", "type": "boolean"},
  {"name": "i", "type": "int"},
  {"name": "l", "type": "long"},
  {"name": "f", "type": "float"},
  {"name": "d", "type": "double"},
  {"name": "by", "type": "bytes"},
  {"name": "s", "type": "string"},
  {"name": "e", "type": {"type": "enum", "name": "Color", "symbols": ["RED", "GREEN", "BLUE"]}},
  {"name": "fx", "type": {"type": "fixed", "name": "Hash", "size": 4}},
  {"name": "arr", "type": {"type": "array", "items": "int"}},
  {"name": "m", "type": {"type": "map", "values": "long"}},
  {"name": "opt", "type": ["null", "string"]},
  {"name": "opt2", "type": ["long", "null"]},
  {"name": "rec", "type": {"type": "record", "name": "Point", "fields": [{"name": "x", "type": "int"}, {"name": "y", "type": "double"}]}},
  {"name": "u", "type": ["null", "int", "string", "Point"]},
  {"name": "dec", "type": {"type": "bytes", "logicalType": "decimal", "precision": 10, "scale": 2}},
  {"name": "decf", "type": {"type": "fixed", "name": "Dec8", "size": 8, "logicalType": "decimal", "precision": 18, "scale": 3}},
  {"name": "id", "type": {"type": "string", "logicalType": "uuid"}},
  {"name": "date", "type": {"type": "int", "logicalType": "date"}},
  {"name": "tms", "type": {"type": "int", "logicalType": "time-millis"}},
  {"name": "tus", "type": {"type": "long", "logicalType": "time-micros"}},
  {"name": "tsms", "type": {"type": "long", "logicalType": "timestamp-millis"}},
  {"name": "tsus", "type": {"type": "long", "logicalType": "timestamp-micros"}},
  {"name": "tsns", "type": {"type": "long", "logicalType": "timestamp-nanos"}},
  {"name": "ltsms", "type": {"type": "long", "logicalType": "local-timestamp-millis"}},
  {"name": "ltsus", "type": {"type": "long", "logicalType": "local-timestamp-micros"}},
  {"name": "ltsns", "type": {"type": "long", "logicalType": "local-timestamp-nanos"}},
  {"name": "dur", "type": {"type": "fixed", "name": "Dur", "size": 12, "logicalType": "duration"}},
  {"name": "nested", "type": {"type": "array", "items": {"type": "map", "values": ["null", "Point"]}}}]})";

const std::vector<std::string>& GoldenDatums() {
  static const std::vector<std::string> datums = {
    // row 0
    "01ff880f82808080808080200000c03f00000000000002c00800ff61621468c3a96c6c6f20e2988304deadbeef060203"
    "d8040004026102046262ffc7afa02500020278020e000000000000e03f0601000000000000004004cfc701b69b4ba630"
    "f34e4836663163336264652d336138642d346238652d396135352d626635626139643661306331f0a802aab2992ba898"
    "b1bed102f6a1abfef9628089818283898506aab4aed8c7bfce972f0103050100000002000000030000000404026b0002"
    "700202000000000000f03f000000",
    // row 1
    "00feffffff0fffffffffffffffffff01000000809c7500883ce4377e000000000000000000000001ffffffff0f59f3f8"
    "c21f6ea581000a02540be3ffffffffffffffffff000100feffbadd8305010001000000ffffffffffffffffffffffff00",
    // row 2
    "010000000000000000000000000000027a027a0261626364020a00020000000200000000000000000000000004067374"
    "72020000000000000000000278000202020202020202000000000000000000000000020000",
    // row 3
    "010000000000000000000000000000027a027a0261626364020a00020000000200000000000000000000000002540201"
    "00000000000000000278000202020202020202000000000000000000000000020000"};
  return datums;
}

// Expected column values, as Arrow JSON (binary columns are checked byte by byte below).
const std::map<std::string, std::string>& Expected() {
  static const std::map<std::string, std::string> expected = {
      {"b", "[true, false, true, true]"},
      {"i", "[-123456, 2147483647, 0, 0]"},
      {"l", "[9007199254740993, -9223372036854775808, 0, 0]"},
      {"f", "[1.5, -0.0, 0.0, 0.0]"},
      {"d", "[-2.25, 1e300, 0.0, 0.0]"},
      {"s", "[\"h\xc3\xa9llo \xe2\x98\x83\", \"\", \"z\", \"z\"]"},
      {"e", R"(["BLUE", "RED", "GREEN", "GREEN"])"},
      {"arr", "[[1, -2, 300], [], [5], [5]]"},
      {"m", R"([[["a", 1], ["bb", -5000000000]], [], [["", 0]], [["", 0]]])"},
      {"opt", R"(["x", null, "", ""])"},
      {"opt2", "[null, -1, 0, 0]"},
      {"rec", R"([{"x": 7, "y": 0.5}, {"x": -2147483648, "y": -1e-300}, {"x": 0, "y": 0}, {"x": 0, "y": 0}])"},
      {"u", R"([{"member0": null, "member1": null, "member2": {"x": -1, "y": 2.0}}, null,
                {"member0": null, "member1": "str", "member2": null},
                {"member0": 42, "member1": null, "member2": null}])"},
      {"dec", R"(["-123.45", "99999999.99", "0.00", "0.01"])"},
      {"decf", R"(["123456789012345.678", "-0.001", "0.000", "0.000"])"},
      {"id", R"(["6f1c3bde-3a8d-4b8e-9a55-bf5ba9d6a0c1", "", "x", "x"])"},
      {"date", "[19000, -1, 0, 0]"},
      {"tms", "[45296789000, 0, 1000, 1000]"},  // time-millis is stored in micros
      {"tus", "[45296789012, 86399999999, 1, 1]"},
      {"tsms", "[1700000000123000, -1000, 1000, 1000]"},
      {"tsus", "[1700000000123456, 0, 1, 1]"},
      {"tsns", "[1700000000123456789, -1, 1, 1]"},
      {"ltsms", "[-1000, 0, 1000, 1000]"},
      {"ltsus", "[-2, 0, 1, 1]"},
      {"ltsns", "[-3, 0, 1, 1]"},
      {"nested", R"([[[["k", null], ["p", {"x": 1, "y": 1.0}]], []], [], [[]], [[]]])"},
  };
  return expected;
}

const std::map<std::string, std::vector<std::string>>& ExpectedBinary() {
  static const std::map<std::string, std::vector<std::string>> expected = {
      {"by", {std::string("\x00\xff" "ab", 4), "", "z", "z"}},
      {"fx", {"\xde\xad\xbe\xef", std::string(4, '\0'), "abcd", "abcd"}},
      {"dur", {std::string("\x01\0\0\0\x02\0\0\0\x03\0\0\0", 12), std::string(12, '\xff'), std::string(12, '\0'),
               std::string(12, '\0')}},
  };
  return expected;
}

TEST(AvroGoldenDatums, DecodeEveryTypeWrittenByTheReferenceImplementation) {
  auto schema = ParseSchema(kSchema);
  ASSERT_TRUE(schema.ok()) << schema.status().ToString();
  auto decoder = RecordBatchDecoder::Make(*schema);
  ASSERT_TRUE(decoder.ok()) << decoder.status().ToString();
  for (const auto& hex : GoldenDatums()) {
    Status st = decoder->Append(FromHex(hex));
    ASSERT_TRUE(st.ok()) << st.ToString();
  }
  auto batch = decoder->Flush();
  ASSERT_TRUE(batch.ok());
  ASSERT_TRUE((*batch)->ValidateFull().ok());
  ASSERT_EQ((*batch)->num_rows(), 4);
  std::size_t checked = 0;
  for (const auto& [name, json] : Expected()) {
    auto column = (*batch)->GetColumnByName(name);
    ASSERT_TRUE(column) << name;
    auto expected = arrow::json::ArrayFromJSONString(column->type(), json);
    ASSERT_TRUE(expected.ok()) << name << ": " << expected.status().ToString();
    EXPECT_TRUE(column->Equals(**expected)) << name << "\n  got      " << column->ToString() << "\n  expected "
                                            << (*expected)->ToString();
    ++checked;
  }
  for (const auto& [name, values] : ExpectedBinary()) {
    auto column = (*batch)->GetColumnByName(name);
    ASSERT_TRUE(column) << name;
    for (std::size_t i = 0; i < values.size(); ++i) {
      EXPECT_EQ(BinaryAt(*column, static_cast<std::int64_t>(i)), values[i]) << name << "[" << i << "]";
    }
    ++checked;
  }
  EXPECT_EQ(checked, static_cast<std::size_t>((*batch)->num_columns()));  // every column is checked
}

// Every proper prefix of every datum must fail cleanly (ASan checks "cleanly") and leave
// the batch untouched.
TEST(AvroGoldenDatums, EveryTruncationIsAnError) {
  auto decoder = RecordBatchDecoder::Make(*ParseSchema(kSchema));
  ASSERT_TRUE(decoder.ok());
  for (const auto& hex : GoldenDatums()) {
    const std::string full = FromHex(hex);
    for (std::size_t n = 0; n < full.size(); ++n) {
      std::vector<std::uint8_t> prefix(full.begin(), full.begin() + static_cast<std::ptrdiff_t>(n));
      EXPECT_FALSE(decoder->Append(std::span<const std::uint8_t>(prefix.data(), prefix.size())).ok())
          << "prefix of " << n << " bytes decoded";
    }
    ASSERT_TRUE(decoder->Append(full).ok());
  }
  auto batch = decoder->Flush();
  ASSERT_TRUE(batch.ok());
  ASSERT_TRUE((*batch)->ValidateFull().ok());
  EXPECT_EQ((*batch)->num_rows(), 4);
}

}  // namespace
}  // namespace floe::avro
