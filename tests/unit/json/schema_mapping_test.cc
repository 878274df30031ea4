#include "floe/json/schema_mapping.h"

#include <arrow/api.h>
#include <gtest/gtest.h>

#include <map>

#include "floe/json/json_type.h"

namespace floe::json {
namespace {

JsonField MapOk(const std::string& schema, const RefResolver& resolver = {}) {
  auto r = MapJsonSchema(schema, resolver);
  EXPECT_TRUE(r.ok()) << r.status().ToString();
  return r.ok() ? *r : JsonField{};
}

// The Arrow type of the single property `v` of an object schema.
std::shared_ptr<arrow::Field> PropertyField(const std::string& property_schema, bool required = false) {
  const std::string schema = R"({"type":"object","properties":{"v":)" + property_schema + "}" +
                             (required ? R"(,"required":["v"]})" : "}");
  JsonField f = MapOk(schema);
  auto arrow_schema = ToArrowSchema(f.type);
  EXPECT_TRUE(arrow_schema.ok()) << arrow_schema.status().ToString();
  if (!arrow_schema.ok() || (*arrow_schema)->num_fields() != 1) return nullptr;
  return (*arrow_schema)->field(0);
}

std::shared_ptr<arrow::DataType> PropertyType(const std::string& property_schema) {
  auto f = PropertyField(property_schema);
  return f ? f->type() : nullptr;
}

Status MapError(const std::string& schema, const RefResolver& resolver = {}) {
  return MapJsonSchema(schema, resolver).status();
}

TEST(JsonSchemaMappingTest, Primitives) {
  EXPECT_TRUE(PropertyType(R"({"type":"boolean"})")->Equals(arrow::boolean()));
  EXPECT_TRUE(PropertyType(R"({"type":"integer"})")->Equals(arrow::int64()));
  EXPECT_TRUE(PropertyType(R"({"type":"number"})")->Equals(arrow::float64()));
  EXPECT_TRUE(PropertyType(R"({"type":"string"})")->Equals(arrow::utf8()));
  EXPECT_TRUE(PropertyType(R"({"type":["integer","number"]})")->Equals(arrow::float64()));
}

TEST(JsonSchemaMappingTest, StringFormats) {
  EXPECT_TRUE(PropertyType(R"({"type":"string","format":"date-time"})")
                  ->Equals(arrow::timestamp(arrow::TimeUnit::MICRO, "UTC")));
  EXPECT_TRUE(PropertyType(R"({"type":"string","format":"date"})")->Equals(arrow::date32()));
  EXPECT_TRUE(PropertyType(R"({"type":"string","format":"time"})")->Equals(arrow::time64(arrow::TimeUnit::MICRO)));
  // uuid strings are kept as written, with no uuid marker (as avro/arrow_mapping.cc does).
  auto uuid = PropertyField(R"({"type":"string","format":"uuid"})");
  EXPECT_TRUE(uuid->type()->Equals(arrow::utf8()));
  EXPECT_EQ(uuid->metadata(), nullptr);
  EXPECT_TRUE(PropertyType(R"({"type":"string","contentEncoding":"base64"})")->Equals(arrow::binary()));
  EXPECT_TRUE(PropertyType(R"({"type":"string","format":"email"})")->Equals(arrow::utf8()));
}

TEST(JsonSchemaMappingTest, EnumsAndConst) {
  EXPECT_TRUE(PropertyType(R"({"enum":["a","b"]})")->Equals(arrow::utf8()));
  EXPECT_TRUE(PropertyField(R"({"enum":["a",null]})", /*required=*/true)->nullable());
  EXPECT_TRUE(PropertyType(R"({"type":"string","enum":["a","b"]})")->Equals(arrow::utf8()));
  // An enum of other values is validation of a typed value.
  EXPECT_TRUE(PropertyType(R"({"type":"integer","enum":[1,2]})")->Equals(arrow::int64()));
  EXPECT_TRUE(PropertyType(R"({"const":"x"})")->Equals(arrow::utf8()));
  EXPECT_EQ(MapError(R"({"type":"object","properties":{"v":{"enum":[1,2]}}})").code(), StatusCode::kUnsupported);
}

TEST(JsonSchemaMappingTest, ConnectAnnotations) {
  EXPECT_TRUE(PropertyType(R"({"type":"integer","connect.type":"int8"})")->Equals(arrow::int32()));
  EXPECT_TRUE(PropertyType(R"({"type":"integer","connect.type":"int16"})")->Equals(arrow::int32()));
  EXPECT_TRUE(PropertyType(R"({"type":"integer","connect.type":"int32"})")->Equals(arrow::int32()));
  EXPECT_TRUE(PropertyType(R"({"type":"integer","connect.type":"int64"})")->Equals(arrow::int64()));
  EXPECT_TRUE(PropertyType(R"({"type":"number","connect.type":"float32"})")->Equals(arrow::float32()));
  EXPECT_TRUE(PropertyType(R"({"type":"number","connect.type":"float64"})")->Equals(arrow::float64()));
  EXPECT_TRUE(PropertyType(R"({"type":"string","connect.type":"bytes"})")->Equals(arrow::binary()));
  EXPECT_TRUE(PropertyType(R"({"type":"integer","connect.type":"int64","title":"org.apache.kafka.connect.data.Timestamp"})")
                  ->Equals(arrow::timestamp(arrow::TimeUnit::MICRO, "UTC")));
  EXPECT_TRUE(PropertyType(R"({"type":"integer","connect.type":"int32","title":"org.apache.kafka.connect.data.Date"})")
                  ->Equals(arrow::date32()));
  EXPECT_TRUE(PropertyType(R"({"type":"integer","connect.type":"int32","title":"org.apache.kafka.connect.data.Time"})")
                  ->Equals(arrow::time64(arrow::TimeUnit::MICRO)));
  EXPECT_EQ(MapError(R"({"type":"object","properties":{"v":{"type":"integer","connect.type":"uint8"}}})").code(),
            StatusCode::kUnsupported);
}

TEST(JsonSchemaMappingTest, ConnectDecimals) {
  // What Confluent's JsonSchemaConverter writes: number-typed, parameters as strings.
  const std::string number = R"({"type":"number","title":"org.apache.kafka.connect.data.Decimal","connect.version":1,
      "connect.type":"bytes","connect.parameters":{"scale":"4","connect.decimal.precision":"14"}})";
  EXPECT_TRUE(PropertyType(number)->Equals(arrow::decimal128(14, 4)));
  JsonField f = MapOk(R"({"type":"object","properties":{"v":)" + number + "}}");
  EXPECT_EQ(f.type.children[0].type.kind, Kind::kDecimal);
  // Bytes-typed: base64 of the unscaled value; precision defaults to 38.
  const std::string bytes = R"({"type":"string","connect.type":"bytes","connect.parameters":{"scale":2}})";
  EXPECT_TRUE(PropertyType(bytes)->Equals(arrow::decimal128(38, 2)));
  f = MapOk(R"({"type":"object","properties":{"v":)" + bytes + "}}");
  EXPECT_EQ(f.type.children[0].type.kind, Kind::kDecimalBytes);
  EXPECT_EQ(MapError(R"({"properties":{"v":{"type":"number","connect.parameters":{"scale":"2","connect.decimal.precision":"40"}}}})")
                .code(),
            StatusCode::kUnsupported);
  EXPECT_EQ(MapError(R"({"properties":{"v":{"type":"number","connect.parameters":{"scale":"-1"}}}})").code(),
            StatusCode::kUnsupported);
  EXPECT_EQ(MapError(R"({"properties":{"v":{"type":"number","connect.parameters":{"scale":"x"}}}})").code(),
            StatusCode::kInvalidArgument);
}

