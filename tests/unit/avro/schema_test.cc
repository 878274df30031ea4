#include "floe/avro/schema.h"

#include <gtest/gtest.h>

#include <string>

namespace floe::avro {
namespace {

NodePtr MustParse(const std::string& json) {
  auto r = ParseSchema(json);
  EXPECT_TRUE(r.ok()) << r.status().ToString() << "\n" << json;
  return r.ok() ? *r : nullptr;
}

// The error message, for schemas that must be rejected.
std::string Rejection(const std::string& json) {
  auto r = ParseSchema(json);
  EXPECT_FALSE(r.ok()) << "accepted: " << json;
  if (r.ok()) return "";
  EXPECT_EQ(r.status().code(), StatusCode::kInvalidArgument);
  return r.status().message();
}

std::string Record(const std::string& fields, const std::string& extra = "") {
  return R"({"type":"record","name":"R",)" + extra + R"("fields":[)" + fields + "]}";
}

TEST(AvroSchema, PrimitivesAsNamesAndObjects) {
  const std::pair<const char*, Type> cases[] = {
      {"null", Type::kNull},     {"boolean", Type::kBoolean}, {"int", Type::kInt},     {"long", Type::kLong},
      {"float", Type::kFloat},   {"double", Type::kDouble},   {"bytes", Type::kBytes}, {"string", Type::kString},
  };
  for (const auto& [name, type] : cases) {
    auto as_name = MustParse(std::string("\"") + name + "\"");
    auto as_object = MustParse(std::string(R"({"type":")") + name + "\"}");
    ASSERT_TRUE(as_name && as_object) << name;
    EXPECT_EQ(as_name->type, type) << name;
    EXPECT_EQ(as_object->type, type) << name;
    EXPECT_EQ(as_name->logical_type, LogicalType::kNone);
    EXPECT_EQ(TypeName(type), name);
  }
}

TEST(AvroSchema, RecordWithEveryComplexType) {
  auto n = MustParse(Record(R"(
    {"name":"tags","type":{"type":"array","items":"string"}},
    {"name":"attrs","type":{"type":"map","values":"long"}},
    {"name":"color","type":{"type":"enum","name":"Color","symbols":["RED","GREEN"],"default":"RED"}},
    {"name":"hash","type":{"type":"fixed","name":"Hash","size":16}},
    {"name":"maybe","type":["null","int"]},
    {"name":"point","type":{"type":"record","name":"Point","fields":[{"name":"x","type":"double"}]}})"));
  ASSERT_TRUE(n);
  EXPECT_EQ(n->type, Type::kRecord);
  EXPECT_EQ(n->full_name, "R");
  ASSERT_EQ(n->fields.size(), 6u);
  EXPECT_EQ(n->fields[0].name, "tags");
  EXPECT_EQ(n->fields[0].node->type, Type::kArray);
  EXPECT_EQ(n->fields[0].node->items->type, Type::kString);
  EXPECT_EQ(n->fields[1].node->type, Type::kMap);
  EXPECT_EQ(n->fields[1].node->values->type, Type::kLong);
  const Node& color = *n->fields[2].node;
  EXPECT_EQ(color.type, Type::kEnum);
  EXPECT_EQ(color.symbols, (std::vector<std::string>{"RED", "GREEN"}));
  EXPECT_EQ(color.enum_default, "RED");
  EXPECT_EQ(n->fields[3].node->fixed_size, 16);
  const Node& maybe = *n->fields[4].node;
  ASSERT_EQ(maybe.branches.size(), 2u);
  EXPECT_EQ(maybe.null_branch(), 0);
  EXPECT_EQ(maybe.branches[1]->type, Type::kInt);
  EXPECT_EQ(n->fields[5].node->fields[0].node->type, Type::kDouble);
}

TEST(AvroSchema, NamespacesAreInheritedAndReferencesResolveShortOrFull) {
  auto n = MustParse(R"({"type":"record","name":"Order","namespace":"com.acme","fields":[
    {"name":"customer","type":{"type":"record","name":"Customer","fields":[
      {"name":"address","type":{"type":"record","name":"Address","namespace":"com.acme.geo",
                                "fields":[{"name":"zip","type":"string"}]}},
      {"name":"billing","type":"com.acme.geo.Address"}]}},
    {"name":"other","type":"Customer"},
    {"name":"also","type":{"type":"com.acme.Customer"}},
    {"name":"hash","type":{"type":"fixed","name":"org.x.Hash","namespace":"ignored","size":4}},
    {"name":"kind","type":{"type":"enum","name":"Kind","symbols":["A"],"aliases":["OldKind","x.y.Older"]}}]})");
  ASSERT_TRUE(n);
  EXPECT_EQ(n->full_name, "com.acme.Order");
  const Node& customer = *n->fields[0].node;
  EXPECT_EQ(customer.full_name, "com.acme.Customer");
  EXPECT_EQ(customer.fields[0].node->full_name, "com.acme.geo.Address");
  // A named type used twice is one shared node.
  EXPECT_EQ(customer.fields[1].node.get(), customer.fields[0].node.get());
  EXPECT_EQ(n->fields[1].node.get(), &customer);
  EXPECT_EQ(n->fields[2].node.get(), &customer);
  EXPECT_EQ(n->fields[3].node->full_name, "org.x.Hash");  // a dotted name ignores "namespace"
  EXPECT_EQ(n->fields[4].node->full_name, "com.acme.Kind");
  EXPECT_EQ(n->fields[4].node->aliases, (std::vector<std::string>{"com.acme.OldKind", "x.y.Older"}));
}

TEST(AvroSchema, ShortNameFallsBackToTheNullNamespace) {
  auto n = MustParse(R"({"type":"record","name":"Outer","namespace":"a.b","fields":[
    {"name":"top","type":{"type":"fixed","name":"Top","namespace":"","size":2}},
    {"name":"again","type":"Top"}]})");
  ASSERT_TRUE(n);
  EXPECT_EQ(n->fields[0].node->full_name, "Top");
  EXPECT_EQ(n->fields[1].node.get(), n->fields[0].node.get());
}

