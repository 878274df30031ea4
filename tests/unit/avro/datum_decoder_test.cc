#include "floe/avro/datum_decoder.h"

#include <arrow/api.h>
#include <arrow/json/from_string.h>
#include <arrow/util/decimal.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <functional>
#include <limits>
#include <optional>
#include <string>
#include <vector>

#include "avro_test_encoder.h"
#include "floe/avro/arrow_mapping.h"

namespace floe::avro {
namespace {

using testing::AvroTestEncoder;
using testing::BigEndian;
using testing::MinimalBigEndian;

using Datums = std::vector<std::string>;

struct Decoder {
  NodePtr schema;
  std::unique_ptr<arrow::ArrayBuilder> builder;
  std::optional<DatumDecoder> decoder;
};

Decoder MakeDecoder(const std::string& schema_json) {
  Decoder d;
  auto schema = ParseSchema(schema_json);
  EXPECT_TRUE(schema.ok()) << schema.status().ToString();
  if (!schema.ok()) return d;
  d.schema = *schema;
  auto type = ToArrowType(*d.schema);
  EXPECT_TRUE(type.ok()) << type.status().ToString();
  if (!type.ok()) return d;
  d.builder = arrow::MakeBuilder(*type).ValueOrDie();
  auto decoder = DatumDecoder::Make(d.schema, d.builder.get());
  EXPECT_TRUE(decoder.ok()) << decoder.status().ToString();
  if (decoder.ok()) d.decoder.emplace(std::move(*decoder));
  return d;
}

// Decodes each datum (each must be consumed exactly) and returns the built array.
std::shared_ptr<arrow::Array> DecodeAll(const std::string& schema_json, const Datums& datums) {
  Decoder d = MakeDecoder(schema_json);
  if (!d.decoder) return nullptr;
  for (std::size_t i = 0; i < datums.size(); ++i) {
    BinaryReader in(datums[i]);
    Status st = d.decoder->Decode(in);
    EXPECT_TRUE(st.ok()) << "datum " << i << ": " << st.ToString();
    EXPECT_TRUE(in.at_end()) << "datum " << i << " has " << in.remaining() << " bytes left";
  }
  std::shared_ptr<arrow::Array> out;
  EXPECT_TRUE(d.builder->Finish(&out).ok());
  EXPECT_TRUE(out->ValidateFull().ok()) << out->ValidateFull().ToString();
  return out;
}

// The error decoding one datum gives (it must give one).
Status DecodeError(const std::string& schema_json, const std::string& datum) {
  Decoder d = MakeDecoder(schema_json);
  if (!d.decoder) return Status::Internal("no decoder");
  BinaryReader in(datum);
  Status validated = d.decoder->Validate(in);
  BinaryReader again(datum);
  Status st = d.decoder->Decode(again);
  EXPECT_FALSE(st.ok()) << "decoded without error";
  // Validate checks exactly what Decode checks.
  EXPECT_EQ(validated.message(), st.message());
  return st;
}

void ExpectArray(const std::shared_ptr<arrow::Array>& actual, const std::string& expected_json) {
  ASSERT_TRUE(actual);
  auto expected = arrow::json::ArrayFromJSONString(actual->type(), expected_json);
  ASSERT_TRUE(expected.ok()) << expected.status().ToString();
  EXPECT_TRUE(actual->Equals(**expected)) << "got      " << actual->ToString() << "\nexpected "
                                          << (*expected)->ToString();
}

std::string Enc(const std::function<void(AvroTestEncoder&)>& f) {
  AvroTestEncoder e;
  f(e);
  return e.bytes();
}

TEST(AvroDatumDecoder, Booleans) {
  ExpectArray(DecodeAll(R"("boolean")", {Enc([](auto& e) { e.Boolean(true); }), Enc([](auto& e) { e.Boolean(false); })}),
              "[true, false]");
}

TEST(AvroDatumDecoder, IntsAndLongs) {
  constexpr auto kIntMin = std::numeric_limits<std::int32_t>::min();
  constexpr auto kIntMax = std::numeric_limits<std::int32_t>::max();
  ExpectArray(DecodeAll(R"("int")", {Enc([](auto& e) { e.Int(kIntMin); }), Enc([](auto& e) { e.Int(kIntMax); }),
                                     Enc([](auto& e) { e.Int(0); }), Enc([](auto& e) { e.Int(-1); })}),
              "[-2147483648, 2147483647, 0, -1]");
  auto longs = DecodeAll(R"("long")", {Enc([](auto& e) { e.Long(std::numeric_limits<std::int64_t>::min()); }),
                                       Enc([](auto& e) { e.Long(std::numeric_limits<std::int64_t>::max()); }),
                                       Enc([](auto& e) { e.Long(1234567890123); })});
  ASSERT_TRUE(longs);
  auto& typed = static_cast<const arrow::Int64Array&>(*longs);
  EXPECT_EQ(typed.Value(0), std::numeric_limits<std::int64_t>::min());
  EXPECT_EQ(typed.Value(1), std::numeric_limits<std::int64_t>::max());
  EXPECT_EQ(typed.Value(2), 1234567890123);
}

TEST(AvroDatumDecoder, FloatsAndDoubles) {
  ExpectArray(DecodeAll(R"("float")", {Enc([](auto& e) { e.Float(1.5f); }), Enc([](auto& e) { e.Float(-0.25f); })}),
              "[1.5, -0.25]");
  auto doubles = DecodeAll(R"("double")", {Enc([](auto& e) { e.Double(1e300); }),
                                           Enc([](auto& e) { e.Double(-std::numeric_limits<double>::infinity()); }),
                                           Enc([](auto& e) { e.Double(std::nan("")); })});
  ASSERT_TRUE(doubles);
  auto& typed = static_cast<const arrow::DoubleArray&>(*doubles);
  EXPECT_EQ(typed.Value(0), 1e300);
  EXPECT_EQ(typed.Value(1), -std::numeric_limits<double>::infinity());
  EXPECT_TRUE(std::isnan(typed.Value(2)));
}

TEST(AvroDatumDecoder, StringsAndBytes) {
  ExpectArray(DecodeAll(R"("string")", {Enc([](auto& e) { e.String("h\xc3\xa9llo \xe2\x98\x83"); }),
                                        Enc([](auto& e) { e.String(""); })}),
              "[\"h\xc3\xa9llo \xe2\x98\x83\", \"\"]");
  auto bytes = DecodeAll(R"("bytes")", {Enc([](auto& e) { e.Bytes(std::string("\x00\xff\x80", 3)); }),
                                        Enc([](auto& e) { e.Bytes(""); })});
  ASSERT_TRUE(bytes);
  auto& typed = static_cast<const arrow::BinaryArray&>(*bytes);
  EXPECT_EQ(typed.GetView(0), std::string_view("\x00\xff\x80", 3));
  EXPECT_EQ(typed.GetView(1), "");
}

TEST(AvroDatumDecoder, StringsMustBeUtf8) {
  Status st = DecodeError(R"("string")", Enc([](auto& e) { e.String("ok\xff"); }));
  EXPECT_EQ(st.message(), "invalid Avro data at byte 0: string is not valid UTF-8");
  // Bytes may hold anything.
  EXPECT_TRUE(DecodeAll(R"("bytes")", {Enc([](auto& e) { e.Bytes("ok\xff"); })}));
}

TEST(AvroDatumDecoder, EnumsBecomeTheirSymbols) {
  const char* schema = R"({"type":"enum","name":"Color","symbols":["RED","GREEN","BLUE"]})";
  ExpectArray(DecodeAll(schema, {Enc([](auto& e) { e.Enum(2); }), Enc([](auto& e) { e.Enum(0); })}),
              R"(["BLUE", "RED"])");
  EXPECT_EQ(DecodeError(schema, Enc([](auto& e) { e.Enum(3); })).message(),
            "invalid Avro data at byte 0: enum index 3 does not exist (the enum has 3 symbols)");
  EXPECT_FALSE(DecodeError(schema, Enc([](auto& e) { e.Enum(-1); })).ok());
}

TEST(AvroDatumDecoder, Fixed) {
  auto a = DecodeAll(R"({"type":"fixed","name":"F","size":3})",
                     {Enc([](auto& e) { e.Fixed(std::string("\x00\x01\xff", 3)); }), Enc([](auto& e) { e.Fixed("abc"); })});
  ASSERT_TRUE(a);
  auto& typed = static_cast<const arrow::FixedSizeBinaryArray&>(*a);
  EXPECT_EQ(typed.GetView(0), std::string_view("\x00\x01\xff", 3));
  EXPECT_EQ(typed.GetView(1), "abc");
}

TEST(AvroDatumDecoder, NestedRecords) {
  const char* schema = R"({"type":"record","name":"R","fields":[
      {"name":"id","type":"long"},
      {"name":"p","type":{"type":"record","name":"P","fields":[{"name":"x","type":"int"},{"name":"tag","type":"string"}]}},
      {"name":"q","type":"P"}]})";
  ExpectArray(DecodeAll(schema, {Enc([](auto& e) { e.Long(7).Int(1).String("a").Int(2).String("b"); }),
                                 Enc([](auto& e) { e.Long(-7).Int(-1).String("").Int(0).String("z"); })}),
              R"([{"id": 7, "p": {"x": 1, "tag": "a"}, "q": {"x": 2, "tag": "b"}},
                  {"id": -7, "p": {"x": -1, "tag": ""}, "q": {"x": 0, "tag": "z"}}])");
}

