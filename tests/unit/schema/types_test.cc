#include "floe/schema/types.h"

#include <gtest/gtest.h>

#include "schema_test_util.h"

namespace floe::schema {
namespace {

using testing::MustParseSchema;

NestedField Field(int id, std::string name, TypePtr type, bool required = false) {
  NestedField f;
  f.id = id;
  f.name = std::move(name);
  f.type = std::move(type);
  f.required = required;
  return f;
}

TEST(SchemaTypes, PrimitivesAreSharedAndParameterizedTypesKeepTheirParameters) {
  EXPECT_EQ(Type::Primitive(TypeId::kLong), Type::Primitive(TypeId::kLong));
  EXPECT_TRUE(Type::Primitive(TypeId::kString)->is_primitive());
  auto d = Type::Decimal(9, 2);
  EXPECT_EQ(d->precision(), 9);
  EXPECT_EQ(d->scale(), 2);
  EXPECT_EQ(Type::Fixed(7)->length(), 7);
  EXPECT_TRUE(d->Equals(*Type::Decimal(9, 2)));
  EXPECT_FALSE(d->Equals(*Type::Decimal(9, 3)));
  EXPECT_FALSE(Type::Fixed(7)->Equals(*Type::Fixed(8)));
  EXPECT_FALSE(Type::Primitive(TypeId::kTimestamp)->Equals(*Type::Primitive(TypeId::kTimestampTz)));
}

TEST(SchemaTypes, ListAndMapNameTheirChildrenAsTheSpecDoes) {
  auto list = Type::List(Field(5, "whatever", Type::Primitive(TypeId::kInt), true));
  EXPECT_EQ(list->element().name, "element");
  EXPECT_EQ(list->element().id, 5);
  EXPECT_TRUE(list->element().required);
  auto map = Type::Map(Field(6, "k", Type::Primitive(TypeId::kString), /*required=*/false),
                       Field(7, "v", Type::Primitive(TypeId::kLong)));
  EXPECT_EQ(map->key().name, "key");
  EXPECT_TRUE(map->key().required) << "map keys are always required";
  EXPECT_EQ(map->value().name, "value");
  EXPECT_FALSE(map->value().required);
  EXPECT_FALSE(map->is_primitive());
}

TEST(SchemaTypes, ToStringUsesTheSpecsTypeStrings) {
  EXPECT_EQ(Type::Primitive(TypeId::kTimestampTz)->ToString(), "timestamptz");
  EXPECT_EQ(Type::Primitive(TypeId::kTimestampTzNs)->ToString(), "timestamptz_ns");
  EXPECT_EQ(Type::Decimal(9, 2)->ToString(), "decimal(9,2)");
  EXPECT_EQ(Type::Fixed(16)->ToString(), "fixed[16]");
  auto s = Type::Struct({Field(1, "a", Type::Primitive(TypeId::kInt), true),
                         Field(2, "b", Type::List(Field(3, "", Type::Primitive(TypeId::kString))))});
  EXPECT_EQ(s->ToString(), "struct<a: required int, b: list<string>>");
  auto m = Type::Map(Field(4, "", Type::Primitive(TypeId::kString)), Field(5, "", Type::Primitive(TypeId::kDouble)));
  EXPECT_EQ(m->ToString(), "map<string, double>");
}

TEST(SchemaTypes, EqualsIsDeepAndComparesIdsNamesNullabilityAndDocs) {
  auto make = [](int inner_id, const char* name, bool required, const char* doc) {
    NestedField inner = Field(inner_id, name, Type::Primitive(TypeId::kInt), required);
    inner.doc = doc;
    return Type::Struct({Field(1, "s", Type::Struct({inner}))});
  };
  EXPECT_TRUE(make(2, "x", true, "")->Equals(*make(2, "x", true, "")));
  EXPECT_FALSE(make(2, "x", true, "")->Equals(*make(3, "x", true, "")));
  EXPECT_FALSE(make(2, "x", true, "")->Equals(*make(2, "y", true, "")));
  EXPECT_FALSE(make(2, "x", true, "")->Equals(*make(2, "x", false, "")));
  EXPECT_FALSE(make(2, "x", true, "")->Equals(*make(2, "x", true, "doc")));
}

TEST(SchemaTypes, FindsFieldsByIdAtEveryNestingLevel) {
  Schema s = MustParseSchema(testing::kEveryTypeSchema);
  ASSERT_NE(s.FindById(1), nullptr);
  EXPECT_EQ(s.FindById(1)->name, "id");
  EXPECT_EQ(s.FindById(30)->name, "x");       // in a struct
  EXPECT_EQ(s.FindById(32)->name, "element");  // list element
  EXPECT_EQ(s.FindById(34)->name, "value");    // map value
  EXPECT_EQ(s.FindById(35)->name, "element");  // list in a map value
  EXPECT_EQ(s.FindById(41)->name, "k");        // struct in a map key in a list element
  EXPECT_EQ(s.FindById(999), nullptr);
  EXPECT_EQ(s.HighestFieldId(), 42);
  EXPECT_EQ(Schema{}.HighestFieldId(), 0);
}

TEST(SchemaTypes, FindsFieldsByDottedNameThroughStructsOnly) {
  Schema s;
  s.fields = {Field(1, "_kafka", Type::Struct({Field(2, "timestamp", Type::Primitive(TypeId::kTimestampTz)),
                                                Field(3, "partition", Type::Primitive(TypeId::kInt))})),
              Field(4, "a.b", Type::Primitive(TypeId::kString)),  // a name with a dot in it
              Field(5, "a", Type::Struct({Field(6, "c", Type::Primitive(TypeId::kLong))})),
              Field(7, "tags", Type::List(Field(8, "", Type::Struct({Field(9, "x", Type::Primitive(TypeId::kInt))}))))};
  ASSERT_NE(s.FindByName("_kafka.timestamp"), nullptr);
  EXPECT_EQ(s.FindByName("_kafka.timestamp")->id, 2);
  EXPECT_EQ(s.FindByName("_kafka")->id, 1);
  EXPECT_EQ(s.FindByName("a.b")->id, 4);
  EXPECT_EQ(s.FindByName("a.c")->id, 6);
  EXPECT_EQ(s.FindByName("_Kafka.timestamp"), nullptr) << "case-sensitive";
  EXPECT_EQ(s.FindByName("tags.x"), nullptr) << "lists are not structs";
  EXPECT_EQ(s.FindByName("tags.element.x"), nullptr);
  EXPECT_EQ(s.FindByName(""), nullptr);
  EXPECT_EQ(s.FindByName("_kafka."), nullptr);
}

TEST(SchemaTypes, AsStructHoldsTheTopLevelFields) {
  Schema s = MustParseSchema(testing::kEveryTypeSchema);
  TypePtr st = s.AsStruct();
  EXPECT_EQ(st->id(), TypeId::kStruct);
  ASSERT_EQ(st->fields().size(), s.fields.size());
  EXPECT_TRUE(st->Equals(*Type::Struct(s.fields)));
}

}  // namespace
}  // namespace floe::schema
