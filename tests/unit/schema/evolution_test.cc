#include "floe/schema/evolution.h"

#include <arrow/api.h>
#include <gtest/gtest.h>

#include "floe/schema/arrow_schema.h"
#include "floe/schema/json.h"
#include "schema_test_util.h"

namespace floe::schema {
namespace {

using testing::ErrorOf;
using testing::J;
using testing::MustParseSchema;

// A table schema: "fields" is the JSON text of the field list.
Schema Table(const std::string& fields, const std::string& extra = "") {
  return MustParseSchema(R"({"type": "struct", "schema-id": 3, )" + extra + R"("fields": [)" + fields + "]}");
}

// An incoming (writer-derived) schema; its ids are arbitrary, so tests give them from 100.
Schema Incoming(const std::string& fields) { return Table(fields); }

SchemaMerge MustMerge(const Schema& table, const Schema& incoming, int& last_column_id) {
  Result<SchemaMerge> merged = MergeSchemas(table, incoming, last_column_id);
  EXPECT_TRUE(merged.ok()) << merged.status().ToString();
  return merged.ok() ? *merged : SchemaMerge{};
}

// The merged fields as JSON, to compare with the expected fields in one assertion.
nlohmann::json FieldsOf(const Schema& s) { return SchemaToJson(s)["fields"]; }
nlohmann::json Fields(const std::string& text) { return J("[" + text + "]"); }

std::string MergeError(const Schema& table, const Schema& incoming) {
  int last = table.HighestFieldId();
  const int before = last;
  Result<SchemaMerge> merged = MergeSchemas(table, incoming, last);
  EXPECT_EQ(last, before) << "a failed merge must not advance last_column_id";
  if (!merged.ok()) {
    EXPECT_EQ(merged.status().code(), StatusCode::kInvalidArgument);
  }
  return ErrorOf(merged);
}

constexpr const char* kOrders = R"(
  {"id": 1, "name": "id", "required": true, "type": "long", "doc": "order key"},
  {"id": 2, "name": "qty", "required": true, "type": "int"},
  {"id": 3, "name": "note", "required": false, "type": "string"},
  {"id": 4, "name": "address", "required": false, "type": {"type": "struct", "fields": [
    {"id": 5, "name": "street", "required": true, "type": "string"}]}},
  {"id": 6, "name": "points", "required": false, "type": {"type": "list", "element-id": 7,
    "element-required": true, "element": {"type": "struct", "fields": [
      {"id": 8, "name": "x", "required": true, "type": "int"}]}}},
  {"id": 9, "name": "props", "required": false, "type": {"type": "map", "key-id": 10, "key": "string",
    "value-id": 11, "value-required": false, "value": "int"}})";

// The same columns as kOrders with other ids, as a writer schema would arrive.
constexpr const char* kOrdersIncoming = R"(
  {"id": 101, "name": "id", "required": true, "type": "long"},
  {"id": 102, "name": "qty", "required": true, "type": "int"},
  {"id": 103, "name": "note", "required": false, "type": "string"},
  {"id": 104, "name": "address", "required": false, "type": {"type": "struct", "fields": [
    {"id": 105, "name": "street", "required": true, "type": "string"}]}},
  {"id": 106, "name": "points", "required": false, "type": {"type": "list", "element-id": 107,
    "element-required": true, "element": {"type": "struct", "fields": [
      {"id": 108, "name": "x", "required": true, "type": "int"}]}}},
  {"id": 109, "name": "props", "required": false, "type": {"type": "map", "key-id": 110, "key": "string",
    "value-id": 111, "value-required": false, "value": "int"}})";

TEST(SchemaMerge, SameColumnsWithOtherIdsChangeNothing) {
  Schema table = Table(kOrders, R"("identifier-field-ids": [1], )");
  int last = 11;
  SchemaMerge merged = MustMerge(table, Incoming(kOrdersIncoming), last);
  EXPECT_FALSE(merged.changed);
  EXPECT_TRUE(merged.changes.empty());
  EXPECT_EQ(merged.schema.schema_id, 3);
  EXPECT_TRUE(merged.schema.AsStruct()->Equals(*table.AsStruct())) << "ids, docs and all must be the table's";
  EXPECT_EQ(merged.schema.identifier_field_ids, std::vector<int>{1});
  EXPECT_EQ(last, 11);
}