TEST(AvroDatumDecoder, ArraysInBlocks) {
  const char* schema = R"({"type":"array","items":"int"})";
  AvroTestEncoder sized_items;
  sized_items.Int(4).Int(5);
  ExpectArray(DecodeAll(schema, {
                                    Enc([](auto& e) { e.End(); }),
                                    Enc([](auto& e) { e.Count(2).Int(1).Int(2).Count(1).Int(3).End(); }),
                                    Enc([&](auto& e) { e.SizedBlock(2, sized_items).Count(1).Int(6).End(); }),
                                }),
              "[[], [1, 2, 3], [4, 5, 6]]");
  ExpectArray(DecodeAll(R"({"type":"array","items":{"type":"array","items":"string"}})",
                        {Enc([](auto& e) { e.Count(2).Count(1).String("a").End().End().End(); })}),
              R"([[["a"], []]])");
}

TEST(AvroDatumDecoder, MapsInBlocks) {
  AvroTestEncoder sized_items;
  sized_items.String("c").Long(3);
  ExpectArray(DecodeAll(R"({"type":"map","values":"long"})",
                        {Enc([](auto& e) { e.End(); }),
                         Enc([&](auto& e) { e.Count(2).String("a").Long(1).String("b").Long(-2).SizedBlock(1, sized_items).End(); })}),
              R"([[], [["a", 1], ["b", -2], ["c", 3]]])");
  ExpectArray(DecodeAll(R"({"type":"map","values":["null","string"]})",
                        {Enc([](auto& e) { e.Count(2).String("k").Branch(0).String("v").Branch(1).String("x").End(); })}),
              R"([[["k", null], ["v", "x"]]])");
}

