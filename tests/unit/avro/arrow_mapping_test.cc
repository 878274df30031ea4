#include "floe/avro/arrow_mapping.h"

#include <arrow/api.h>
#include <gtest/gtest.h>

#include <string>

namespace floe::avro {
namespace {

std::shared_ptr<arrow::DataType> TypeOf(const std::string& json) {
  auto schema = ParseSchema(json);
  EXPECT_TRUE(schema.ok()) << schema.status().ToString();
  if (!schema.ok()) return nullptr;
  auto type = ToArrowType(**schema);
  EXPECT_TRUE(type.ok()) << type.status().ToString();
  return type.ok() ? *type : nullptr;
}

Status MappingError(const std::string& json) {
  auto schema = ParseSchema(json);
  EXPECT_TRUE(schema.ok()) << schema.status().ToString();
  if (!schema.ok()) return schema.status();
  auto type = ToArrowType(**schema);
  EXPECT_FALSE(type.ok()) << "mapped to " << (*type)->ToString();
  return type.status();
}

#define EXPECT_MAPS_TO(json, expected)                                               \
  do {                                                                               \
    auto actual_ = TypeOf(json);                                                     \
    ASSERT_TRUE(actual_) << json;                                                    \
    EXPECT_TRUE(actual_->Equals(*(expected), /*check_metadata=*/true))               \
        << json << "\n  got      " << actual_->ToString() << "\n  expected " << (expected)->ToString(); \
  } while (0)

TEST(AvroArrowMapping, Primitives) {
  EXPECT_MAPS_TO(R"("boolean")", arrow::boolean());
  EXPECT_MAPS_TO(R"("int")", arrow::int32());
  EXPECT_MAPS_TO(R"("long")", arrow::int64());
  EXPECT_MAPS_TO(R"("float")", arrow::float32());
  EXPECT_MAPS_TO(R"("double")", arrow::float64());
  EXPECT_MAPS_TO(R"("bytes")", arrow::binary());
  EXPECT_MAPS_TO(R"("string")", arrow::utf8());
}

TEST(AvroArrowMapping, NullIsNotATableType) {
  EXPECT_NE(MappingError(R"("null")").message().find("null type cannot be stored"), std::string::npos);
  Status s = MappingError(R"({"type":"record","name":"R","fields":[{"name":"n","type":["null"]}]})");
  EXPECT_EQ(s.message(), "field 'n': a union of only null cannot be stored: tables have no null type");
  EXPECT_NE(MappingError(R"([])").message().find("empty union"), std::string::npos);
}

TEST(AvroArrowMapping, NamedAndComplexTypes) {
  EXPECT_MAPS_TO(R"({"type":"enum","name":"E","symbols":["A","B"]})", arrow::utf8());
  EXPECT_MAPS_TO(R"({"type":"fixed","name":"F","size":7})", arrow::fixed_size_binary(7));
  EXPECT_MAPS_TO(R"({"type":"array","items":"long"})", arrow::list(arrow::field("element", arrow::int64(), false)));
  EXPECT_MAPS_TO(R"({"type":"array","items":["null","long"]})",
                 arrow::list(arrow::field("element", arrow::int64(), true)));
  EXPECT_MAPS_TO(R"({"type":"map","values":"double"})",
                 arrow::map(arrow::utf8(), arrow::field("value", arrow::float64(), false)));
  EXPECT_MAPS_TO(R"({"type":"map","values":["double","null"]})",
                 arrow::map(arrow::utf8(), arrow::field("value", arrow::float64(), true)));
  EXPECT_MAPS_TO(R"({"type":"record","name":"R","fields":[
                    {"name":"a","type":"int"},
                    {"name":"b","type":["null","string"]},
                    {"name":"c","type":{"type":"record","name":"C","fields":[{"name":"x","type":"float"}]}}]})",
                 arrow::struct_({arrow::field("a", arrow::int32(), false), arrow::field("b", arrow::utf8(), true),
                                 arrow::field("c", arrow::struct_({arrow::field("x", arrow::float32(), false)}),
                                              false)}));
}