TEST(AvroSchema, NamespaceOfNestedTypesIsTheEnclosingTypes) {
  // Inner is defined inside com.x.Outer without a namespace: it is com.x.Inner, and the
  // bare reference "Inner" later resolves there.
  auto n = MustParse(R"({"type":"record","name":"com.x.Outer","fields":[
    {"name":"a","type":{"type":"record","name":"Inner","fields":[{"name":"v","type":"int"}]}},
    {"name":"b","type":["null","Inner"]}]})");
  ASSERT_TRUE(n);
  EXPECT_EQ(n->fields[0].node->full_name, "com.x.Inner");
  EXPECT_EQ(n->fields[1].node->branches[1].get(), n->fields[0].node.get());
}

TEST(AvroSchema, FieldDefaultsAndAliases) {
  auto n = MustParse(Record(R"(
    {"name":"a","type":"int","default":42},
    {"name":"b","type":["null","string"],"default":null},
    {"name":"c","type":{"type":"map","values":"int"},"default":{"k": 1},"aliases":["old_c"]},
    {"name":"d","type":"string"})"));
  ASSERT_TRUE(n);
  EXPECT_TRUE(n->fields[0].has_default);
  EXPECT_EQ(n->fields[0].default_json, "42");
  EXPECT_TRUE(n->fields[1].has_default);
  EXPECT_EQ(n->fields[1].default_json, "null");
  EXPECT_EQ(n->fields[2].default_json, R"({"k":1})");
  EXPECT_EQ(n->fields[2].aliases, (std::vector<std::string>{"old_c"}));
  EXPECT_FALSE(n->fields[3].has_default);
}

TEST(AvroSchema, ValidLogicalTypes) {
  struct Case {
    const char* json;
    LogicalType logical;
  };
  const Case cases[] = {
      {R"({"type":"bytes","logicalType":"decimal","precision":10,"scale":2})", LogicalType::kDecimal},
      {R"({"type":"fixed","name":"D","size":16,"logicalType":"decimal","precision":38,"scale":0})", LogicalType::kDecimal},
      {R"({"type":"string","logicalType":"uuid"})", LogicalType::kUuid},
      {R"({"type":"fixed","name":"U","size":16,"logicalType":"uuid"})", LogicalType::kUuid},
      {R"({"type":"int","logicalType":"date"})", LogicalType::kDate},
      {R"({"type":"int","logicalType":"time-millis"})", LogicalType::kTimeMillis},
      {R"({"type":"long","logicalType":"time-micros"})", LogicalType::kTimeMicros},
      {R"({"type":"long","logicalType":"timestamp-millis"})", LogicalType::kTimestampMillis},
      {R"({"type":"long","logicalType":"timestamp-micros"})", LogicalType::kTimestampMicros},
      {R"({"type":"long","logicalType":"timestamp-nanos"})", LogicalType::kTimestampNanos},
      {R"({"type":"long","logicalType":"local-timestamp-millis"})", LogicalType::kLocalTimestampMillis},
      {R"({"type":"long","logicalType":"local-timestamp-micros"})", LogicalType::kLocalTimestampMicros},
      {R"({"type":"long","logicalType":"local-timestamp-nanos"})", LogicalType::kLocalTimestampNanos},
      {R"({"type":"fixed","name":"Dur","size":12,"logicalType":"duration"})", LogicalType::kDuration},
  };
  for (const auto& c : cases) {
    auto n = MustParse(c.json);
    ASSERT_TRUE(n);
    EXPECT_EQ(n->logical_type, c.logical) << c.json;
  }
  auto d = MustParse(R"({"type":"bytes","logicalType":"decimal","precision":10,"scale":2})");
  EXPECT_EQ(d->precision, 10);
  EXPECT_EQ(d->scale, 2);
  EXPECT_EQ(MustParse(R"({"type":"bytes","logicalType":"decimal","precision":5})")->scale, 0);
  EXPECT_EQ(d->DisplayName(), "bytes (decimal(10,2))");
}

TEST(AvroSchema, LogicalTypesOnTheWrongBaseTypeAreIgnored) {
  const char* cases[] = {
      R"({"type":"string","logicalType":"date"})",
      R"({"type":"int","logicalType":"timestamp-millis"})",
      R"({"type":"long","logicalType":"time-millis"})",
      R"({"type":"int","logicalType":"time-micros"})",
      R"({"type":"fixed","name":"D","size":10,"logicalType":"duration"})",
      R"({"type":"fixed","name":"U","size":8,"logicalType":"uuid"})",
      R"({"type":"string","logicalType":"decimal","precision":4})",
      R"({"type":"long","logicalType":"no-such-type"})",
      R"({"type":"long","logicalType":7})",
  };
  for (const char* json : cases) {
    auto n = MustParse(json);
    ASSERT_TRUE(n);
    EXPECT_EQ(n->logical_type, LogicalType::kNone) << json;
  }
}

TEST(AvroSchema, UnknownTypeNamesTheFieldPathAndSuggests) {
  const std::string msg = Rejection(R"({"type":"record","name":"Order","namespace":"com.acme","fields":[
    {"name":"home","type":{"type":"record","name":"Address","fields":[{"name":"zip","type":"string"}]}},
    {"name":"customer","type":{"type":"record","name":"Customer","fields":[
      {"name":"address","type":"Adress"}]}}]})");
  EXPECT_EQ(msg, "field 'customer.address': unknown type 'Adress' (did you mean 'Address'?)");
  EXPECT_EQ(Rejection(R"("strng")"), "schema root: unknown type 'strng' (did you mean 'string'?)");
  EXPECT_NE(Rejection(Record(R"({"name":"xs","type":{"type":"array","items":"Nope"}})")).find("field 'xs[]'"),
            std::string::npos);
  EXPECT_NE(Rejection(Record(R"({"name":"m","type":{"type":"map","values":{"type":"wat"}}})")).find("field 'm{}'"),
            std::string::npos);
  EXPECT_NE(Rejection(Record(R"({"name":"u","type":["null","Nope"]})")).find("field 'u' (union branch 1)"),
            std::string::npos);
  // Forward references are not allowed: names must be defined before use.
  EXPECT_NE(Rejection(Record(R"({"name":"a","type":"Later"},
      {"name":"b","type":{"type":"fixed","name":"Later","size":1}})")).find("unknown type 'Later'"),
            std::string::npos);
}