TEST(AvroDatumDecoder, OptionalUnionsInEitherOrder) {
  ExpectArray(DecodeAll(R"(["null","string"])", {Enc([](auto& e) { e.Branch(0); }),
                                                 Enc([](auto& e) { e.Branch(1).String("x"); })}),
              R"([null, "x"])");
  ExpectArray(DecodeAll(R"(["string","null"])", {Enc([](auto& e) { e.Branch(1); }),
                                                 Enc([](auto& e) { e.Branch(0).String("x"); })}),
              R"([null, "x"])");
  // A null struct still gives its children a (hidden) slot each, so the array is valid.
  ExpectArray(DecodeAll(R"(["null",{"type":"record","name":"P","fields":[{"name":"x","type":"int"},
                           {"name":"l","type":{"type":"array","items":"int"}}]}])",
                        {Enc([](auto& e) { e.Branch(0); }),
                         Enc([](auto& e) { e.Branch(1).Int(5).Count(1).Int(6).End(); })}),
              R"([null, {"x": 5, "l": [6]}])");
  EXPECT_EQ(DecodeError(R"(["null","int"])", Enc([](auto& e) { e.Branch(2); })).message(),
            "invalid Avro data at byte 0: union branch 2 does not exist (the union has 2)");
  EXPECT_FALSE(DecodeError(R"(["null","int"])", Enc([](auto& e) { e.Branch(-1); })).ok());
}