TEST(AvroArrowMapping, OptionalUnionsInEitherOrder) {
  for (const char* json : {R"(["null","int"])", R"(["int","null"])"}) {
    EXPECT_MAPS_TO(json, arrow::int32());
    auto schema = ParseSchema(json);
    ASSERT_TRUE(schema.ok());
    auto field = ToArrowField("x", **schema);
    ASSERT_TRUE(field.ok());
    EXPECT_TRUE((*field)->nullable()) << json;
    EXPECT_TRUE(IsOptionalUnion(**schema));
  }
  auto required = ToArrowField("x", **ParseSchema(R"("int")"));
  ASSERT_TRUE(required.ok());
  EXPECT_FALSE((*required)->nullable());
  // Nullability of complex types is the field's too.
  EXPECT_MAPS_TO(R"(["null",{"type":"array","items":"int"}])",
                 arrow::list(arrow::field("element", arrow::int32(), false)));
}

TEST(AvroArrowMapping, OtherUnionsBecomeStructsOfMembers) {
  EXPECT_MAPS_TO(R"(["int","string"])",
                 arrow::struct_({arrow::field("member0", arrow::int32(), true),
                                 arrow::field("member1", arrow::utf8(), true)}));
  // The null branch gets no member, and members are numbered without it.
  EXPECT_MAPS_TO(R"(["int","null",{"type":"record","name":"P","fields":[{"name":"x","type":"int"}]},"string"])",
                 arrow::struct_({arrow::field("member0", arrow::int32(), true),
                                 arrow::field("member1", arrow::struct_({arrow::field("x", arrow::int32(), false)}), true),
                                 arrow::field("member2", arrow::utf8(), true)}));
  auto with_null = ToArrowField("u", **ParseSchema(R"(["null","int","string"])"));
  ASSERT_TRUE(with_null.ok());
  EXPECT_TRUE((*with_null)->nullable());
  auto without_null = ToArrowField("u", **ParseSchema(R"(["int","string"])"));
  ASSERT_TRUE(without_null.ok());
  EXPECT_FALSE((*without_null)->nullable());
  // A single non-null branch is just that type.
  EXPECT_MAPS_TO(R"(["long"])", arrow::struct_({arrow::field("member0", arrow::int64(), true)}));
}

TEST(AvroArrowMapping, Decimals) {
  EXPECT_MAPS_TO(R"({"type":"bytes","logicalType":"decimal","precision":10,"scale":2})", arrow::decimal128(10, 2));
  EXPECT_MAPS_TO(R"({"type":"bytes","logicalType":"decimal","precision":38,"scale":38})", arrow::decimal128(38, 38));
  EXPECT_MAPS_TO(R"({"type":"bytes","logicalType":"decimal","precision":39})", arrow::decimal256(39, 0));
  EXPECT_MAPS_TO(R"({"type":"bytes","logicalType":"decimal","precision":76,"scale":10})", arrow::decimal256(76, 10));
  EXPECT_MAPS_TO(R"({"type":"fixed","name":"D","size":8,"logicalType":"decimal","precision":18,"scale":4})",
                 arrow::decimal128(18, 4));
  EXPECT_MAPS_TO(R"({"type":"fixed","name":"D","size":32,"logicalType":"decimal","precision":60,"scale":4})",
                 arrow::decimal256(60, 4));
  Status s = MappingError(R"({"type":"record","name":"R","fields":[
      {"name":"big","type":{"type":"bytes","logicalType":"decimal","precision":77}}]})");
  EXPECT_EQ(s.code(), StatusCode::kUnsupported);
  EXPECT_NE(s.message().find("field 'big': decimal precision 77 is over 76"), std::string::npos);
}

