#include <gtest/gtest.h>

#include <string>

#include "floe/schema/json.h"
#include "schema_test_util.h"

namespace floe::schema {
namespace {

using nlohmann::json;
using testing::ErrorOf;
using testing::J;
using testing::MustParseSchema;

// A schema with one field of this type (given as JSON text).
std::string OneField(const std::string& type_json, const std::string& extra = "") {
  return R"({"type":"struct","schema-id":0,"fields":[{"id":1,"name":"c","required":false,"type":)" + type_json +
         extra + "}]}";
}

std::string SchemaError(const std::string& text) { return ErrorOf(SchemaFromJson(J(text))); }

TEST(SchemaJson, EveryTypeRoundTripsToTheSameJson) {
  const json input = J(testing::kEveryTypeSchema);
  Result<Schema> parsed = SchemaFromJson(input);
  ASSERT_TRUE(parsed.ok()) << parsed.status().ToString();
  EXPECT_EQ(parsed->schema_id, 7);
  EXPECT_EQ(parsed->identifier_field_ids, (std::vector<int>{1, 30}));
  const json output = SchemaToJson(*parsed);
  EXPECT_EQ(output, input) << output.dump(2);
  Result<Schema> again = SchemaFromJson(output);
  ASSERT_TRUE(again.ok()) << again.status().ToString();
  EXPECT_TRUE(again->AsStruct()->Equals(*parsed->AsStruct()));
}

TEST(SchemaJson, FieldsCarryDocsAndDefaultsAsRead) {
  Schema s = MustParseSchema(testing::kEveryTypeSchema);
  EXPECT_EQ(s.FindById(1)->doc, "primary key");
  EXPECT_EQ(s.FindById(22)->initial_default_json, "34");
  EXPECT_EQ(s.FindById(22)->write_default_json, "35");
  EXPECT_EQ(s.FindById(25)->initial_default_json, R"({"42":"x"})");
  EXPECT_FALSE(s.FindById(2)->initial_default_json.has_value());
  EXPECT_EQ(s.FindById(23)->type->id(), TypeId::kUnknown);
  EXPECT_EQ(s.FindById(24)->type->id(), TypeId::kVariant);
}

TEST(SchemaJson, EachPrimitiveTypeStringRoundTrips) {
  for (const char* t : {"boolean", "int", "long", "float", "double", "date", "time", "timestamp", "timestamptz",
                        "timestamp_ns", "timestamptz_ns", "string", "uuid", "binary", "unknown", "variant",
                        "decimal(1,0)", "decimal(38,38)", "decimal(9,2)", "fixed[1]", "fixed[16]", "fixed[1000]"}) {
    Result<TypePtr> type = TypeFromJson(json(t));
    ASSERT_TRUE(type.ok()) << t << ": " << type.status().ToString();
    EXPECT_EQ(TypeToJson(**type), json(t));
    EXPECT_EQ((*type)->ToString(), t);
  }
}

TEST(SchemaJson, TypeStringsAreReadLikeJavaReadsThem) {
  // Java lower-cases type strings and allows spaces inside the parameters; pyiceberg and
  // Java write "decimal(9, 2)".
  const std::pair<const char*, const char*> cases[] = {
      {"LONG", "long"},
      {"TimestampTZ", "timestamptz"},
      {"decimal(9, 2)", "decimal(9,2)"},
      {"DECIMAL( 10 ,0 )", "decimal(10,0)"},
      {"fixed[ 4 ]", "fixed[4]"},
  };
  for (const auto& [in, out] : cases) {
    Result<TypePtr> type = TypeFromJson(json(in));
    ASSERT_TRUE(type.ok()) << in << ": " << type.status().ToString();
    EXPECT_EQ(TypeToJson(**type), json(out)) << in;
  }
}

TEST(SchemaJson, NestedTypesRoundTripOnTheirOwn) {
  for (const char* t : {
           R"({"type":"list","element-id":3,"element":"string","element-required":true})",
           R"({"type":"map","key-id":4,"key":"string","value-id":5,"value":"double","value-required":false})",
           R"({"type":"struct","fields":[]})",
           R"({"type":"struct","fields":[{"id":1,"name":"a","required":true,"type":{"type":"list","element-id":2,"element":{"type":"list","element-id":3,"element":"int","element-required":false},"element-required":true}}]})",
       }) {
    Result<TypePtr> type = TypeFromJson(J(t));
    ASSERT_TRUE(type.ok()) << t << ": " << type.status().ToString();
    EXPECT_EQ(TypeToJson(**type), J(t));
  }
}

TEST(SchemaJson, ToleratesUnknownKeysAndNulls) {
  Schema s = MustParseSchema(R"({"type":"struct","schema-id":1,"future-key":[1,2],
    "fields":[{"id":1,"name":"a","required":true,"type":"int","doc":null,"new-thing":{"x":1}}]})");
  ASSERT_EQ(s.fields.size(), 1u);
  EXPECT_EQ(s.fields[0].doc, "");
  // v1 schemas may lack a schema-id.
  EXPECT_EQ(MustParseSchema(R"({"type":"struct","fields":[]})").schema_id, 0);
}

TEST(SchemaJson, RejectsMissingOrMistypedIds) {
  EXPECT_EQ(SchemaError(R"({"type":"struct","fields":[{"name":"a","required":true,"type":"int"}]})"),
            "field 'a': missing \"id\"");
  EXPECT_EQ(SchemaError(R"({"type":"struct","fields":[{"id":"1","name":"a","required":true,"type":"int"}]})"),
            "field 'a': \"id\" must be an integer, got a string");
  EXPECT_EQ(SchemaError(R"({"type":"struct","fields":[{"id":1.5,"name":"a","required":true,"type":"int"}]})"),
            "field 'a': \"id\" must be an integer, got a non-integer number");
  EXPECT_EQ(SchemaError(R"({"type":"struct","fields":[{"id":-3,"name":"a","required":true,"type":"int"}]})"),
            "field 'a': \"id\" must not be negative, got -3");
  EXPECT_EQ(SchemaError(R"({"type":"struct","fields":[{"id":4294967297,"name":"a","required":true,"type":"int"}]})"),
            "field 'a': \"id\" 4294967297 is outside the 32-bit integer range");
  EXPECT_EQ(SchemaError(OneField(R"({"type":"list","element":"int","element-required":true})")),
            "field 'c': missing \"element-id\"");
  EXPECT_EQ(SchemaError(OneField(R"({"type":"map","key-id":2,"key":"int","value":"int","value-required":true})")),
            "field 'c': missing \"value-id\"");
}

TEST(SchemaJson, RejectsMissingStructure) {
  EXPECT_EQ(SchemaError(R"({"type":"struct","fields":[{"id":1,"required":true,"type":"int"}]})"),
            "a top-level field: missing \"name\"");
  EXPECT_EQ(SchemaError(R"({"type":"struct","fields":[{"id":1,"name":"a","type":"int"}]})"),
            "field 'a': missing \"required\"");
  EXPECT_EQ(SchemaError(R"({"type":"struct","fields":[{"id":1,"name":"a","required":"yes","type":"int"}]})"),
            "field 'a': \"required\" must be a boolean, got a string");
  EXPECT_EQ(SchemaError(R"({"type":"struct","fields":[{"id":1,"name":"a","required":true}]})"),
            "field 'a': missing \"type\"");
  EXPECT_EQ(SchemaError(OneField(R"({"type":"list","element-id":2,"element":"int"})")),
            "field 'c': missing \"element-required\"");
  EXPECT_EQ(SchemaError(OneField(R"({"type":"map","key-id":2,"value-id":3,"value":"int","value-required":true})")),
            "field 'c': missing \"key\"");
  EXPECT_EQ(SchemaError(R"({"type":"struct"})"), "schema: missing \"fields\"");
  EXPECT_EQ(SchemaError(R"({"type":"struct","fields":{}})"), "schema: \"fields\" must be an array, got an object");
  EXPECT_EQ(SchemaError(R"({"fields":[]})"), "schema: missing \"type\"");
  EXPECT_EQ(SchemaError(R"({"type":"list","fields":[]})"), "schema: \"type\" must be \"struct\", got \"list\"");
  EXPECT_EQ(SchemaError(R"([1])"), "schema: expected an object, got an array");
  EXPECT_EQ(SchemaError(R"({"type":"struct","fields":[7]})"),
            "a top-level field: expected an object, got an integer");
  EXPECT_EQ(SchemaError(OneField("42")), "field 'c': a type must be a string or an object, got an integer");
  EXPECT_EQ(SchemaError(OneField(R"({"type":"array","items":"int"})")),
            "field 'c': unknown nested type \"array\" (expected \"struct\", \"list\" or \"map\")");
  EXPECT_EQ(SchemaError(OneField(R"("int")", R"(,"doc":5)")), "field 'c': \"doc\" must be a string, got an integer");
}

TEST(SchemaJson, RejectsDuplicateFieldIdsAnywhere) {
  EXPECT_EQ(SchemaError(R"({"type":"struct","fields":[
      {"id":1,"name":"a","required":true,"type":"int"},
      {"id":1,"name":"b","required":true,"type":"int"}]})"),
            "schema 0: field id 1 is used twice: by 'a' and by 'b'");
  EXPECT_EQ(SchemaError(R"({"type":"struct","schema-id":3,"fields":[
      {"id":1,"name":"a","required":true,"type":"int"},
      {"id":2,"name":"m","required":true,"type":{"type":"map","key-id":3,"key":"string","value-id":1,"value":"int","value-required":true}}]})"),
            "schema 3: field id 1 is used twice: by 'a' and by 'm.value'");
  EXPECT_EQ(ErrorOf(TypeFromJson(J(R"({"type":"list","element-id":5,"element-required":true,
      "element":{"type":"struct","fields":[{"id":5,"name":"x","required":true,"type":"int"}]}})"))),
            "field id 5 is used twice: by 'element' and by 'element.x'");
}