TEST(SchemaMerge, NewTopLevelFieldIsAppendedOptionalWithTheNextId) {
  Schema table = Table(R"({"id": 1, "name": "id", "required": true, "type": "long"})");
  int last = 1;
  SchemaMerge merged = MustMerge(table, Incoming(R"(
      {"id": 101, "name": "email", "required": true, "type": "string", "doc": "contact"},
      {"id": 102, "name": "id", "required": true, "type": "long"})"),
                                 last);
  EXPECT_TRUE(merged.changed);
  EXPECT_EQ(merged.schema.schema_id, 4);
  EXPECT_EQ(FieldsOf(merged.schema), Fields(R"(
      {"id": 1, "name": "id", "required": true, "type": "long"},
      {"id": 2, "name": "email", "required": false, "type": "string", "doc": "contact"})"));
  EXPECT_EQ(merged.changes, std::vector<std::string>{"added optional column 'email' (string)"});
  EXPECT_EQ(last, 2);
}

TEST(SchemaMerge, NewIdsStartAfterLastColumnIdNotAfterTheHighestIdInUse) {
  // Column 7 was dropped once: its id must never come back for another column.
  Schema table = Table(R"({"id": 1, "name": "id", "required": true, "type": "long"})");
  int last = 7;
  SchemaMerge merged = MustMerge(table, Incoming(R"(
      {"id": 1, "name": "id", "required": true, "type": "long"},
      {"id": 2, "name": "a", "required": false, "type": "int"},
      {"id": 3, "name": "b", "required": false, "type": "int"})"),
                                 last);
  EXPECT_EQ(merged.schema.FindByName("a")->id, 8);
  EXPECT_EQ(merged.schema.FindByName("b")->id, 9);
  EXPECT_EQ(last, 9);
}

TEST(SchemaMerge, StaleLastColumnIdNeverReusesAnIdOfTheTable) {
  Schema table = Table(R"({"id": 5, "name": "id", "required": true, "type": "long"})");
  int last = 2;
  SchemaMerge merged = MustMerge(table, Incoming(R"(
      {"id": 1, "name": "id", "required": true, "type": "long"},
      {"id": 2, "name": "a", "required": false, "type": "int"})"),
                                 last);
  EXPECT_EQ(merged.schema.FindByName("a")->id, 6);
  EXPECT_EQ(last, 6);
}

TEST(SchemaMerge, NewNestedStructGetsIdsForAllDescendantsInJavasOrder) {
  Schema table = Table(R"({"id": 1, "name": "id", "required": true, "type": "long"})");
  int last = 1;
  SchemaMerge merged = MustMerge(table, Incoming(R"(
      {"id": 101, "name": "id", "required": true, "type": "long"},
      {"id": 102, "name": "shipping", "required": true, "type": {"type": "struct", "fields": [
        {"id": 103, "name": "geo", "required": true, "type": {"type": "struct", "fields": [
          {"id": 104, "name": "lat", "required": true, "type": "double"}]}},
        {"id": 105, "name": "tags", "required": false, "type": {"type": "list", "element-id": 106,
          "element-required": true, "element": "string"}}]}},
      {"id": 107, "name": "after", "required": false, "type": "int"})"),
                                 last);
  // The field, then its type's fields level by level (geo and tags before lat and the
  // element), then the next new field.
  EXPECT_EQ(FieldsOf(merged.schema), Fields(R"(
      {"id": 1, "name": "id", "required": true, "type": "long"},
      {"id": 2, "name": "shipping", "required": false, "type": {"type": "struct", "fields": [
        {"id": 3, "name": "geo", "required": true, "type": {"type": "struct", "fields": [
          {"id": 5, "name": "lat", "required": true, "type": "double"}]}},
        {"id": 4, "name": "tags", "required": false, "type": {"type": "list", "element-id": 6,
          "element-required": true, "element": "string"}}]}},
      {"id": 7, "name": "after", "required": false, "type": "int"})"));
  ASSERT_EQ(merged.changes.size(), 2u);
  EXPECT_EQ(merged.changes[0],
            "added optional column 'shipping' "
            "(struct<geo: required struct<lat: required double>, tags: list<string>>)");
  EXPECT_EQ(merged.changes[1], "added optional column 'after' (int)");
  EXPECT_EQ(last, 7);
}

TEST(SchemaMerge, FieldAddedInsideAnExistingStructGoesAtItsEnd) {
  Schema table = Table(kOrders);
  int last = 11;
  std::string incoming = kOrdersIncoming;
  incoming.replace(incoming.find(R"({"id": 105)"), 0,
                   R"({"id": 150, "name": "zip", "required": true, "type": "string"}, )");
  SchemaMerge merged = MustMerge(table, Incoming(incoming), last);
  EXPECT_EQ(merged.changes, std::vector<std::string>{"added optional column 'address.zip' (string)"});
  const Type& address = *merged.schema.FindByName("address")->type;
  ASSERT_EQ(address.fields().size(), 2u);
  EXPECT_EQ(address.fields()[0].name, "street");
  EXPECT_EQ(address.fields()[1].name, "zip");
  EXPECT_EQ(address.fields()[1].id, 12);
  EXPECT_FALSE(address.fields()[1].required);
  EXPECT_EQ(last, 12);
}

TEST(SchemaMerge, ListOfStructsGainsAMember) {
  Schema table = Table(kOrders);
  int last = 11;
  std::string incoming = kOrdersIncoming;
  incoming.replace(incoming.find(R"({"id": 108)"), 0,
                   R"({"id": 160, "name": "z", "required": false, "type": "long"}, )");
  SchemaMerge merged = MustMerge(table, Incoming(incoming), last);
  EXPECT_EQ(merged.changes, std::vector<std::string>{"added optional column 'points.element.z' (long)"});
  const NestedField& element = merged.schema.FindByName("points")->type->element();
  EXPECT_EQ(element.id, 7);
  ASSERT_EQ(element.type->fields().size(), 2u);
  EXPECT_EQ(element.type->fields()[0].id, 8);
  EXPECT_EQ(element.type->fields()[1].name, "z");
  EXPECT_EQ(element.type->fields()[1].id, 12);
}

TEST(SchemaMerge, MapValuesArePromotedAndKeepTheirIds) {
  Schema table = Table(kOrders);
  int last = 11;
  std::string incoming = kOrdersIncoming;
  incoming.replace(incoming.find(R"("value": "int")"), 14, R"("value": "long")");
  SchemaMerge merged = MustMerge(table, Incoming(incoming), last);
  EXPECT_EQ(merged.changes, std::vector<std::string>{"promoted 'props.value' int -> long"});
  const Type& props = *merged.schema.FindByName("props")->type;
  EXPECT_EQ(props.key().id, 10);
  EXPECT_EQ(props.value().id, 11);
  EXPECT_EQ(props.value().type->id(), TypeId::kLong);
  EXPECT_EQ(last, 11);
}

TEST(SchemaMerge, MapValueStructsGainFields) {
  Schema table = Table(R"({"id": 1, "name": "m", "required": false, "type": {"type": "map", "key-id": 2,
      "key": "string", "value-id": 3, "value-required": true, "value": {"type": "struct", "fields": [
        {"id": 4, "name": "a", "required": true, "type": "int"}]}}})");
  int last = 4;
  SchemaMerge merged = MustMerge(table, Incoming(R"({"id": 1, "name": "m", "required": false, "type": {"type": "map",
      "key-id": 2, "key": "string", "value-id": 3, "value-required": false, "value": {"type": "struct", "fields": [
        {"id": 4, "name": "b", "required": true, "type": "string"}]}}})"),
                                 last);
  EXPECT_EQ(merged.changes, (std::vector<std::string>{"made 'm.value.a' optional (not in the incoming schema)",
                                                      "added optional column 'm.value.b' (string)",
                                                      "made 'm.value' optional (optional in the incoming schema)"}));
  EXPECT_EQ(FieldsOf(merged.schema), Fields(R"({"id": 1, "name": "m", "required": false, "type": {"type": "map",
      "key-id": 2, "key": "string", "value-id": 3, "value-required": false, "value": {"type": "struct", "fields": [
        {"id": 4, "name": "a", "required": false, "type": "int"},
        {"id": 5, "name": "b", "required": false, "type": "string"}]}}})"));
}