TEST(JsonSchemaMappingTest, ObjectsRequiredAndOrder) {
  JsonField f = MapOk(R"({"type":"object","required":["id","opt"],"properties":{
      "id":{"type":"integer"},
      "name":{"type":"string"},
      "opt":{"type":["null","string"]},
      "inner":{"type":"object","required":["x"],"properties":{"x":{"type":"number"},"y":{"type":"boolean"}}}}})");
  auto schema = ToArrowSchema(f.type);
  ASSERT_TRUE(schema.ok());
  auto expected = arrow::schema({
      arrow::field("id", arrow::int64(), false),
      arrow::field("name", arrow::utf8(), true),
      arrow::field("opt", arrow::utf8(), true),  // required but allows null
      arrow::field("inner", arrow::struct_({arrow::field("x", arrow::float64(), false),
                                            arrow::field("y", arrow::boolean(), true)}),
                   true),
  });
  EXPECT_TRUE((*schema)->Equals(*expected)) << (*schema)->ToString();
  EXPECT_FALSE(f.nullable);
}

TEST(JsonSchemaMappingTest, ListsAndMaps) {
  EXPECT_TRUE(PropertyType(R"({"type":"array","items":{"type":"integer"}})")
                  ->Equals(arrow::list(arrow::field("element", arrow::int64(), false))));
  EXPECT_TRUE(PropertyType(R"({"type":"array","items":{"type":"array","items":{"type":["string","null"]}}})")
                  ->Equals(arrow::list(arrow::field(
                      "element", arrow::list(arrow::field("element", arrow::utf8(), true)), false))));
  EXPECT_TRUE(PropertyType(R"({"type":"object","additionalProperties":{"type":"number"}})")
                  ->Equals(arrow::map(arrow::utf8(), arrow::field("value", arrow::float64(), false))));
  // With properties, additionalProperties only allows extra (ignored) properties.
  EXPECT_TRUE(PropertyType(R"({"type":"object","properties":{"a":{"type":"string"}},"additionalProperties":{"type":"number"}})")
                  ->Equals(arrow::struct_({arrow::field("a", arrow::utf8())})));
}

