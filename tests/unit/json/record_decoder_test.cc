#include "floe/json/record_decoder.h"

#include <gtest/gtest.h>

#include "json_test_util.h"

namespace floe::json {
namespace {

using testing::AppendChecked;
using testing::ExpectColumn;
using testing::FlushValid;
using testing::ValueDecoderFor;

// Columns of every shape, so that a record can fail inside each kind of builder.
constexpr const char* kSchema = R"({"type":"object","required":["id","point","tail"],"properties":{
  "id":{"type":"integer"},
  "name":{"type":["null","string"]},
  "tags":{"type":"array","items":{"type":"string"}},
  "attrs":{"type":"object","additionalProperties":{"type":"integer","connect.type":"int32"}},
  "point":{"type":"object","required":["x"],"properties":{"x":{"type":"integer"},"label":{"type":"string"}}},
  "maybe":{"oneOf":[{"type":"null"},{"type":"object","properties":{"x":{"type":"integer"},"when":{"type":"string","format":"date-time"}}}]},
  "grid":{"type":"array","items":{"type":"array","items":{"type":["number","null"]}}},
  "amount":{"type":"number","title":"org.apache.kafka.connect.data.Decimal","connect.parameters":{"scale":"2","connect.decimal.precision":"6"}},
  "tail":{"type":"integer","connect.type":"int8"}}})";

constexpr const char* kGood =
    R"({"id":1,"name":"n","tags":["a","b"],"attrs":{"k":1},"point":{"x":2,"label":"l"},)"
    R"("maybe":{"x":3,"when":"2024-01-02T03:04:05Z"},"grid":[[1.5,null],[]],"amount":123.45,"tail":9})";

TEST(JsonRecordDecoderTest, DecodesEveryShape) {
  auto decoder = ValueDecoderFor(kSchema);
  ASSERT_NE(decoder, nullptr);
  ASSERT_TRUE(AppendChecked(*decoder, kGood).ok());
  // Optional properties left out or null; properties not in the schema ignored.
  ASSERT_TRUE(AppendChecked(*decoder, R"({"tail":-128,"point":{"x":0},"id":-5,"extra":{"deep":[1,2,{"x":null}]},"maybe":null})").ok());
  auto batch = FlushValid(*decoder);
  ASSERT_NE(batch, nullptr);
  ASSERT_EQ(batch->num_rows(), 2);
  ExpectColumn(*batch, "id", "[1, -5]");
  ExpectColumn(*batch, "name", R"(["n", null])");
  ExpectColumn(*batch, "tags", R"([["a","b"], null])");
  ExpectColumn(*batch, "attrs", R"([[["k", 1]], null])");
  ExpectColumn(*batch, "point", R"([{"x":2,"label":"l"}, {"x":0,"label":null}])");
  ExpectColumn(*batch, "maybe", R"([{"x":3,"when":1704164645000000}, null])");
  ExpectColumn(*batch, "grid", R"([[[1.5,null],[]], null])");
  ExpectColumn(*batch, "amount", R"(["123.45", null])");
  ExpectColumn(*batch, "tail", "[9, -128]");
  EXPECT_EQ(decoder->num_rows(), 0);
}