TEST(SchemaMerge, MissingTableFieldsStayAndRequiredOnesBecomeOptional) {
  Schema table = Table(kOrders);
  int last = 11;
  Schema incoming = Incoming(R"({"id": 101, "name": "id", "required": true, "type": "long"})");
  SchemaMerge merged = MustMerge(table, incoming, last);
  EXPECT_TRUE(merged.changed);
  // Every column is still there, with its id; only 'qty' was required.
  EXPECT_EQ(merged.schema.fields.size(), table.fields.size());
  for (std::size_t i = 0; i < table.fields.size(); ++i) EXPECT_EQ(merged.schema.fields[i].id, table.fields[i].id);
  EXPECT_EQ(merged.changes, std::vector<std::string>{"made 'qty' optional (not in the incoming schema)"});
  EXPECT_FALSE(merged.schema.FindByName("qty")->required);
  // Inside a struct that is itself still there, too.
  EXPECT_TRUE(merged.schema.FindByName("address.street")->required) << "address itself was not in the incoming schema";
}

TEST(SchemaMerge, IncomingOptionalRelaxesAndIncomingRequiredChangesNothing) {
  Schema table = Table(R"(
      {"id": 1, "name": "note", "required": true, "type": "string"},
      {"id": 2, "name": "memo", "required": false, "type": "string"},
      {"id": 3, "name": "points", "required": false, "type": {"type": "list", "element-id": 4,
        "element-required": true, "element": "int"}})");
  int last = 4;
  SchemaMerge merged = MustMerge(table, Incoming(R"(
      {"id": 1, "name": "note", "required": false, "type": "string"},
      {"id": 2, "name": "memo", "required": true, "type": "string"},
      {"id": 3, "name": "points", "required": false, "type": {"type": "list", "element-id": 4,
        "element-required": false, "element": "int"}})"),
                                 last);
  EXPECT_EQ(merged.changes,
            (std::vector<std::string>{"made 'note' optional (optional in the incoming schema)",
                                      "made 'points.element' optional (optional in the incoming schema)"}));
  EXPECT_FALSE(merged.schema.FindByName("note")->required);
  EXPECT_FALSE(merged.schema.FindByName("memo")->required);
  EXPECT_FALSE(merged.schema.FindByName("points")->type->element().required);
}