TEST(AvroArrowMapping, DatesTimesAndTimestamps) {
  EXPECT_MAPS_TO(R"({"type":"int","logicalType":"date"})", arrow::date32());
  // Millisecond times are stored in microseconds, like Iceberg's time (and timestamps below).
  EXPECT_MAPS_TO(R"({"type":"int","logicalType":"time-millis"})", arrow::time64(arrow::TimeUnit::MICRO));
  EXPECT_MAPS_TO(R"({"type":"long","logicalType":"time-micros"})", arrow::time64(arrow::TimeUnit::MICRO));
  // Millisecond timestamps are stored in microseconds: Iceberg has no millisecond type.
  EXPECT_MAPS_TO(R"({"type":"long","logicalType":"timestamp-millis"})",
                 arrow::timestamp(arrow::TimeUnit::MICRO, "UTC"));
  EXPECT_MAPS_TO(R"({"type":"long","logicalType":"timestamp-micros"})",
                 arrow::timestamp(arrow::TimeUnit::MICRO, "UTC"));
  EXPECT_MAPS_TO(R"({"type":"long","logicalType":"timestamp-nanos"})", arrow::timestamp(arrow::TimeUnit::NANO, "UTC"));
  EXPECT_MAPS_TO(R"({"type":"long","logicalType":"local-timestamp-millis"})", arrow::timestamp(arrow::TimeUnit::MICRO));
  EXPECT_MAPS_TO(R"({"type":"long","logicalType":"local-timestamp-micros"})", arrow::timestamp(arrow::TimeUnit::MICRO));
  EXPECT_MAPS_TO(R"({"type":"long","logicalType":"local-timestamp-nanos"})", arrow::timestamp(arrow::TimeUnit::NANO));
}

TEST(AvroArrowMapping, UuidDurationAndIgnoredLogicalTypes) {
  EXPECT_MAPS_TO(R"({"type":"string","logicalType":"uuid"})", arrow::utf8());
  EXPECT_MAPS_TO(R"({"type":"fixed","name":"U","size":16,"logicalType":"uuid"})", arrow::fixed_size_binary(16));
  EXPECT_MAPS_TO(R"({"type":"fixed","name":"D","size":12,"logicalType":"duration"})", arrow::fixed_size_binary(12));
  // Ignored logical types map like their base type.
  EXPECT_MAPS_TO(R"({"type":"int","logicalType":"timestamp-millis"})", arrow::int32());
  EXPECT_MAPS_TO(R"({"type":"string","logicalType":"date"})", arrow::utf8());
}

TEST(AvroArrowMapping, TypesATableCannotHold) {
  Status empty = MappingError(R"({"type":"record","name":"R","fields":[
      {"name":"e","type":{"type":"record","name":"Empty","fields":[]}}]})");
  EXPECT_EQ(empty.message(), "field 'e': record 'Empty' has no fields, which a table cannot store");
  Status zero = MappingError(R"({"type":"fixed","name":"Z","size":0})");
  EXPECT_NE(zero.message().find("size 0"), std::string::npos);
  // Errors deep in the tree name the whole path.
  Status deep = MappingError(R"({"type":"record","name":"R","fields":[
      {"name":"a","type":{"type":"array","items":{"type":"record","name":"I","fields":[
        {"name":"u","type":["int","string",{"type":"map","values":"null"}]}]}}}]})");
  EXPECT_NE(deep.message().find("field 'a[].u.member2{}'"), std::string::npos) << deep.message();
}

TEST(AvroArrowMapping, SchemaOfATopLevelRecord) {
  auto node = ParseSchema(R"({"type":"record","name":"R","fields":[
      {"name":"id","type":"long"},{"name":"name","type":["null","string"]}]})");
  ASSERT_TRUE(node.ok());
  auto schema = ToArrowSchema(**node);
  ASSERT_TRUE(schema.ok());
  EXPECT_TRUE((*schema)->Equals(arrow::Schema({arrow::field("id", arrow::int64(), false),
                                               arrow::field("name", arrow::utf8(), true)})))
      << (*schema)->ToString();
  EXPECT_FALSE(ToArrowSchema(**ParseSchema(R"("int")")).ok());
}

}  // namespace
}  // namespace floe::avro