// Each way a record can be wrong: the error names the path and the rule, and the record
// leaves no trace in any column (the rows around it decode as if it was never there).
TEST(JsonRecordDecoderTest, BadRecordsAppendNothing) {
  struct Case {
    const char* payload;
    const char* message;
  };
  const Case cases[] = {
      {R"({"id":"1","point":{"x":1},"tail":1})", "$.id: expected integer, found string"},
      {R"({"point":{"x":1},"tail":1})", "$.id: the required property is missing"},
      {R"({"id":null,"point":{"x":1},"tail":1})", "$.id: expected integer, found null"},
      {R"({"id":1.0,"point":{"x":1},"tail":1})", "$.id: expected integer, found number 1.0"},
      {R"({"id":1e3,"point":{"x":1},"tail":1})", "$.id: expected integer, found number"},
      {R"({"id":18446744073709551615,"point":{"x":1},"tail":1})", "$.id: 18446744073709551615 is out of range for int64"},
      {R"({"id":1,"point":{"x":1},"tail":128})", "$.tail: 128 is out of range for int8"},
      {R"({"id":1,"point":{"x":1},"tail":1,"name":5})", "$.name: expected string, found integer"},
      {R"({"id":1,"point":{"x":1},"tail":1,"tags":["a",7]})", "$.tags[1]: expected string, found integer"},
      {R"({"id":1,"point":{"x":1},"tail":1,"tags":["a",null]})", "$.tags[1]: expected string, found null"},
      {R"({"id":1,"point":{"x":1},"tail":1,"tags":"a"})", "$.tags: expected array, found string"},
      {R"({"id":1,"point":{"x":1},"tail":1,"attrs":{"a":1,"b c":"x"}})", "$.attrs['b c']: expected integer, found string"},
      {R"({"id":1,"point":{"x":1},"tail":1,"attrs":{"a":2147483648}})", "$.attrs.a: 2147483648 is out of range for int32"},
      {R"({"id":1,"point":{"label":"l"},"tail":1})", "$.point.x: the required property is missing"},
      {R"({"id":1,"point":{"x":1,"label":true},"tail":1})", "$.point.label: expected string, found boolean"},
      {R"({"id":1,"point":[],"tail":1})", "$.point: expected object, found array"},
      {R"({"id":1,"point":{"x":1},"tail":1,"maybe":{"x":1,"when":"2024-13-01T00:00:00Z"}})",
       "$.maybe.when: '2024-13-01T00:00:00Z' is not an RFC 3339 date-time"},
      {R"({"id":1,"point":{"x":1},"tail":1,"grid":[[1],[2,"x"]]})", "$.grid[1][1]: expected number, found string"},
      {R"({"id":1,"point":{"x":1},"tail":1,"amount":1.234})", "$.amount: the number 1.234 has more than 2 fraction digits"},
      {R"({"id":1,"point":{"x":1},"tail":1,"amount":12345})", "$.amount: 12345 does not fit decimal(6,2)"},
      {R"({"id":1,"point":{"x":1},"tail":1,"amount":"1.00"})", "$.amount: expected number (decimal), found string"},
      {R"({"id":1,"id":2,"point":{"x":1},"tail":1})", "$.id: the property appears twice"},
      {R"([1,2])", "$: expected object, found array"},
      {R"(null)", "$: expected object, found null"},
      {R"({"id":1,"point":{"x":1},"tail":1} x)", "invalid JSON"},
      {R"({"id":1,"point":{"x":1},"tail":1}{})", "invalid JSON"},
      {R"({"id":1,"point":{"x":1},"tail":1)", "invalid JSON"},
      {R"({"id":1,"point":{"x":1},"tail":1,"name":"\xff"})", "invalid JSON"},
      {R"({"id":123456789012345678901234567890,"point":{"x":1},"tail":1})", "invalid JSON"},
      {"", "invalid JSON"},
  };
  // Each bad record as the first failure since a flush: decoded optimistically, then rolled
  // back (later failures before the next flush are caught by checking first).
  auto reference = ValueDecoderFor(kSchema);
  ASSERT_TRUE(reference->Append(kGood).ok());
  ASSERT_TRUE(reference->Append(kGood).ok());
  auto two_good = FlushValid(*reference);
  for (const auto& c : cases) {
    auto fresh = ValueDecoderFor(kSchema);
    ASSERT_TRUE(fresh->Append(kGood).ok());
    EXPECT_FALSE(fresh->Append(c.payload).ok()) << c.payload;
    ASSERT_TRUE(fresh->Append(kGood).ok());
    auto batch = FlushValid(*fresh);
    ASSERT_NE(batch, nullptr);
    EXPECT_TRUE(batch->Equals(*two_good)) << c.payload;
  }

  auto decoder = ValueDecoderFor(kSchema);
  ASSERT_NE(decoder, nullptr);
  int good = 0;
  for (const auto& c : cases) {
    ASSERT_TRUE(AppendChecked(*decoder, kGood).ok());
    ++good;
    Status st = AppendChecked(*decoder, c.payload);
    EXPECT_EQ(st.code(), StatusCode::kInvalidArgument) << c.payload;
    EXPECT_NE(st.message().find(c.message), std::string::npos) << c.payload << "\n  got: " << st.message();
  }
  ASSERT_TRUE(AppendChecked(*decoder, kGood).ok());
  ++good;
  auto batch = FlushValid(*decoder);
  ASSERT_NE(batch, nullptr);
  EXPECT_EQ(batch->num_rows(), good);
  // Every row is the good record: nothing of the bad ones is left in any column.
  for (int i = 0; i < good; ++i) ASSERT_TRUE(reference->Append(kGood).ok());
  auto expected = FlushValid(*reference);
  EXPECT_TRUE(batch->Equals(*expected));
}