TEST(JsonSchemaMappingTest, NullableCombinators) {
  for (const char* s : {R"({"oneOf":[{"type":"null"},{"type":"string"}]})", R"({"anyOf":[{"type":"string"},{"type":"null"}]})",
                        R"({"type":["string","null"]})"}) {
    auto f = PropertyField(s, /*required=*/true);
    ASSERT_NE(f, nullptr) << s;
    EXPECT_TRUE(f->type()->Equals(arrow::utf8())) << s;
    EXPECT_TRUE(f->nullable()) << s;
  }
  // A single non-null branch without null: required stays required.
  auto f = PropertyField(R"({"oneOf":[{"type":"integer"}]})", /*required=*/true);
  EXPECT_FALSE(f->nullable());
  // Branches that map to the same type count as one.
  EXPECT_TRUE(PropertyType(R"({"anyOf":[{"type":"integer","minimum":0},{"type":"integer","maximum":-10}]})")
                  ->Equals(arrow::int64()));
  EXPECT_TRUE(PropertyType(R"({"allOf":[{"type":"boolean"}]})")->Equals(arrow::boolean()));
}

TEST(JsonSchemaMappingTest, JsonTextFallback) {
  EXPECT_TRUE(PropertyType("true")->Equals(arrow::utf8()));
  EXPECT_TRUE(PropertyType("{}")->Equals(arrow::utf8()));
  EXPECT_TRUE(PropertyType(R"({"type":"object"})")->Equals(arrow::utf8()));
  EXPECT_TRUE(PropertyType(R"({"type":"array"})")->Equals(arrow::list(arrow::field("element", arrow::utf8(), true))));
  EXPECT_TRUE(PropertyField("{}", /*required=*/true)->nullable());
}

TEST(JsonSchemaMappingTest, LocalRefs) {
  JsonField f = MapOk(R"({"type":"object","properties":{
      "a":{"$ref":"#/definitions/Money"},
      "b":{"$ref":"#/$defs/Point"},
      "c":{"$ref":"#/definitions/Money"},
      "d":{"$ref":"#/definitions/we~1ird%20name"}},
    "definitions":{"Money":{"type":"number"},"we/ird name":{"type":"boolean"}},
    "$defs":{"Point":{"type":"object","properties":{"x":{"$ref":"#/definitions/Money"}}}}})");
  auto schema = ToArrowSchema(f.type);
  ASSERT_TRUE(schema.ok());
  EXPECT_TRUE((*schema)->field(0)->type()->Equals(arrow::float64()));
  EXPECT_TRUE((*schema)->field(1)->type()->Equals(arrow::struct_({arrow::field("x", arrow::float64())})));
  EXPECT_TRUE((*schema)->field(2)->type()->Equals(arrow::float64()));
  EXPECT_TRUE((*schema)->field(3)->type()->Equals(arrow::boolean()));
  Status missing = MapError(R"({"properties":{"a":{"$ref":"#/definitions/Nope"}}})");
  EXPECT_EQ(missing.code(), StatusCode::kInvalidArgument);
  EXPECT_NE(missing.message().find("#/properties/a/$ref"), std::string::npos) << missing.message();
  EXPECT_EQ(MapError(R"({"properties":{"a":{"$ref":"#anchor"}}})").code(), StatusCode::kUnsupported);
}

TEST(JsonSchemaMappingTest, ExternalRefs) {
  std::map<std::string, std::string> docs = {
      {"address.json", R"({"type":"object","properties":{"city":{"type":"string"},"zip":{"$ref":"#/definitions/Zip"}},
                           "definitions":{"Zip":{"type":"integer"}}})"},
      {"money.json", R"({"definitions":{"Amount":{"type":"number"}}})"},
  };
  int calls = 0;
  RefResolver resolver = [&](const std::string& ref) -> Result<std::string> {
    ++calls;
    auto it = docs.find(ref);
    if (it == docs.end()) return Status::NotFound("no reference " + ref);
    return it->second;
  };
  JsonField f = MapOk(R"({"properties":{"home":{"$ref":"address.json"},"work":{"$ref":"address.json"},
                                        "amount":{"$ref":"money.json#/definitions/Amount"}}})",
                      resolver);
  auto schema = ToArrowSchema(f.type);
  ASSERT_TRUE(schema.ok());
  auto address = arrow::struct_({arrow::field("city", arrow::utf8()), arrow::field("zip", arrow::int64())});
  EXPECT_TRUE((*schema)->field(0)->type()->Equals(address));
  EXPECT_TRUE((*schema)->field(1)->type()->Equals(address));
  EXPECT_TRUE((*schema)->field(2)->type()->Equals(arrow::float64()));
  EXPECT_EQ(calls, 2);  // each document fetched once

  Status missing = MapError(R"({"properties":{"a":{"$ref":"nope.json"}}})", resolver);
  EXPECT_EQ(missing.code(), StatusCode::kNotFound);
  EXPECT_NE(missing.message().find("nope.json"), std::string::npos);
  EXPECT_EQ(MapError(R"({"properties":{"a":{"$ref":"other.json"}}})").code(), StatusCode::kUnsupported);
}