TEST(AvroSchema, RejectsDuplicateNames) {
  EXPECT_NE(Rejection(Record(R"(
    {"name":"a","type":{"type":"fixed","name":"X","size":1}},
    {"name":"b","type":{"type":"enum","name":"X","symbols":["A"]}})")).find("duplicate name: type 'X'"),
            std::string::npos);
  // The same short name in different namespaces is fine.
  EXPECT_TRUE(MustParse(Record(R"(
    {"name":"a","type":{"type":"fixed","name":"X","namespace":"one","size":1}},
    {"name":"b","type":{"type":"fixed","name":"X","namespace":"two","size":1}})")));
}

TEST(AvroSchema, RejectsDuplicateFieldNames) {
  EXPECT_EQ(Rejection(Record(R"({"name":"a","type":"int"},{"name":"a","type":"long"})")),
            "field 'a': duplicate field name 'a' in record 'R'");
}

TEST(AvroSchema, RejectsUnionsInUnionsAndDuplicateBranches) {
  EXPECT_NE(Rejection(R"(["null",["int","string"]])").find("may not contain another union"), std::string::npos);
  EXPECT_EQ(Rejection(Record(R"({"name":"u","type":["int","string","int"]})")),
            "field 'u': union has two branches of type 'int' (branches 0 and 2)");
  // A logical type does not make a different branch type.
  EXPECT_NE(Rejection(R"(["int",{"type":"int","logicalType":"date"}])").find("two branches of type 'int'"),
            std::string::npos);
  EXPECT_NE(Rejection(R"([{"type":"array","items":"int"},{"type":"array","items":"long"}])").find("'array'"),
            std::string::npos);
  // Named types may share a union when their names differ, not when they are the same type.
  EXPECT_TRUE(MustParse(R"([{"type":"fixed","name":"A","size":1},{"type":"fixed","name":"B","size":1}])"));
  EXPECT_NE(Rejection(R"([{"type":"fixed","name":"A","size":1},"A"])").find("two branches of type 'A'"),
            std::string::npos);
}

TEST(AvroSchema, RejectsInvalidDecimals) {
  EXPECT_EQ(Rejection(Record(R"({"name":"amount","type":{"type":"bytes","logicalType":"decimal","precision":0}})")),
            "field 'amount': invalid decimal: precision 0 must be positive");
  EXPECT_NE(Rejection(R"({"type":"bytes","logicalType":"decimal","precision":-3})").find("must be positive"),
            std::string::npos);
  EXPECT_NE(Rejection(R"({"type":"bytes","logicalType":"decimal"})").find("\"precision\" must be an integer"),
            std::string::npos);
  EXPECT_NE(Rejection(R"({"type":"bytes","logicalType":"decimal","precision":"10"})").find("must be an integer"),
            std::string::npos);
  EXPECT_NE(Rejection(R"({"type":"bytes","logicalType":"decimal","precision":4,"scale":5})")
                .find("scale 5 must be between 0 and the precision 4"),
            std::string::npos);
  EXPECT_NE(Rejection(R"({"type":"bytes","logicalType":"decimal","precision":4,"scale":-1})").find("scale -1"),
            std::string::npos);
  // fixed(4) holds at most 9 digits: 2^31 - 1 = 2147483647.
  EXPECT_TRUE(MustParse(R"({"type":"fixed","name":"F","size":4,"logicalType":"decimal","precision":9})"));
  EXPECT_NE(Rejection(R"({"type":"fixed","name":"F","size":4,"logicalType":"decimal","precision":10})")
                .find("does not fit in fixed 'F' of 4 bytes (at most 9 digits)"),
            std::string::npos);
  EXPECT_TRUE(MustParse(R"({"type":"fixed","name":"F","size":16,"logicalType":"decimal","precision":38})"));
  EXPECT_FALSE(ParseSchema(R"({"type":"fixed","name":"F","size":16,"logicalType":"decimal","precision":39})").ok());
  EXPECT_TRUE(MustParse(R"({"type":"fixed","name":"F","size":1,"logicalType":"decimal","precision":2})"));
  EXPECT_FALSE(ParseSchema(R"({"type":"fixed","name":"F","size":1,"logicalType":"decimal","precision":3})").ok());
  // Bytes have no size limit at parse time (the Arrow mapping limits the precision).
  EXPECT_TRUE(MustParse(R"({"type":"bytes","logicalType":"decimal","precision":100})"));
}

TEST(AvroSchema, RejectsDirectRecursion) {
  const std::string msg = Rejection(R"({"type":"record","name":"Node","namespace":"list","fields":[
    {"name":"value","type":"int"},{"name":"next","type":["null","Node"]}]})");
  EXPECT_EQ(msg,
            "field 'next' (union branch 1): type 'list.Node' is recursive (list.Node -> list.Node); "
            "Floe cannot store recursive schemas in a table");
  EXPECT_NE(Rejection(R"({"type":"record","name":"Tree","fields":[
    {"name":"children","type":{"type":"array","items":"Tree"}}]})").find("recursive"),
            std::string::npos);
  EXPECT_NE(Rejection(R"({"type":"record","name":"M","fields":[
    {"name":"m","type":{"type":"map","values":{"type":"M"}}}]})").find("recursive"),
            std::string::npos);
}