TEST(JsonRecordDecoderTest, FailedFirstRecordLeavesEmptyColumns) {
  auto decoder = ValueDecoderFor(kSchema);
  ASSERT_FALSE(decoder->Append(R"({"id":1,"point":{"x":1},"tail":1,"grid":[[1],[2,"x"]]})").ok());
  EXPECT_EQ(decoder->num_rows(), 0);
  ASSERT_TRUE(decoder->Append(kGood).ok());
  auto batch = FlushValid(*decoder);
  EXPECT_EQ(batch->num_rows(), 1);
  ExpectColumn(*batch, "grid", R"([[[1.5,null],[]]])");
  // After a flush the decoder starts over in its optimistic mode.
  ASSERT_TRUE(decoder->Append(kGood).ok());
  EXPECT_EQ(FlushValid(*decoder)->num_rows(), 1);
}

TEST(JsonRecordDecoderTest, Integers) {
  auto decoder = ValueDecoderFor(R"({"properties":{"i8":{"type":"integer","connect.type":"int8"},
      "i16":{"type":"integer","connect.type":"int16"},"i32":{"type":"integer","connect.type":"int32"},
      "i64":{"type":"integer"}}})");
  ASSERT_TRUE(AppendChecked(*decoder, R"({"i8":127,"i16":-32768,"i32":2147483647,"i64":-9223372036854775808})").ok());
  ASSERT_TRUE(AppendChecked(*decoder, R"({"i8":-0,"i64":9223372036854775807})").ok());
  EXPECT_FALSE(AppendChecked(*decoder, R"({"i8":-129})").ok());
  EXPECT_FALSE(AppendChecked(*decoder, R"({"i16":32768})").ok());
  EXPECT_FALSE(AppendChecked(*decoder, R"({"i32":-2147483649})").ok());
  EXPECT_FALSE(AppendChecked(*decoder, R"({"i64":9223372036854775808})").ok());
  EXPECT_FALSE(AppendChecked(*decoder, R"({"i64":2.0})").ok());
  EXPECT_FALSE(AppendChecked(*decoder, R"({"i64":true})").ok());
  auto batch = FlushValid(*decoder);
  ExpectColumn(*batch, "i8", "[127, 0]");
  ExpectColumn(*batch, "i16", "[-32768, null]");
  ExpectColumn(*batch, "i32", "[2147483647, null]");
  ExpectColumn(*batch, "i64", "[-9223372036854775808, 9223372036854775807]");
}