TEST(AvroDatumDecoder, OtherUnionsFillOneMember) {
  ExpectArray(DecodeAll(R"(["int","null","string"])",
                        {Enc([](auto& e) { e.Branch(0).Int(7); }), Enc([](auto& e) { e.Branch(1); }),
                         Enc([](auto& e) { e.Branch(2).String("s"); })}),
              R"([{"member0": 7, "member1": null}, null, {"member0": null, "member1": "s"}])");
  ExpectArray(DecodeAll(R"(["long",{"type":"record","name":"P","fields":[{"name":"x","type":"int"}]}])",
                        {Enc([](auto& e) { e.Branch(1).Int(3); }), Enc([](auto& e) { e.Branch(0).Long(-3); })}),
              R"([{"member0": null, "member1": {"x": 3}}, {"member0": -3, "member1": null}])");
}

TEST(AvroDatumDecoder, DecimalsOnBytes) {
  const char* schema = R"({"type":"bytes","logicalType":"decimal","precision":10,"scale":2})";
  ExpectArray(DecodeAll(schema, {Enc([](auto& e) { e.Bytes(MinimalBigEndian(-12345)); }),
                                 Enc([](auto& e) { e.Bytes(MinimalBigEndian(9999999999)); }),
                                 Enc([](auto& e) { e.Bytes(MinimalBigEndian(0)); }),
                                 // 20 bytes of sign extension: any length is legal Avro
                                 Enc([](auto& e) { e.Bytes(std::string(20, '\xff')); }),
                                 Enc([](auto& e) { e.Bytes(std::string(19, '\0') + "\x01"); })}),
              R"(["-123.45", "99999999.99", "0.00", "-0.01", "0.01"])");
  EXPECT_EQ(DecodeError(schema, Enc([](auto& e) { e.Bytes(MinimalBigEndian(10000000000)); })).message(),
            "invalid Avro data at byte 0: decimal value 10000000000 has more than 10 digits");
  EXPECT_EQ(DecodeError(schema, Enc([](auto& e) { e.Bytes(""); })).message(),
            "invalid Avro data at byte 0: decimal value has no bytes");
  EXPECT_NE(DecodeError(schema, Enc([](auto& e) { e.Bytes("\x7f" + std::string(16, '\0')); }))
                .message()
                .find("does not fit in 16 bytes"),
            std::string::npos);
}

TEST(AvroDatumDecoder, DecimalsOnFixed) {
  ExpectArray(DecodeAll(R"({"type":"fixed","name":"D","size":8,"logicalType":"decimal","precision":18,"scale":3})",
                        {Enc([](auto& e) { e.Fixed(BigEndian(123456789012345678, 8)); }),
                         Enc([](auto& e) { e.Fixed(BigEndian(-1, 8)); })}),
              R"(["123456789012345.678", "-0.001"])");
  // fixed(20) with precision 38: wider than Decimal128, but the value fits.
  ExpectArray(DecodeAll(R"({"type":"fixed","name":"W","size":20,"logicalType":"decimal","precision":38,"scale":0})",
                        {Enc([](auto& e) { e.Fixed(BigEndian(-42, 20)); })}),
              R"(["-42"])");
}

// Big-endian two's complement of a decimal string, via Arrow (only for building test data).
std::string Decimal256BigEndian(const std::string& digits) {
  auto v = arrow::Decimal256::FromString(digits).ValueOrDie();
  auto little = v.ToBytes();
  return std::string(little.rbegin(), little.rend());
}

TEST(AvroDatumDecoder, WideDecimals) {
  const std::string big = "1234567890123456789012345678901234567890123456789";  // 49 digits
  ExpectArray(DecodeAll(R"({"type":"bytes","logicalType":"decimal","precision":50,"scale":5})",
                        {Enc([&](auto& e) { e.Bytes(Decimal256BigEndian(big)); }),
                         Enc([&](auto& e) { e.Bytes(Decimal256BigEndian("-" + big)); }),
                         Enc([](auto& e) { e.Bytes(MinimalBigEndian(-1)); })}),
              R"(["12345678901234567890123456789012345678901234.56789",
                  "-12345678901234567890123456789012345678901234.56789", "-0.00001"])");
  EXPECT_NE(DecodeError(R"({"type":"bytes","logicalType":"decimal","precision":40})",
                        Enc([&](auto& e) { e.Bytes(Decimal256BigEndian(big)); }))
                .message()
                .find("has more than 40 digits"),
            std::string::npos);
}