TEST(SchemaJson, RejectsDuplicateNamesInAStruct) {
  EXPECT_EQ(SchemaError(R"({"type":"struct","fields":[
      {"id":1,"name":"a","required":true,"type":"int"},
      {"id":2,"name":"a","required":true,"type":"long"}]})"),
            "schema 0: field name 'a' appears twice in the schema");
  EXPECT_EQ(SchemaError(R"({"type":"struct","fields":[{"id":1,"name":"s","required":true,"type":{"type":"list","element-id":2,"element-required":true,"element":
      {"type":"struct","fields":[{"id":3,"name":"x","required":true,"type":"int"},{"id":4,"name":"x","required":true,"type":"int"}]}}}]})"),
            "schema 0: field name 'x' appears twice in 's.element'");
  // Names differing in case are different names (Java is case-sensitive by default).
  MustParseSchema(R"({"type":"struct","fields":[{"id":1,"name":"a","required":true,"type":"int"},
                                                {"id":2,"name":"A","required":true,"type":"int"}]})");
}

TEST(SchemaJson, RejectsBadTypeStrings) {
  EXPECT_EQ(SchemaError(OneField("\"strin\"")), "field 'c': unknown type 'strin' (did you mean 'string'?)");
  EXPECT_EQ(SchemaError(OneField("\"decimal(39,2)\"")),
            "field 'c': invalid type 'decimal(39,2)': decimal precision 39 is outside 1..38");
  EXPECT_EQ(SchemaError(OneField("\"decimal(0,0)\"")),
            "field 'c': invalid type 'decimal(0,0)': decimal precision 0 is outside 1..38");
  EXPECT_EQ(SchemaError(OneField("\"decimal(2,3)\"")),
            "field 'c': invalid type 'decimal(2,3)': decimal scale 3 is greater than its precision 2");
  EXPECT_EQ(SchemaError(OneField("\"decimal(9)\"")), "field 'c': invalid type 'decimal(9)': expected decimal(P,S)");
  EXPECT_EQ(SchemaError(OneField("\"decimal(9,-1)\"")),
            "field 'c': invalid type 'decimal(9,-1)': expected decimal(P,S)");
  EXPECT_EQ(SchemaError(OneField("\"decimal(9,2)x\"")),
            "field 'c': invalid type 'decimal(9,2)x': expected decimal(P,S)");
  EXPECT_EQ(SchemaError(OneField("\"decimal(99999999999,2)\"")),
            "field 'c': invalid type 'decimal(99999999999,2)': expected decimal(P,S)");
  EXPECT_EQ(SchemaError(OneField("\"fixed[0]\"")),
            "field 'c': invalid type 'fixed[0]': a fixed type needs a length of at least 1");
  EXPECT_EQ(SchemaError(OneField("\"fixed[x]\"")), "field 'c': invalid type 'fixed[x]': expected fixed[L]");
  EXPECT_EQ(SchemaError(OneField("\"fixed(16)\"")), "field 'c': invalid type 'fixed(16)': expected fixed[L]");
  EXPECT_EQ(SchemaError(OneField("\" long\"")), "field 'c': unknown type ' long' (did you mean 'long'?)");
  Result<Schema> geo = SchemaFromJson(J(OneField("\"geometry(srid:4326)\"")));
  ASSERT_FALSE(geo.ok());
  EXPECT_EQ(geo.status().code(), StatusCode::kUnsupported);
  EXPECT_EQ(SchemaError(OneField(R"({"type":"list","element-id":2,"element-required":true,"element":"lnog"})")),
            "field 'c.element': unknown type 'lnog' (did you mean 'long'?)");
}