TEST(JsonRecordDecoderTest, Floats) {
  auto decoder = ValueDecoderFor(R"({"properties":{"f":{"type":"number","connect.type":"float32"},"d":{"type":"number"}}})");
  ASSERT_TRUE(AppendChecked(*decoder, R"({"f":1.5,"d":2})").ok());
  ASSERT_TRUE(AppendChecked(*decoder, R"({"f":-3,"d":18446744073709551615})").ok());
  Status st = AppendChecked(*decoder, R"({"f":1e39})");
  EXPECT_NE(st.message().find("$.f: 1e+39 is out of range for float32"), std::string::npos) << st.message();
  EXPECT_FALSE(AppendChecked(*decoder, R"({"d":"1.5"})").ok());
  auto batch = FlushValid(*decoder);
  ExpectColumn(*batch, "f", "[1.5, -3]");
  ExpectColumn(*batch, "d", "[2, 1.8446744073709552e19]");
}

TEST(JsonRecordDecoderTest, BooleansStringsBytesAndText) {
  auto decoder = ValueDecoderFor(R"({"properties":{"b":{"type":"boolean"},"s":{"type":"string"},
      "bin":{"type":"string","connect.type":"bytes"},"any":{},"free":{"type":"object"}}})");
  ASSERT_TRUE(AppendChecked(*decoder, R"({"b":true,"s":"h\u00e9\"llo","bin":"AAEC/w==","any":"text","free":{"a":[1,2.5,null]}})").ok());
  ASSERT_TRUE(AppendChecked(*decoder, R"({"b":false,"s":"","bin":"","any":{"k":1e2},"free":null})").ok());
  ASSERT_TRUE(AppendChecked(*decoder, R"({"any":null,"bin":"AAE"})").ok());  // unpadded base64
  EXPECT_NE(AppendChecked(*decoder, R"({"bin":"AA=E"})").message().find("$.bin: 'AA=E' is not base64"), std::string::npos);
  EXPECT_FALSE(AppendChecked(*decoder, R"({"bin":"A"})").ok());
  EXPECT_FALSE(AppendChecked(*decoder, R"({"b":"true"})").ok());
  EXPECT_FALSE(AppendChecked(*decoder, R"({"b":1})").ok());
  auto batch = FlushValid(*decoder);
  ExpectColumn(*batch, "b", "[true, false, null]");
  ExpectColumn(*batch, "s", R"(["hé\"llo", "", null])");
  auto bin = std::static_pointer_cast<arrow::BinaryArray>(batch->GetColumnByName("bin"));
  EXPECT_EQ(bin->GetView(0), std::string_view("\x00\x01\x02\xff", 4));
  EXPECT_EQ(bin->GetView(1), "");
  EXPECT_EQ(bin->GetView(2), std::string_view("\x00\x01", 2));
  ExpectColumn(*batch, "any", R"(["text", "{\"k\":100.0}", null])");
  ExpectColumn(*batch, "free", R"(["{\"a\":[1,2.5,null]}", null, null])");
}

TEST(JsonRecordDecoderTest, TimestampsDatesAndTimes) {
  auto decoder = ValueDecoderFor(R"({"properties":{"ts":{"type":"string","format":"date-time"},
      "d":{"type":"string","format":"date"},"t":{"type":"string","format":"time"}}})");
  ASSERT_TRUE(AppendChecked(*decoder, R"({"ts":"1970-01-01T00:00:00Z","d":"1970-01-01","t":"00:00:00"})").ok());
  ASSERT_TRUE(AppendChecked(*decoder, R"({"ts":"2024-02-29T23:59:59.123456789+01:30","d":"2024-02-29","t":"23:59:59.5"})").ok());
  ASSERT_TRUE(AppendChecked(*decoder, R"({"ts":"1969-12-31 23:59:59.999999z","d":"1900-03-01","t":"01:00:00+02:00"})").ok());
  for (const char* bad : {R"({"ts":"2023-02-29T00:00:00Z"})", R"({"ts":"2024-01-01T24:00:00Z"})",
                          R"({"ts":"2024-01-01T00:00:60Z"})", R"({"ts":"2024-01-01T00:00:00"})",
                          R"({"ts":"2024-01-01T00:00:00+1:00"})", R"({"ts":"2024-01-01T00:00:00.Z"})",
                          R"({"ts":"2024-01-01"})", R"({"ts":1704067200})", R"({"d":"2024-1-01"})",
                          R"({"d":"2024-04-31"})", R"({"d":"2024-01-01T00:00:00Z"})", R"({"t":"12:00"})",
                          R"({"t":"12:00:00+25:00"})", R"({"t":"12:60:00"})"}) {
    EXPECT_EQ(AppendChecked(*decoder, bad).code(), StatusCode::kInvalidArgument) << bad;
  }
  auto batch = FlushValid(*decoder);
  // 2024-02-29T23:59:59.123456+01:30 = 2024-02-29T22:29:59.123456Z (nanoseconds dropped).
  ExpectColumn(*batch, "ts", "[0, 1709245799123456, -1]");
  ExpectColumn(*batch, "d", "[0, 19782, -25508]");
  ExpectColumn(*batch, "t", "[0, 86399500000, 82800000000]");  // 01:00+02:00 is 23:00 UTC
}