TEST(AvroDatumDecoder, DatesAndTimes) {
  ExpectArray(DecodeAll(R"({"type":"int","logicalType":"date"})",
                        {Enc([](auto& e) { e.Int(19000); }), Enc([](auto& e) { e.Int(-1); })}),
              "[19000, -1]");
  // time-millis is stored in microseconds (x1000), like Iceberg's time and like timestamps.
  auto times = DecodeAll(R"({"type":"int","logicalType":"time-millis"})",
                         {Enc([](auto& e) { e.Int(45296789); }), Enc([](auto& e) { e.Int(86399999); }),
                          Enc([](auto& e) { e.Int(0); })});
  ASSERT_TRUE(times);
  EXPECT_TRUE(times->type()->Equals(arrow::time64(arrow::TimeUnit::MICRO))) << times->type()->ToString();
  ExpectArray(times, "[45296789000, 86399999000, 0]");
  ExpectArray(DecodeAll(R"({"type":"long","logicalType":"time-micros"})", {Enc([](auto& e) { e.Long(45296789012); })}),
              "[45296789012]");
  // A time of day outside the day cannot be stored (Arrow, Parquet and Iceberg hold
  // [00:00, 24:00)): a corrupt record, not a silently invalid column.
  EXPECT_EQ(DecodeError(R"({"type":"int","logicalType":"time-millis"})", Enc([](auto& e) { e.Int(86400000); })).message(),
            "invalid Avro data at byte 0: time of 86400000 ms is not within a day [0, 86400000)");
  EXPECT_FALSE(DecodeError(R"({"type":"int","logicalType":"time-millis"})", Enc([](auto& e) { e.Int(-1); })).ok());
  EXPECT_EQ(DecodeError(R"({"type":"long","logicalType":"time-micros"})", Enc([](auto& e) { e.Long(86400000000); })).message(),
            "invalid Avro data at byte 0: time of 86400000000 us is not within a day [0, 86400000000)");
  EXPECT_FALSE(DecodeError(R"({"type":"long","logicalType":"time-micros"})", Enc([](auto& e) { e.Long(-5); })).ok());
}

TEST(AvroDatumDecoder, Timestamps) {
  // millis are scaled to micros; micros and nanos are stored as they are.
  for (const char* lt : {"timestamp-millis", "local-timestamp-millis"}) {
    ExpectArray(DecodeAll(std::string(R"({"type":"long","logicalType":")") + lt + "\"}",
                          {Enc([](auto& e) { e.Long(1700000000123); }), Enc([](auto& e) { e.Long(-1); })}),
                "[1700000000123000, -1000]");
  }
  for (const char* lt : {"timestamp-micros", "local-timestamp-micros", "timestamp-nanos", "local-timestamp-nanos"}) {
    ExpectArray(DecodeAll(std::string(R"({"type":"long","logicalType":")") + lt + "\"}",
                          {Enc([](auto& e) { e.Long(1700000000123456789); }), Enc([](auto& e) { e.Long(-5); })}),
                "[1700000000123456789, -5]");
  }
  Status overflow = DecodeError(R"({"type":"long","logicalType":"timestamp-millis"})",
                                Enc([](auto& e) { e.Long(std::numeric_limits<std::int64_t>::max() / 10); }));
  EXPECT_NE(overflow.message().find("out of the range of microsecond timestamps"), std::string::npos);
}

TEST(AvroDatumDecoder, UuidsAndDurations) {
  ExpectArray(DecodeAll(R"({"type":"string","logicalType":"uuid"})",
                        {Enc([](auto& e) { e.String("6f1c3bde-3a8d-4b8e-9a55-bf5ba9d6a0c1"); })}),
              R"(["6f1c3bde-3a8d-4b8e-9a55-bf5ba9d6a0c1"])");
  auto uuid = DecodeAll(R"({"type":"fixed","name":"U","size":16,"logicalType":"uuid"})",
                        {Enc([](auto& e) { e.Fixed("0123456789abcdef"); })});
  ASSERT_TRUE(uuid);
  EXPECT_EQ(static_cast<const arrow::FixedSizeBinaryArray&>(*uuid).GetView(0), "0123456789abcdef");
  const std::string duration("\x01\x00\x00\x00\x02\x00\x00\x00\x03\x00\x00\x00", 12);
  auto d = DecodeAll(R"({"type":"fixed","name":"Dur","size":12,"logicalType":"duration"})",
                     {Enc([&](auto& e) { e.Fixed(duration); })});
  ASSERT_TRUE(d);
  EXPECT_EQ(static_cast<const arrow::FixedSizeBinaryArray&>(*d).GetView(0), duration);
}