TEST(JsonSchemaMappingTest, RecursionIsRefused) {
  Status direct = MapError(R"({"properties":{"next":{"$ref":"#"}}})");
  EXPECT_EQ(direct.code(), StatusCode::kUnsupported);
  EXPECT_NE(direct.message().find("recursive"), std::string::npos) << direct.message();
  Status indirect = MapError(R"({"properties":{"root":{"$ref":"#/definitions/Node"}},
      "definitions":{"Node":{"type":"object","properties":{"kids":{"type":"array","items":{"$ref":"#/definitions/Node"}}}}}})");
  EXPECT_EQ(indirect.code(), StatusCode::kUnsupported);
  EXPECT_NE(indirect.message().find("#/definitions/Node/properties/kids/items/$ref"), std::string::npos)
      << indirect.message();
}

TEST(JsonSchemaMappingTest, RefusalsNameThePointer) {
  struct Case {
    const char* schema;
    StatusCode code;
    const char* pointer;
  };
  const Case cases[] = {
      {R"({"properties":{"u":{"oneOf":[{"type":"string"},{"type":"integer"}]}}})", StatusCode::kUnsupported,
       "#/properties/u/oneOf"},
      {R"({"properties":{"u":{"type":["string","integer"]}}})", StatusCode::kUnsupported, "#/properties/u/type"},
      {R"({"properties":{"u":{"type":"object","patternProperties":{"^a":{"type":"string"}}}}})",
       StatusCode::kUnsupported, "#/properties/u/patternProperties"},
      {R"({"properties":{"u":{"type":"array","items":[{"type":"string"}]}}})", StatusCode::kUnsupported,
       "#/properties/u/items"},
      {R"({"properties":{"u":{"type":"array","prefixItems":[{"type":"string"}]}}})", StatusCode::kUnsupported,
       "#/properties/u/prefixItems"},
      {R"({"properties":{"u":{"allOf":[{"type":"string"},{"minLength":1}]}}})", StatusCode::kUnsupported,
       "#/properties/u/allOf"},
      {R"({"properties":{"u":{"type":"null"}}})", StatusCode::kInvalidArgument, "#/properties/u/type"},
      {R"({"properties":{"u":false}})", StatusCode::kInvalidArgument, "#/properties/u"},
      {R"({"properties":{"u":{"type":"strin"}}})", StatusCode::kInvalidArgument, "#/properties/u/type"},
      {R"({"properties":{"a~b/c":{"oneOf":[{"type":"null"}]}}})", StatusCode::kInvalidArgument,
       "#/properties/a~0b~1c/oneOf"},
  };
  for (const auto& c : cases) {
    Status st = MapError(c.schema);
    EXPECT_EQ(st.code(), c.code) << c.schema << ": " << st.ToString();
    EXPECT_NE(st.message().find(c.pointer), std::string::npos) << c.schema << ": " << st.message();
  }
  EXPECT_EQ(MapError("{not json").code(), StatusCode::kInvalidArgument);
}

TEST(JsonSchemaMappingTest, ExponentialRefsAreBounded) {
  // Each definition uses the next twice: 2^30 nodes if expanded naively.
  std::string defs;
  for (int i = 0; i < 30; ++i) {
    defs += (i ? "," : "") + ("\"d" + std::to_string(i) + "\":{\"type\":\"object\",\"properties\":{\"a\":{\"$ref\":\"#/definitions/d" +
                              std::to_string(i + 1) + "\"},\"b\":{\"$ref\":\"#/definitions/d" + std::to_string(i + 1) + "\"}}}");
  }
  defs += ",\"d30\":{\"type\":\"string\"}";
  Status st = MapError(R"({"properties":{"x":{"$ref":"#/definitions/d0"}},"definitions":{)" + defs + "}}");
  EXPECT_EQ(st.code(), StatusCode::kUnsupported) << st.ToString();
}

}  // namespace
}  // namespace floe::json