TEST(JsonRecordDecoderTest, ConnectLogicalTypes) {
  auto decoder = ValueDecoderFor(R"({"properties":{
      "ts":{"type":"integer","connect.type":"int64","title":"org.apache.kafka.connect.data.Timestamp"},
      "d":{"type":"integer","connect.type":"int32","title":"org.apache.kafka.connect.data.Date"},
      "t":{"type":"integer","connect.type":"int32","title":"org.apache.kafka.connect.data.Time"}}})");
  ASSERT_TRUE(AppendChecked(*decoder, R"({"ts":1644345809665,"d":19000,"t":3600000})").ok());
  ASSERT_TRUE(AppendChecked(*decoder, R"({"ts":-1,"d":-1,"t":0})").ok());
  EXPECT_FALSE(AppendChecked(*decoder, R"({"t":86400000})").ok());
  EXPECT_FALSE(AppendChecked(*decoder, R"({"ts":9223372036854775807})").ok());
  EXPECT_FALSE(AppendChecked(*decoder, R"({"ts":"2024-01-01T00:00:00Z"})").ok());
  EXPECT_FALSE(AppendChecked(*decoder, R"({"d":4294967296})").ok());
  auto batch = FlushValid(*decoder);
  ExpectColumn(*batch, "ts", "[1644345809665000, -1000]");
  ExpectColumn(*batch, "d", "[19000, -1]");
  ExpectColumn(*batch, "t", "[3600000000, 0]");
}