TEST(SchemaMerge, PromotesIntFloatAndDecimalPrecision) {
  Schema table = Table(R"j(
      {"id": 1, "name": "qty", "required": true, "type": "int"},
      {"id": 2, "name": "ratio", "required": false, "type": "float"},
      {"id": 3, "name": "price", "required": false, "type": "decimal(10,2)"})j");
  int last = 3;
  SchemaMerge merged = MustMerge(table, Incoming(R"j(
      {"id": 1, "name": "qty", "required": true, "type": "long"},
      {"id": 2, "name": "ratio", "required": false, "type": "double"},
      {"id": 3, "name": "price", "required": false, "type": "decimal(12,2)"})j"),
                                 last);
  EXPECT_EQ(merged.changes,
            (std::vector<std::string>{"promoted 'qty' int -> long", "promoted 'ratio' float -> double",
                                      "promoted 'price' decimal(10,2) -> decimal(12,2)"}));
  EXPECT_EQ(FieldsOf(merged.schema), Fields(R"j(
      {"id": 1, "name": "qty", "required": true, "type": "long"},
      {"id": 2, "name": "ratio", "required": false, "type": "double"},
      {"id": 3, "name": "price", "required": false, "type": "decimal(12,2)"})j"));
}

TEST(SchemaMerge, NarrowerIncomingTypesAreCompatibleAndChangeNothing) {
  Schema table = Table(R"j(
      {"id": 1, "name": "qty", "required": true, "type": "long"},
      {"id": 2, "name": "ratio", "required": false, "type": "double"},
      {"id": 3, "name": "price", "required": false, "type": "decimal(12,2)"})j");
  int last = 3;
  SchemaMerge merged = MustMerge(table, Incoming(R"j(
      {"id": 1, "name": "qty", "required": true, "type": "int"},
      {"id": 2, "name": "ratio", "required": false, "type": "float"},
      {"id": 3, "name": "price", "required": false, "type": "decimal(10,2)"})j"),
                                 last);
  EXPECT_FALSE(merged.changed);
  EXPECT_TRUE(merged.schema.AsStruct()->Equals(*table.AsStruct()));
}

TEST(SchemaMerge, KeepsTheTablesDocsAndIdentifierFields) {
  Schema table = Table(R"({"id": 1, "name": "id", "required": true, "type": "int", "doc": "key"})",
                       R"("identifier-field-ids": [1], )");
  int last = 1;
  SchemaMerge merged = MustMerge(table, Incoming(R"(
      {"id": 7, "name": "id", "required": true, "type": "long", "doc": "other words"})"),
                                 last);
  EXPECT_EQ(merged.schema.fields[0].doc, "key");
  EXPECT_EQ(merged.schema.fields[0].type->id(), TypeId::kLong);
  EXPECT_EQ(merged.schema.identifier_field_ids, std::vector<int>{1});
}

TEST(SchemaMerge, RejectsADecimalScaleChangeNamingTheFieldAndBothTypes) {
  Schema table = Table(R"j({"id": 1, "name": "price", "required": false, "type": "decimal(10,2)"})j");
  EXPECT_EQ(MergeError(table, Incoming(R"j({"id": 1, "name": "price", "required": false, "type": "decimal(10,3)"})j")),
            "field 'price': cannot change decimal(10,2) to decimal(10,3): only int -> long, float -> double and "
            "decimal precision widening are allowed");
  // A wider precision does not make a scale change acceptable.
  EXPECT_CONTAINS(
      MergeError(table, Incoming(R"j({"id": 1, "name": "price", "required": false, "type": "decimal(12,3)"})j")),
      "cannot change decimal(10,2) to decimal(12,3)");
}

TEST(SchemaMerge, RejectsOtherTypeChanges) {
  Schema table = Table(kOrders);
  auto with = [](const std::string& from, const std::string& to) {
    std::string text = kOrdersIncoming;
    text.replace(text.find(from), from.size(), to);
    return Incoming(text);
  };
  EXPECT_EQ(MergeError(table, with(R"("name": "qty", "required": true, "type": "int")",
                                   R"("name": "qty", "required": true, "type": "string")")),
            "field 'qty': cannot change int to string: only int -> long, float -> double and decimal precision "
            "widening are allowed");
  EXPECT_CONTAINS(MergeError(table, with(R"("name": "id", "required": true, "type": "long")",
                                         R"("name": "id", "required": true, "type": "double")")),
                  "field 'id': cannot change long to double");
  EXPECT_CONTAINS(MergeError(table, with(R"("name": "note", "required": false, "type": "string")",
                                         R"("name": "note", "required": false, "type": {"type": "struct",
                                           "fields": [
                                             {"id": 190, "name": "s", "required": false, "type": "string"}]})")),
                  "field 'note': cannot change string to struct<s: string>");
  EXPECT_CONTAINS(MergeError(table, with(R"("name": "x", "required": true, "type": "int")",
                                         R"("name": "x", "required": true, "type": "boolean")")),
                  "field 'points.element.x': cannot change int to boolean");
  EXPECT_CONTAINS(MergeError(table, with(R"("value": "int")", R"("value": "date")")),
                  "field 'props.value': cannot change int to date");
}

TEST(SchemaMerge, RejectsChangesOfTheKindOfANestedType) {
  Schema table = Table(R"({"id": 1, "name": "c", "required": false, "type": {"type": "list", "element-id": 2,
      "element-required": false, "element": "string"}})");
  EXPECT_EQ(MergeError(table, Incoming(R"({"id": 1, "name": "c", "required": false, "type": {"type": "map",
      "key-id": 2, "key": "string", "value-id": 3, "value-required": false, "value": "string"}})")),
            "field 'c': cannot change list<string> to map<string, string>: only int -> long, float -> double and "
            "decimal precision widening are allowed");
  EXPECT_CONTAINS(MergeError(table, Incoming(R"({"id": 1, "name": "c", "required": false, "type": "string"})")),
                  "field 'c': cannot change list<string> to string");
  Schema structs = Table(R"({"id": 1, "name": "s", "required": false, "type": {"type": "struct", "fields": [
      {"id": 2, "name": "a", "required": false, "type": "int"}]}})");
  EXPECT_CONTAINS(MergeError(structs, Incoming(R"({"id": 1, "name": "s", "required": false, "type": "int"})")),
                  "field 's': cannot change struct<a: int> to int");
}