TEST(AvroDatumDecoder, ErrorsNameTheFieldAndTheByte) {
  const char* schema = R"({"type":"record","name":"R","fields":[
      {"name":"id","type":"long"},
      {"name":"customer","type":{"type":"record","name":"C","fields":[
        {"name":"tags","type":{"type":"array","items":"string"}}]}}]})";
  Status st = DecodeError(schema, Enc([](auto& e) { e.Long(1).Count(1).Long(5).Raw("ab"); }));
  EXPECT_EQ(st.message(), "field 'customer.tags[]': truncated Avro data at byte 2: a string value needs 5 bytes, 2 left");
}

TEST(AvroDatumDecoder, HostileBlockCountsFailFast) {
  const char* schema = R"({"type":"array","items":"long"})";
  EXPECT_EQ(DecodeError(schema, Enc([](auto& e) { e.Count(std::int64_t{1} << 62).Long(1); })).message(),
            "invalid Avro data at byte 0: block of 4611686018427387904 items with only 1 bytes left");
  EXPECT_NE(DecodeError(schema, Enc([](auto& e) { e.Count(std::numeric_limits<std::int64_t>::min()); }))
                .message()
                .find("out of range"),
            std::string::npos);
  // Negative count: the block size must be sane and must match what the items took.
  EXPECT_NE(DecodeError(schema, Enc([](auto& e) { e.Long(-1).Long(-4).Long(1).End(); })).message().find("block size -4"),
            std::string::npos);
  EXPECT_NE(DecodeError(schema, Enc([](auto& e) { e.Long(-1).Long(3).Long(1).Raw("xx").End(); }))
                .message()
                .find("block says it has 3 bytes but its items took 1"),
            std::string::npos);
  EXPECT_NE(DecodeError(R"({"type":"map","values":"int"})", Enc([](auto& e) { e.Count(1000).String("k"); }))
                .message()
                .find("block of 1000 items"),
            std::string::npos);
}

TEST(AvroDatumDecoder, ValidateAppendsNothing) {
  Decoder d = MakeDecoder(R"({"type":"record","name":"R","fields":[{"name":"a","type":"int"},
                             {"name":"b","type":{"type":"array","items":"string"}}]})");
  ASSERT_TRUE(d.decoder);
  const std::string datum = Enc([](auto& e) { e.Int(1).Count(1).String("x").End(); });
  BinaryReader in(datum);
  ASSERT_TRUE(d.decoder->Validate(in).ok());
  EXPECT_TRUE(in.at_end());
  EXPECT_EQ(d.builder->length(), 0);
  auto* sb = static_cast<arrow::StructBuilder*>(d.builder.get());
  EXPECT_EQ(sb->field_builder(0)->length(), 0);
  EXPECT_EQ(sb->field_builder(1)->length(), 0);
}

TEST(AvroDatumDecoder, MakeChecksTheBuilderAndTheSchemas) {
  auto schema = *ParseSchema(R"({"type":"record","name":"R","fields":[{"name":"a","type":"int"}]})");
  arrow::Int64Builder wrong;
  auto bad = DatumDecoder::Make(schema, &wrong);
  ASSERT_FALSE(bad.ok());
  EXPECT_NE(bad.status().message().find("is not the type"), std::string::npos);

  auto type = *ToArrowType(*schema);
  auto builder = arrow::MakeBuilder(type).ValueOrDie();
  auto other = *ParseSchema(R"({"type":"record","name":"R","fields":[{"name":"a","type":"int"}]})");
  auto resolving = DatumDecoder::Make(other, schema, builder.get());
  ASSERT_FALSE(resolving.ok());
  EXPECT_EQ(resolving.status().code(), StatusCode::kUnsupported);
  EXPECT_TRUE(DatumDecoder::Make(schema, schema, builder.get()).ok());

  auto null_schema = *ParseSchema(R"("null")");
  arrow::NullBuilder nulls;
  EXPECT_FALSE(DatumDecoder::Make(null_schema, &nulls).ok());
}

}  // namespace
}  // namespace floe::avro