TEST(JsonRecordDecoderTest, Decimals) {
  auto decoder = ValueDecoderFor(R"({"properties":{
      "n":{"type":"number","connect.parameters":{"scale":"2","connect.decimal.precision":"20"}},
      "b":{"type":"string","title":"org.apache.kafka.connect.data.Decimal","connect.parameters":{"scale":"2","connect.decimal.precision":"5"}}}})");
  ASSERT_TRUE(AppendChecked(*decoder, R"({"n":12.34,"b":"MDk="})").ok());  // 0x3039 = 12345 → 123.45
  ASSERT_TRUE(AppendChecked(*decoder, R"({"n":-0.1,"b":"/w=="})").ok());   // 0xff = -1 → -0.01
  ASSERT_TRUE(AppendChecked(*decoder, R"({"n":123456789012345678,"b":null})").ok());  // integers are exact
  ASSERT_TRUE(AppendChecked(*decoder, R"({"n":1e2})").ok());
  ASSERT_TRUE(AppendChecked(*decoder, R"({"n":1234567890123.45})").ok());  // 15 digits: exact
  Status st = AppendChecked(*decoder, R"({"n":12345678901234.56})");      // 16 digits
  EXPECT_NE(st.message().find("more than 15 significant digits"), std::string::npos) << st.message();
  EXPECT_FALSE(AppendChecked(*decoder, R"({"n":1234567890123456789})").ok());  // over precision 20 once scaled
  EXPECT_FALSE(AppendChecked(*decoder, R"({"n":0.001})").ok());
  EXPECT_FALSE(AppendChecked(*decoder, R"({"n":18446744073709551615})").ok());  // 20 digits + 2 of scale
  EXPECT_FALSE(AppendChecked(*decoder, R"({"n":-9223372036854775808})").ok());
  EXPECT_FALSE(AppendChecked(*decoder, R"({"n":1e300})").ok());
  st = AppendChecked(*decoder, R"({"b":"AYag"})");  // 100000 > 5 digits
  EXPECT_NE(st.message().find("$.b: the unscaled value 100000 has more than 5 digits"), std::string::npos) << st.message();
  EXPECT_FALSE(AppendChecked(*decoder, R"({"b":""})").ok());
  EXPECT_FALSE(AppendChecked(*decoder, R"({"b":"AAAAAAAAAAAAAAAAAAAAAAAA"})").ok());  // 18 bytes
  EXPECT_FALSE(AppendChecked(*decoder, R"({"b":12.34})").ok());
  auto fraction_only = ValueDecoderFor(R"({"properties":{"z":{"type":"number","connect.parameters":{"scale":"2","connect.decimal.precision":"2"}}}})");
  ASSERT_TRUE(AppendChecked(*fraction_only, R"({"z":0})").ok());
  ASSERT_TRUE(AppendChecked(*fraction_only, R"({"z":-0.99})").ok());
  EXPECT_FALSE(AppendChecked(*fraction_only, R"({"z":1})").ok());
  EXPECT_FALSE(AppendChecked(*fraction_only, R"({"z":1.0})").ok());
  ExpectColumn(*FlushValid(*fraction_only), "z", R"(["0.00", "-0.99"])");
  auto batch = FlushValid(*decoder);
  ExpectColumn(*batch, "n", R"(["12.34", "-0.10", "123456789012345678.00", "100.00", "1234567890123.45"])");
  ExpectColumn(*batch, "b", R"(["123.45", "-0.01", null, null, null])");
}

TEST(JsonRecordDecoderTest, MapsAndNestedLists) {
  auto decoder = ValueDecoderFor(R"({"properties":{
      "m":{"type":"object","additionalProperties":{"type":"array","items":{"type":"string"}}},
      "mm":{"type":"object","additionalProperties":{"type":"object","additionalProperties":{"type":["integer","null"]}}},
      "l":{"type":"array","items":{"type":"object","properties":{"k":{"type":"string"},"v":{"type":"array","items":{"type":"integer"}}}}}}})");
  Status first = AppendChecked(*decoder, R"({"m":{"a":["x"],"b":[]},"mm":{"o":{"p":1,"q":null}},"l":[{"k":"a","v":[1,2]},{"v":[]}]})");
  ASSERT_TRUE(first.ok()) << first.ToString();
  ASSERT_TRUE(AppendChecked(*decoder, R"({"m":{},"mm":{},"l":[]})").ok());
  EXPECT_FALSE(AppendChecked(*decoder, R"({"m":{"a":["x"],"b":[1]}})").ok());
  EXPECT_FALSE(AppendChecked(*decoder, R"({"m":{"a":null}})").ok());  // values not nullable
  EXPECT_FALSE(AppendChecked(*decoder, R"({"mm":{"o":{"p":1.5}}})").ok());
  EXPECT_FALSE(AppendChecked(*decoder, R"({"l":[{"k":"a","v":[1,"2"]}]})").ok());
  EXPECT_FALSE(AppendChecked(*decoder, R"({"l":[null]})").ok());  // items not nullable
  auto batch = FlushValid(*decoder);
  ExpectColumn(*batch, "m", R"([[["a",["x"]],["b",[]]], []])");
  ExpectColumn(*batch, "mm", R"([[["o",[["p",1],["q",null]]]], []])");
  ExpectColumn(*batch, "l", R"([[{"k":"a","v":[1,2]},{"k":null,"v":[]}], []])");
}