TEST(SchemaMerge, MapKeysCannotChange) {
  Schema table = Table(R"({"id": 1, "name": "m", "required": false, "type": {"type": "map", "key-id": 2,
      "key": "int", "value-id": 3, "value-required": false, "value": "string"}})");
  EXPECT_CONTAINS(MergeError(table, Incoming(R"({"id": 1, "name": "m", "required": false, "type": {"type": "map",
      "key-id": 2, "key": "long", "value-id": 3, "value-required": false, "value": "string"}})")),
                  "field 'm.key': map keys cannot change");
  // A narrower key changes nothing, so it is fine.
  Schema long_keys = Table(R"({"id": 1, "name": "m", "required": false, "type": {"type": "map", "key-id": 2,
      "key": "long", "value-id": 3, "value-required": false, "value": "string"}})");
  int last = 3;
  EXPECT_FALSE(MustMerge(long_keys, table, last).changed);
}

TEST(SchemaMerge, IdentifierFieldsMustStayRequired) {
  Schema table = Table(R"(
      {"id": 1, "name": "id", "required": true, "type": "long"},
      {"id": 2, "name": "key", "required": true, "type": {"type": "struct", "fields": [
        {"id": 3, "name": "k", "required": true, "type": "string"}]}})",
                       R"("identifier-field-ids": [1, 3], )");
  EXPECT_CONTAINS(MergeError(table, Incoming(R"(
      {"id": 1, "name": "id", "required": false, "type": "long"},
      {"id": 2, "name": "key", "required": true, "type": {"type": "struct", "fields": [
        {"id": 3, "name": "k", "required": true, "type": "string"}]}})")),
                  "field 'id': cannot make it optional (optional in the incoming schema)");
  EXPECT_CONTAINS(MergeError(table, Incoming(R"({"id": 1, "name": "id", "required": true, "type": "long"})")),
                  "field 'key': cannot make it optional (not in the incoming schema)");
}

