#include "floe/delta/schema_json_internal.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "field_test_util.h"

namespace floe::delta {
namespace {

using schema::NestedField;
using schema::Type;
using schema::TypeId;
using testing::F;

schema::Schema EveryType() {
  schema::Schema s;
  int id = 1;
  for (auto [name, t] : std::vector<std::pair<std::string, TypeId>>{
           {"b", TypeId::kBoolean}, {"i", TypeId::kInt}, {"l", TypeId::kLong}, {"f", TypeId::kFloat},
           {"d", TypeId::kDouble}, {"day", TypeId::kDate}, {"s", TypeId::kString}, {"bin", TypeId::kBinary},
           {"tstz", TypeId::kTimestampTz}, {"ts", TypeId::kTimestamp}}) {
    s.fields.push_back(F(id++, name, Type::Primitive(t), name == "l"));
  }
  s.fields.push_back(F(id++, "dec", Type::Decimal(9, 2)));
  s.fields.push_back(F(id++, "u", Type::Primitive(TypeId::kUuid)));
  s.fields.push_back(F(id++, "fx", Type::Fixed(4)));
  s.fields.push_back(F(20, "st", Type::Struct({F(21, "x", Type::Primitive(TypeId::kLong), true)})));
  s.fields.push_back(F(22, "arr", Type::List(F(23, "element", Type::Primitive(TypeId::kString), true))));
  s.fields.push_back(F(24, "m", Type::Map(F(25, "key", Type::Primitive(TypeId::kString), true),
                                          F(26, "value", Type::Primitive(TypeId::kInt)))));
  return s;
}

TEST(DeltaSchemaJson, EveryTypeHasItsDeltaName) {
  auto text = ToSchemaString(EveryType());
  ASSERT_TRUE(text.ok()) << text.status().ToString();
  auto j = nlohmann::json::parse(*text);
  std::map<std::string, nlohmann::json> by_name;
  for (const auto& f : j["fields"]) by_name[f["name"]] = f;
  EXPECT_EQ(by_name["b"]["type"], "boolean");
  EXPECT_EQ(by_name["i"]["type"], "integer");
  EXPECT_EQ(by_name["l"]["type"], "long");
  EXPECT_EQ(by_name["l"]["nullable"], false);
  EXPECT_EQ(by_name["f"]["type"], "float");
  EXPECT_EQ(by_name["d"]["type"], "double");
  EXPECT_EQ(by_name["day"]["type"], "date");
  EXPECT_EQ(by_name["s"]["type"], "string");
  EXPECT_EQ(by_name["bin"]["type"], "binary");
  EXPECT_EQ(by_name["tstz"]["type"], "timestamp");
  EXPECT_EQ(by_name["ts"]["type"], "timestamp_ntz");
  EXPECT_EQ(by_name["dec"]["type"], "decimal(9,2)");
  EXPECT_EQ(by_name["u"]["type"], "binary");
  EXPECT_EQ(by_name["fx"]["type"], "binary");
  EXPECT_EQ(by_name["st"]["type"]["type"], "struct");
  EXPECT_EQ(by_name["st"]["type"]["fields"][0]["metadata"]["delta.columnMapping.id"], 21);
  EXPECT_EQ(by_name["arr"]["type"]["containsNull"], false);
  EXPECT_EQ(by_name["arr"]["metadata"]["delta.columnMapping.nested.ids"]["arr.element"], 23);
  EXPECT_EQ(by_name["m"]["type"]["valueContainsNull"], true);
  EXPECT_EQ(by_name["m"]["metadata"]["delta.columnMapping.nested.ids"]["m.value"], 26);
  EXPECT_EQ(by_name["s"]["metadata"]["delta.columnMapping.physicalName"], "s");
}

TEST(DeltaSchemaJson, RoundTripKeepsIdsExactly) {
  const auto s = EveryType();
  auto parsed = ParseSchemaString(*ToSchemaString(s));
  ASSERT_TRUE(parsed.ok()) << parsed.status().ToString();
  // uuid and fixed come back as binary (Delta has no such types); everything else, ids included, is equal.
  ASSERT_EQ(parsed->fields.size(), s.fields.size());
  for (std::size_t i = 0; i < s.fields.size(); ++i) {
    const auto& a = s.fields[i];
    const auto& b = parsed->fields[i];
    EXPECT_EQ(a.id, b.id) << a.name;
    EXPECT_EQ(a.required, b.required) << a.name;
    if (a.type->id() == TypeId::kUuid || a.type->id() == TypeId::kFixed) {
      EXPECT_EQ(b.type->id(), TypeId::kBinary);
    } else {
      EXPECT_TRUE(a.type->Equals(*b.type)) << a.name << ": " << b.type->ToString();
    }
  }
}

TEST(DeltaSchemaJson, TimeIsUnsupportedNamingTheColumn) {
  schema::Schema s;
  s.fields.push_back(F(1, "outer", Type::Struct({F(2, "at", Type::Primitive(TypeId::kTime))})));
  auto text = ToSchemaString(s);
  ASSERT_FALSE(text.ok());
  EXPECT_EQ(text.status().code(), StatusCode::kUnsupported);
  EXPECT_NE(text.status().ToString().find("outer.at"), std::string::npos) << text.status().ToString();
}

TEST(DeltaSchemaJson, WithoutColumnMappingIdsAreAssignedFresh) {
  const std::string text =
      R"({"type":"struct","fields":[{"name":"a","type":"short","nullable":true,"metadata":{}},)"
      R"({"name":"b","type":{"type":"array","elementType":"long","containsNull":true},"nullable":false,"metadata":{}}]})";
  auto parsed = ParseSchemaString(text);
  ASSERT_TRUE(parsed.ok()) << parsed.status().ToString();
  EXPECT_EQ(parsed->fields[0].id, 1);
  EXPECT_EQ(parsed->fields[0].type->id(), TypeId::kInt);
  EXPECT_EQ(parsed->fields[1].id, 2);
  EXPECT_TRUE(parsed->fields[1].required);
  EXPECT_EQ(parsed->fields[1].type->element().id, 3);
}

TEST(DeltaSchemaJson, BadSchemaStringsAreErrors) {
  EXPECT_FALSE(ParseSchemaString("not json").ok());
  EXPECT_FALSE(ParseSchemaString(R"({"type":"struct"})").ok());
  auto v = ParseSchemaString(R"({"type":"struct","fields":[{"name":"v","type":"variant","nullable":true}]})");
  ASSERT_FALSE(v.ok());
  EXPECT_NE(v.status().ToString().find("'v'"), std::string::npos);
}

}  // namespace
}  // namespace floe::delta