TEST(SchemaJson, RejectsInvalidIdentifierFields) {
  auto with_ids = [](const std::string& ids) {
    return R"({"type":"struct","identifier-field-ids":)" + ids + R"(,"fields":[
      {"id":1,"name":"id","required":true,"type":"long"},
      {"id":2,"name":"opt","required":false,"type":"long"},
      {"id":3,"name":"f","required":true,"type":"double"},
      {"id":4,"name":"s","required":false,"type":{"type":"struct","fields":[{"id":5,"name":"x","required":true,"type":"int"}]}},
      {"id":6,"name":"l","required":true,"type":{"type":"list","element-id":7,"element-required":true,"element":"int"}},
      {"id":8,"name":"r","required":true,"type":{"type":"struct","fields":[{"id":9,"name":"y","required":true,"type":"int"}]}}]})";
  };
  EXPECT_EQ(MustParseSchema(with_ids("[1, 9]")).identifier_field_ids, (std::vector<int>{1, 9}));
  EXPECT_EQ(SchemaError(with_ids("[42]")), "schema 0: identifier field id 42 is not a field of the schema");
  EXPECT_EQ(SchemaError(with_ids("[2]")), "schema 0: identifier field id 2 ('opt') must be required");
  EXPECT_EQ(SchemaError(with_ids("[3]")), "schema 0: identifier field id 3 ('f') must not be a float or double");
  EXPECT_EQ(SchemaError(with_ids("[5]")), "schema 0: identifier field id 5 ('s.x') must not be inside an optional struct");
  EXPECT_EQ(SchemaError(with_ids("[7]")), "schema 0: identifier field id 7 ('l.element') must not be inside list 'l'");
  EXPECT_EQ(SchemaError(with_ids("[8]")),
            "schema 0: identifier field id 8 ('r') must be a primitive type, not struct<y: required int>");
  EXPECT_EQ(SchemaError(with_ids("[1, 1]")), "schema 0: identifier field id 1 is listed twice");
  EXPECT_EQ(SchemaError(with_ids(R"(["1"])")),
            "schema: an entry of \"identifier-field-ids\" must be an integer, got a string");
  EXPECT_EQ(SchemaError(with_ids("5")), "schema: \"identifier-field-ids\" must be an array, got an integer");
}

TEST(SchemaJson, RejectsAbsurdNesting) {
  std::string type = "\"int\"";
  for (int i = 0; i < 200; ++i) {
    type = R"({"type":"list","element-id":)" + std::to_string(i + 2) + R"(,"element-required":true,"element":)" +
           type + "}";
  }
  EXPECT_CONTAINS(SchemaError(OneField(type)), "types nest deeper than 128 levels");
}

TEST(SchemaJson, WritesIdentifierFieldIdsOnlyWhenThereAreSome) {
  Schema s = MustParseSchema(R"({"type":"struct","schema-id":2,"fields":[{"id":1,"name":"a","required":true,"type":"int"}]})");
  EXPECT_EQ(SchemaToJson(s), J(R"({"type":"struct","schema-id":2,"fields":[{"id":1,"name":"a","required":true,"type":"int"}]})"));
}

}  // namespace
}  // namespace floe::schema