TEST(JsonRecordDecoderTest, WideObjectsFindPropertiesInAnyOrder) {
  std::string properties;
  std::string forward = "{";
  std::string backward = "{";
  for (int i = 0; i < 20; ++i) {
    properties += (i ? "," : "") + ("\"p" + std::to_string(i) + "\":{\"type\":\"integer\"}");
    forward += (i ? "," : "") + ("\"p" + std::to_string(i) + "\":" + std::to_string(i));
    backward += (i ? "," : "") + ("\"p" + std::to_string(19 - i) + "\":" + std::to_string(19 - i));
  }
  auto decoder = ValueDecoderFor(R"({"properties":{)" + properties + "}}");
  ASSERT_TRUE(AppendChecked(*decoder, forward + "}").ok());
  ASSERT_TRUE(AppendChecked(*decoder, backward + ",\"zzz\":1}").ok());
  EXPECT_FALSE(AppendChecked(*decoder, backward + ",\"p3\":1}").ok());
  auto batch = FlushValid(*decoder);
  ExpectColumn(*batch, "p0", "[0, 0]");
  ExpectColumn(*batch, "p19", "[19, 19]");
}

TEST(JsonRecordDecoderTest, Keys) {
  auto schema = JsonSchemaKeyPayloadSchema(R"({"type":"string"})", "key");
  ASSERT_TRUE(schema.ok()) << schema.status().ToString();
  EXPECT_TRUE((*schema)->columns()->Equals(*arrow::schema({arrow::field("key", arrow::utf8(), true)})));
  auto decoder = *(*schema)->NewDecoder();
  ASSERT_TRUE(AppendChecked(*decoder, R"("k1")").ok());
  ASSERT_TRUE(decoder->AppendNull().ok());
  EXPECT_FALSE(AppendChecked(*decoder, "null").ok());  // the schema does not allow null
  EXPECT_FALSE(AppendChecked(*decoder, "1").ok());
  EXPECT_FALSE(AppendChecked(*decoder, R"("k" "x")").ok());
  auto batch = FlushValid(*decoder);
  ExpectColumn(*batch, "key", R"(["k1", null])");

  auto object_key = JsonSchemaKeyPayloadSchema(R"({"type":"object","properties":{"a":{"type":"integer"}}})", "key");
  ASSERT_TRUE(object_key.ok());
  auto object_decoder = *(*object_key)->NewDecoder();
  ASSERT_TRUE(AppendChecked(*object_decoder, R"({"a":1})").ok());
  ExpectColumn(*FlushValid(*object_decoder), "key", R"([{"a":1}])");
}

TEST(JsonRecordDecoderTest, ValuesCannotBeNullRows) {
  auto decoder = ValueDecoderFor(R"({"properties":{"a":{"type":"integer"}}})");
  EXPECT_EQ(decoder->AppendNull().code(), StatusCode::kUnsupported);
}

TEST(JsonRecordDecoderTest, ValueSchemaMustBeAnObject) {
  EXPECT_EQ(JsonSchemaPayloadSchema(R"({"type":"string"})").status().code(), StatusCode::kInvalidArgument);
  EXPECT_EQ(JsonSchemaPayloadSchema(R"({"type":"object"})").status().code(), StatusCode::kInvalidArgument);
  EXPECT_EQ(JsonSchemaPayloadSchema(R"({"type":"object","additionalProperties":{"type":"string"}})").status().code(),
            StatusCode::kInvalidArgument);
  // A nullable object is fine: a null value is a tombstone, which the caller handles.
  auto nullable = JsonSchemaPayloadSchema(R"({"oneOf":[{"type":"null"},{"type":"object","properties":{"a":{"type":"string"}}}]})");
  ASSERT_TRUE(nullable.ok()) << nullable.status().ToString();
  EXPECT_EQ((*nullable)->columns()->num_fields(), 1);
}

}  // namespace
}  // namespace floe::json