TEST(SchemaMerge, RejectsDuplicateNamesInTheIncomingSchema) {
  Schema table = Table(R"({"id": 1, "name": "a", "required": false, "type": "int"})");
  Schema incoming;
  NestedField a;
  a.id = 1;
  a.name = "a";
  a.type = Type::Primitive(TypeId::kInt);
  incoming.fields = {a, a};
  incoming.fields[1].id = 2;
  EXPECT_CONTAINS(MergeError(table, incoming), "incoming schema: field name 'a' appears twice");
}

// The pipeline's path: the writer schema arrives as Arrow without field ids.
TEST(SchemaMerge, MergesAnIncomingSchemaConvertedFromArrow) {
  Schema table = Table(kOrders);
  auto arrow_schema = arrow::schema({
      arrow::field("id", arrow::int64(), false),
      arrow::field("qty", arrow::int64(), false),
      arrow::field("address", arrow::struct_({arrow::field("street", arrow::utf8(), false),
                                              arrow::field("zip", arrow::utf8(), true)})),
      arrow::field("points", arrow::list(arrow::field(
                                 "item", arrow::struct_({arrow::field("x", arrow::int32(), false)}), false))),
      arrow::field("props", arrow::map(arrow::utf8(), arrow::int32())),
      arrow::field("channel", arrow::utf8()),
  });
  Result<Schema> incoming = FromArrowSchema(*arrow_schema);
  ASSERT_TRUE(incoming.ok()) << incoming.status().ToString();
  int last = 11;
  SchemaMerge merged = MustMerge(table, *incoming, last);
  EXPECT_EQ(merged.changes, (std::vector<std::string>{"promoted 'qty' int -> long",
                                                      "added optional column 'address.zip' (string)",
                                                      "added optional column 'channel' (string)"}));
  EXPECT_EQ(merged.schema.FindByName("address.zip")->id, 12);
  EXPECT_EQ(merged.schema.FindByName("channel")->id, 13);
  EXPECT_EQ(merged.schema.FindByName("note")->id, 3);
  EXPECT_EQ(last, 13);
  // Merging the same writer schema again is a no-op.
  int again = last;
  SchemaMerge second = MustMerge(merged.schema, *incoming, again);
  EXPECT_FALSE(second.changed);
  EXPECT_EQ(again, 13);
}

}  // namespace
}  // namespace floe::schema