TEST(AvroSchema, RejectsIndirectRecursion) {
  const std::string msg = Rejection(R"({"type":"record","name":"A","fields":[
    {"name":"b","type":{"type":"record","name":"B","fields":[
      {"name":"c","type":{"type":"record","name":"C","fields":[{"name":"back","type":"A"}]}}]}}]})");
  EXPECT_EQ(msg, "field 'b.c.back': type 'A' is recursive (A -> B -> C -> A); "
                 "Floe cannot store recursive schemas in a table");
}

TEST(AvroSchema, ReusingANamedTypeIsNotRecursion) {
  auto n = MustParse(R"({"type":"record","name":"Trip","fields":[
    {"name":"from","type":{"type":"record","name":"Place","fields":[{"name":"lat","type":"double"}]}},
    {"name":"to","type":"Place"},
    {"name":"stops","type":{"type":"array","items":"Place"}}]})");
  ASSERT_TRUE(n);
  EXPECT_EQ(n->fields[2].node->items.get(), n->fields[0].node.get());
}

TEST(AvroSchema, RejectsMalformedSchemas) {
  EXPECT_NE(Rejection("{").find("not valid JSON"), std::string::npos);
  EXPECT_NE(Rejection("").find("not valid JSON"), std::string::npos);
  EXPECT_NE(Rejection("42").find("expected a type name"), std::string::npos);
  EXPECT_NE(Rejection(R"({"name":"x"})").find("no \"type\""), std::string::npos);
  EXPECT_NE(Rejection(R"({"type":{"type":"int"}})").find("must be a string"), std::string::npos);
  EXPECT_NE(Rejection(R"({"type":"record","fields":[]})").find("no \"name\""), std::string::npos);
  EXPECT_NE(Rejection(R"({"type":"record","name":"R"})").find("needs a \"fields\" array"), std::string::npos);
  EXPECT_NE(Rejection(R"({"type":"record","name":"9lives","fields":[]})").find("invalid name '9lives'"),
            std::string::npos);
  EXPECT_NE(Rejection(R"({"type":"record","name":"a..b","fields":[]})").find("invalid name"), std::string::npos);
  EXPECT_NE(Rejection(R"({"type":"record","name":"int","fields":[]})").find("redefines the primitive"),
            std::string::npos);
  EXPECT_NE(Rejection(Record(R"({"name":"bad-name","type":"int"})")).find("invalid field name"), std::string::npos);
  EXPECT_NE(Rejection(Record(R"({"name":"a"})")).find("field 'a': field has no \"type\""), std::string::npos);
  EXPECT_NE(Rejection(Record(R"("a")")).find("field #0 of record 'R'"), std::string::npos);
  EXPECT_NE(Rejection(R"({"type":"fixed","name":"F"})").find("needs a \"size\""), std::string::npos);
  EXPECT_NE(Rejection(R"({"type":"fixed","name":"F","size":-1})").find("needs a \"size\""), std::string::npos);
  EXPECT_NE(Rejection(R"({"type":"fixed","name":"F","size":1.5})").find("needs a \"size\""), std::string::npos);
  EXPECT_NE(Rejection(R"({"type":"enum","name":"E"})").find("no \"symbols\""), std::string::npos);
  EXPECT_NE(Rejection(R"({"type":"enum","name":"E","symbols":["A","A"]})").find("duplicate symbol 'A'"),
            std::string::npos);
  EXPECT_NE(Rejection(R"({"type":"enum","name":"E","symbols":["A","1"]})").find("invalid symbol '1'"),
            std::string::npos);
  EXPECT_NE(Rejection(R"({"type":"enum","name":"E","symbols":["A"],"default":"B"})").find("not one of its symbols"),
            std::string::npos);
  EXPECT_NE(Rejection(R"({"type":"array"})").find("no \"items\""), std::string::npos);
  EXPECT_NE(Rejection(R"({"type":"map"})").find("no \"values\""), std::string::npos);
  EXPECT_NE(Rejection(R"({"type":"record","name":"R","namespace":5,"fields":[]})").find("\"namespace\""),
            std::string::npos);
}

TEST(AvroSchema, RejectsAbsurdNestingWithoutCrashing) {
  std::string deep;
  for (int i = 0; i < 5000; ++i) deep += R"({"type":"array","items":)";
  deep += "\"int\"";
  for (int i = 0; i < 5000; ++i) deep += "}";
  EXPECT_NE(Rejection(deep).find("nests deeper than"), std::string::npos);
}

}  // namespace
}  // namespace floe::avro
