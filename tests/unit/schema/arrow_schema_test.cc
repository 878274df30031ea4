#include "floe/schema/arrow_schema.h"

#include <arrow/api.h>
#include <arrow/extension/uuid.h>
#include <arrow/io/memory.h>
#include <gtest/gtest.h>
#include <parquet/arrow/writer.h>
#include <parquet/file_reader.h>
#include <parquet/schema.h>

#include <set>

#include "floe/schema/json.h"
#include "schema_test_util.h"

namespace floe::schema {
namespace {

using testing::ErrorOf;
using testing::J;
using testing::MustParseSchema;

// kEveryTypeSchema without what Floe never writes (v3 unknown/variant) and without
// defaults (Arrow has no place for them).
Schema WritableSchema() {
  Schema s = MustParseSchema(testing::kEveryTypeSchema);
  std::vector<NestedField> kept;
  for (auto& f : s.fields) {
    if (f.type->id() == TypeId::kUnknown || f.type->id() == TypeId::kVariant) continue;
    f.initial_default_json.reset();
    f.write_default_json.reset();
    kept.push_back(f);
  }
  s.fields = kept;
  return s;
}

std::string FieldIdOf(const arrow::Field& f) {
  if (!f.metadata()) return "";
  auto v = f.metadata()->Get(kParquetFieldIdKey);
  return v.ok() ? *v : "";
}

std::shared_ptr<arrow::KeyValueMetadata> Id(int id) {
  return arrow::key_value_metadata({kParquetFieldIdKey}, {std::to_string(id)});
}

// One field of this Arrow type, converted to Iceberg.
Result<TypePtr> Convert(std::shared_ptr<arrow::DataType> type,
                        std::shared_ptr<const arrow::KeyValueMetadata> metadata = nullptr) {
  auto schema = arrow::schema({arrow::field("c", std::move(type), true, std::move(metadata))});
  FLOE_ASSIGN_OR_RETURN(Schema s, FromArrowSchema(*schema));
  return s.fields.at(0).type;
}

std::string Converted(std::shared_ptr<arrow::DataType> type,
                      std::shared_ptr<const arrow::KeyValueMetadata> metadata = nullptr) {
  Result<TypePtr> t = Convert(std::move(type), std::move(metadata));
  EXPECT_TRUE(t.ok()) << t.status().ToString();
  return t.ok() ? (*t)->ToString() : "";
}

TEST(SchemaArrow, MapsEveryIcebergTypeAsDocumented) {
  Result<std::shared_ptr<arrow::Schema>> arrow_schema = ToArrowSchema(WritableSchema());
  ASSERT_TRUE(arrow_schema.ok()) << arrow_schema.status().ToString();
  const arrow::Schema& a = **arrow_schema;
  auto type_of = [&](const char* name) { return a.GetFieldByName(name)->type()->ToString(); };
  EXPECT_EQ(type_of("id"), "int64");
  EXPECT_EQ(type_of("flag"), "bool");
  EXPECT_EQ(type_of("i"), "int32");
  EXPECT_EQ(type_of("f"), "float");
  EXPECT_EQ(type_of("d"), "double");
  EXPECT_EQ(type_of("price"), "decimal128(9, 2)");
  EXPECT_EQ(type_of("big"), "decimal128(38, 10)");
  EXPECT_EQ(type_of("day"), "date32[day]");
  EXPECT_EQ(type_of("t"), "time64[us]");
  EXPECT_EQ(type_of("ts"), "timestamp[us]");
  EXPECT_EQ(type_of("tstz"), "timestamp[us, tz=UTC]");
  EXPECT_EQ(type_of("ts_ns"), "timestamp[ns]");
  EXPECT_EQ(type_of("tstz_ns"), "timestamp[ns, tz=UTC]");
  EXPECT_EQ(type_of("s"), "string");
  EXPECT_EQ(type_of("u"), "fixed_size_binary[16]");
  EXPECT_EQ(type_of("fx"), "fixed_size_binary[16]");
  EXPECT_EQ(type_of("b"), "binary");
  EXPECT_EQ(type_of("point"), "struct<x: int64 not null, y: double>");
  EXPECT_EQ(type_of("tags"), "list<element: string not null>");
  EXPECT_EQ(type_of("props"), "map<string, list<element: int32>>");
  EXPECT_FALSE(a.GetFieldByName("id")->nullable());
  EXPECT_TRUE(a.GetFieldByName("flag")->nullable());
  EXPECT_EQ(a.GetFieldByName("id")->metadata()->Get(kDocKey).ValueOr(""), "primary key");
  EXPECT_EQ(a.GetFieldByName("u")->metadata()->Get(kFloeUuidKey).ValueOr(""), "true");
  EXPECT_FALSE(a.GetFieldByName("fx")->metadata()->Contains(kFloeUuidKey));
}

TEST(SchemaArrow, WritesFieldIdsOnEveryFieldAtEveryLevel) {
  Result<std::shared_ptr<arrow::Schema>> arrow_schema = ToArrowSchema(WritableSchema());
  ASSERT_TRUE(arrow_schema.ok());
  const arrow::Schema& a = **arrow_schema;
  EXPECT_EQ(FieldIdOf(*a.GetFieldByName("id")), "1");
  const auto& point = *a.GetFieldByName("point")->type();
  EXPECT_EQ(FieldIdOf(*point.field(0)), "30");
  EXPECT_EQ(FieldIdOf(*point.field(1)), "31");
  const auto& tags = static_cast<const arrow::ListType&>(*a.GetFieldByName("tags")->type());
  EXPECT_EQ(FieldIdOf(*tags.value_field()), "32");
  const auto& props = static_cast<const arrow::MapType&>(*a.GetFieldByName("props")->type());
  EXPECT_EQ(FieldIdOf(*props.key_field()), "33");
  EXPECT_EQ(FieldIdOf(*props.item_field()), "34");
  EXPECT_EQ(FieldIdOf(*static_cast<const arrow::ListType&>(*props.item_type()).value_field()), "35");
  const auto& points = static_cast<const arrow::ListType&>(*a.GetFieldByName("points")->type());
  const auto& m = static_cast<const arrow::MapType&>(*points.value_type()->field(1)->type());
  EXPECT_EQ(FieldIdOf(*m.key_type()->field(0)), "41") << "struct inside a map key inside a list element";
  EXPECT_FALSE(m.key_field()->nullable());
}

// The ids must survive into the Parquet file schema, which is what engines read.
TEST(SchemaArrow, FieldIdsReachTheParquetFileSchema) {
  const Schema schema = WritableSchema();
  Result<std::shared_ptr<arrow::Schema>> arrow_schema = ToArrowSchema(schema);
  ASSERT_TRUE(arrow_schema.ok());
  auto sink = arrow::io::BufferOutputStream::Create().ValueOrDie();
  auto table = arrow::Table::MakeEmpty(*arrow_schema).ValueOrDie();
  ASSERT_TRUE(parquet::arrow::WriteTable(*table, arrow::default_memory_pool(), sink).ok());
  auto buffer = sink->Finish().ValueOrDie();
  auto metadata = parquet::ReadMetaData(std::make_shared<arrow::io::BufferReader>(buffer));

  std::set<int> in_file;
  std::function<void(const parquet::schema::Node&)> walk = [&](const parquet::schema::Node& node) {
    if (node.field_id() >= 0) in_file.insert(node.field_id());
    if (node.is_group()) {
      const auto& group = static_cast<const parquet::schema::GroupNode&>(node);
      for (int i = 0; i < group.field_count(); ++i) walk(*group.field(i));
    }
  };
  walk(*metadata->schema()->group_node());
  std::set<int> expected;
  for (int id = 1; id <= schema.HighestFieldId(); ++id) {
    if (schema.FindById(id)) expected.insert(id);
  }
  EXPECT_EQ(in_file, expected);
}

TEST(SchemaArrow, RoundTripsThroughArrowWithIdsAndDocs) {
  const Schema schema = WritableSchema();
  Result<std::shared_ptr<arrow::Schema>> arrow_schema = ToArrowSchema(schema);
  ASSERT_TRUE(arrow_schema.ok());
  Result<Schema> back = FromArrowSchema(**arrow_schema);
  ASSERT_TRUE(back.ok()) << back.status().ToString();
  EXPECT_TRUE(back->AsStruct()->Equals(*schema.AsStruct()))
      << TypeToJson(*back->AsStruct()).dump(1) << "\nvs\n" << TypeToJson(*schema.AsStruct()).dump(1);
}

TEST(SchemaArrow, RejectsTypesFloeNeverWrites) {
  Result<TypePtr> variant = TypeFromJson(J(R"({"type":"struct","fields":[
      {"id":1,"name":"s","required":false,"type":{"type":"struct","fields":[{"id":2,"name":"v","required":false,"type":"variant"}]}}]})"));
  ASSERT_TRUE(variant.ok());
  Schema s;
  s.fields = (*variant)->fields();
  Result<std::shared_ptr<arrow::Schema>> a = ToArrowSchema(s);
  ASSERT_FALSE(a.ok());
  EXPECT_EQ(a.status().code(), StatusCode::kUnsupported);
  EXPECT_CONTAINS(a.status().message(), "field 's.v': type variant");
}

TEST(SchemaArrow, AcceptsTheTypesFloesDecodersBuild) {
  EXPECT_EQ(Converted(arrow::utf8()), "string");
  EXPECT_EQ(Converted(arrow::large_utf8()), "string");
  EXPECT_EQ(Converted(arrow::utf8_view()), "string");
  EXPECT_EQ(Converted(arrow::binary()), "binary");
  EXPECT_EQ(Converted(arrow::large_binary()), "binary");
  EXPECT_EQ(Converted(arrow::fixed_size_binary(16)), "fixed[16]") << "not a uuid without a marker";
  EXPECT_EQ(Converted(arrow::fixed_size_binary(12)), "fixed[12]");
  EXPECT_EQ(Converted(arrow::boolean()), "boolean");
  EXPECT_EQ(Converted(arrow::int32()), "int");
  EXPECT_EQ(Converted(arrow::int64()), "long");
  EXPECT_EQ(Converted(arrow::float32()), "float");
  EXPECT_EQ(Converted(arrow::float64()), "double");
  EXPECT_EQ(Converted(arrow::date32()), "date");
  EXPECT_EQ(Converted(arrow::time32(arrow::TimeUnit::MILLI)), "time");
  EXPECT_EQ(Converted(arrow::time32(arrow::TimeUnit::SECOND)), "time");
  EXPECT_EQ(Converted(arrow::time64(arrow::TimeUnit::MICRO)), "time");
  EXPECT_EQ(Converted(arrow::timestamp(arrow::TimeUnit::MILLI)), "timestamp");
  EXPECT_EQ(Converted(arrow::timestamp(arrow::TimeUnit::MICRO)), "timestamp");
  EXPECT_EQ(Converted(arrow::timestamp(arrow::TimeUnit::MICRO, "UTC")), "timestamptz");
  EXPECT_EQ(Converted(arrow::timestamp(arrow::TimeUnit::MILLI, "+00:00")), "timestamptz");
  EXPECT_EQ(Converted(arrow::timestamp(arrow::TimeUnit::NANO)), "timestamp_ns");
  EXPECT_EQ(Converted(arrow::timestamp(arrow::TimeUnit::NANO, "America/New_York")), "timestamptz_ns");
  EXPECT_EQ(Converted(arrow::decimal128(10, 2)), "decimal(10,2)");
  EXPECT_EQ(Converted(arrow::decimal256(38, 0)), "decimal(38,0)");
  EXPECT_EQ(Converted(arrow::decimal32(5, 1)), "decimal(5,1)");
  EXPECT_EQ(Converted(arrow::list(arrow::field("element", arrow::int64(), false))), "list<long>");
  EXPECT_EQ(Converted(arrow::list(arrow::int64())), "list<long>") << "Arrow's default element name 'item'";
  EXPECT_EQ(Converted(arrow::large_list(arrow::utf8())), "list<string>");
  EXPECT_EQ(Converted(arrow::fixed_size_list(arrow::int32(), 3)), "list<int>");
  EXPECT_EQ(Converted(arrow::list_view(arrow::int32())), "list<int>");
  EXPECT_EQ(Converted(arrow::map(arrow::utf8(), arrow::float64())), "map<string, double>");
  EXPECT_EQ(Converted(arrow::struct_({arrow::field("member0", arrow::int32()), arrow::field("member1", arrow::utf8())})),
            "struct<member0: int, member1: string>");
  EXPECT_EQ(Converted(arrow::dictionary(arrow::int32(), arrow::utf8())), "string");
  EXPECT_EQ(Converted(arrow::run_end_encoded(arrow::int32(), arrow::int64())), "long");
}

TEST(SchemaArrow, WidensSmallAndUnsignedIntegersThatFit) {
  EXPECT_EQ(Converted(arrow::int8()), "int");
  EXPECT_EQ(Converted(arrow::int16()), "int");
  EXPECT_EQ(Converted(arrow::uint8()), "int");
  EXPECT_EQ(Converted(arrow::uint16()), "int");
  EXPECT_EQ(Converted(arrow::uint32()), "long");
  EXPECT_EQ(Converted(arrow::float16()), "float");
  Result<TypePtr> u64 = Convert(arrow::uint64());
  ASSERT_FALSE(u64.ok());
  EXPECT_EQ(u64.status().message(),
            "field 'c': Arrow type uint64 has no Iceberg type (Iceberg has no unsigned integers and long cannot hold "
            "them all)");
}

TEST(SchemaArrow, RecognizesUuidsOnlyWhenMarked) {
  EXPECT_EQ(Converted(arrow::fixed_size_binary(16), arrow::key_value_metadata({kFloeUuidKey}, {"true"})), "uuid");
  EXPECT_EQ(Converted(arrow::fixed_size_binary(16), arrow::key_value_metadata({kFloeUuidKey}, {"false"})), "fixed[16]");
  EXPECT_EQ(Converted(arrow::extension::uuid()), "uuid");
  EXPECT_EQ(Converted(arrow::fixed_size_binary(16), arrow::key_value_metadata({"ARROW:extension:name"}, {"arrow.uuid"})),
            "uuid")
      << "an arrow.uuid column read without the extension registered";
  EXPECT_EQ(ErrorOf(Convert(arrow::fixed_size_binary(8), arrow::key_value_metadata({kFloeUuidKey}, {"true"}))),
            "field 'c': marked as a uuid by floe:uuid metadata but its type is fixed_size_binary[8], not "
            "fixed_size_binary(16)");
}

TEST(SchemaArrow, RejectsTypesIcebergCannotHold) {
  EXPECT_EQ(ErrorOf(Convert(arrow::null())),
            "field 'c': the Arrow null type has no Iceberg type; give the column a real type (an optional column can "
            "hold only nulls)");
  EXPECT_EQ(ErrorOf(Convert(arrow::decimal256(40, 2))),
            "field 'c': Arrow type decimal256(40, 2) has no Iceberg type (Iceberg decimals have at most 38 digits)");
  EXPECT_EQ(ErrorOf(Convert(arrow::decimal128(10, -2))),
            "field 'c': Arrow type decimal128(10, -2) has no Iceberg type (Iceberg decimal scales are between 0 and "
            "the precision)");
  EXPECT_CONTAINS(ErrorOf(Convert(arrow::time64(arrow::TimeUnit::NANO))), "nanoseconds would be lost");
  EXPECT_CONTAINS(ErrorOf(Convert(arrow::date64())), "use date32");
  EXPECT_EQ(ErrorOf(Convert(arrow::duration(arrow::TimeUnit::MICRO))),
            "field 'c': Arrow type duration[us] has no Iceberg type");
  EXPECT_CONTAINS(ErrorOf(Convert(arrow::dense_union({arrow::field("a", arrow::int32())}))), "has no Iceberg type");
  // Errors name the nested field by its Iceberg path.
  EXPECT_EQ(ErrorOf(Convert(arrow::struct_({arrow::field("x", arrow::list(arrow::field("e", arrow::null())))}))),
            "field 'c.x.element': the Arrow null type has no Iceberg type; give the column a real type (an optional "
            "column can hold only nulls)");
  EXPECT_EQ(ErrorOf(Convert(arrow::map(arrow::utf8(), arrow::uint64()))),
            "field 'c.value': Arrow type uint64 has no Iceberg type (Iceberg has no unsigned integers and long cannot "
            "hold them all)");
}

TEST(SchemaArrow, ReadsFieldIdsWhenEveryFieldHasOne) {
  auto schema = arrow::schema({
      arrow::field("a", arrow::int32(), false, Id(5)),
      arrow::field("l", arrow::list(arrow::field("element", arrow::utf8(), true, Id(7))), true, Id(6)),
      arrow::field("m", arrow::map(arrow::utf8(), arrow::int64()), true, Id(8)),
  });
  // The map's key and value need ids too; without them the set is incomplete.
  Result<Schema> partial = FromArrowSchema(*schema, 100);
  ASSERT_TRUE(partial.ok()) << partial.status().ToString();
  EXPECT_EQ(partial->fields[0].id, 100) << "a partial set of ids is replaced by fresh ones";
  EXPECT_EQ(partial->HighestFieldId(), 105);

  auto map_type = std::make_shared<arrow::MapType>(arrow::field("key", arrow::utf8(), false, Id(9)),
                                                   arrow::field("value", arrow::int64(), true, Id(10)));
  schema = arrow::schema({schema->field(0), schema->field(1), arrow::field("m", map_type, true, Id(8))});
  Result<Schema> full = FromArrowSchema(*schema, 100);
  ASSERT_TRUE(full.ok()) << full.status().ToString();
  EXPECT_EQ(TypeToJson(*full->AsStruct()), J(R"({"type":"struct","fields":[
      {"id":5,"name":"a","required":true,"type":"int"},
      {"id":6,"name":"l","required":false,"type":{"type":"list","element-id":7,"element":"string","element-required":false}},
      {"id":8,"name":"m","required":false,"type":{"type":"map","key-id":9,"key":"string","value-id":10,"value":"long","value-required":false}}]})"));
}

TEST(SchemaArrow, AssignsFreshIdsInIcebergsOrderWhenThereAreNone) {
  // The same shape as pyiceberg_goldens.py's fresh_ids schema.
  auto schema = arrow::schema({
      arrow::field("a", arrow::struct_({arrow::field("x", arrow::int32()),
                                        arrow::field("y", arrow::list(arrow::struct_({arrow::field("z", arrow::int32())})))})),
      arrow::field("m", arrow::map(arrow::utf8(), arrow::struct_({arrow::field("v", arrow::int64())}))),
      arrow::field("c", arrow::int32(), false),
  });
  Result<Schema> s = FromArrowSchema(*schema);
  ASSERT_TRUE(s.ok()) << s.status().ToString();
  EXPECT_EQ(TypeToJson(*s->AsStruct()), J(R"({"type":"struct","fields":[
      {"id":1,"name":"a","required":false,"type":{"type":"struct","fields":[
        {"id":4,"name":"x","required":false,"type":"int"},
        {"id":5,"name":"y","required":false,"type":{"type":"list","element-id":6,"element-required":false,
          "element":{"type":"struct","fields":[{"id":7,"name":"z","required":false,"type":"int"}]}}}]}},
      {"id":2,"name":"m","required":false,"type":{"type":"map","key-id":8,"key":"string","value-id":9,"value-required":false,
        "value":{"type":"struct","fields":[{"id":10,"name":"v","required":false,"type":"long"}]}}},
      {"id":3,"name":"c","required":true,"type":"int"}]})"));
  Result<Schema> from_10 = FromArrowSchema(*schema, 10);
  ASSERT_TRUE(from_10.ok());
  EXPECT_EQ(from_10->fields[0].id, 10);
  EXPECT_EQ(from_10->HighestFieldId(), 19);
}

TEST(SchemaArrow, RejectsBrokenIdsAndNames) {
  auto bad_id = arrow::schema({arrow::field("a", arrow::int32(), true, arrow::key_value_metadata({kParquetFieldIdKey}, {"x1"}))});
  EXPECT_EQ(ErrorOf(FromArrowSchema(*bad_id)), "field 'a': PARQUET:field_id 'x1' is not a field id");
  auto negative = arrow::schema({arrow::field("a", arrow::int32(), true, arrow::key_value_metadata({kParquetFieldIdKey}, {"-1"}))});
  EXPECT_EQ(ErrorOf(FromArrowSchema(*negative)), "field 'a': PARQUET:field_id '-1' is not a field id");
  auto huge = arrow::schema({arrow::field("a", arrow::int32(), true, arrow::key_value_metadata({kParquetFieldIdKey}, {"4294967296"}))});
  EXPECT_EQ(ErrorOf(FromArrowSchema(*huge)), "field 'a': PARQUET:field_id '4294967296' is not a field id");
  auto dup_ids = arrow::schema({arrow::field("a", arrow::int32(), true, Id(1)), arrow::field("b", arrow::int32(), true, Id(1))});
  EXPECT_EQ(ErrorOf(FromArrowSchema(*dup_ids)), "field id 1 is used twice: by 'a' and by 'b'");
  auto dup_names = arrow::schema({arrow::field("a", arrow::int32()), arrow::field("a", arrow::int64())});
  EXPECT_EQ(ErrorOf(FromArrowSchema(*dup_names)), "field name 'a' appears twice in the schema");
  auto bad_name = arrow::schema({arrow::field("a\xff", arrow::int32())});
  EXPECT_EQ(ErrorOf(FromArrowSchema(*bad_name)), "field 'a\\xff': the name is not valid UTF-8")
      << "the message itself must stay valid UTF-8";
  auto overlong = arrow::schema({arrow::field("s", arrow::struct_({arrow::field("\xc0\xaf", arrow::int32())}))});
  EXPECT_EQ(ErrorOf(FromArrowSchema(*overlong)), "field 's.\\xc0\\xaf': the name is not valid UTF-8");
  auto surrogate = arrow::schema({arrow::field("\xed\xa0\x80", arrow::int32())});
  EXPECT_FALSE(FromArrowSchema(*surrogate).ok());
  auto truncated = arrow::schema({arrow::field("\xe2\x82", arrow::int32())});
  EXPECT_FALSE(FromArrowSchema(*truncated).ok());
  auto fine = arrow::schema({arrow::field("\xe2\x82\xac \xf0\x9f\x98\x80", arrow::int32())});  // "€ 😀"
  EXPECT_TRUE(FromArrowSchema(*fine).ok());
}

TEST(SchemaArrow, AssignFreshIdsRenumbersFromOneAndKeepsIdentifierFields) {
  // pyiceberg_goldens.py "fresh_ids": assign_fresh_schema_ids on ids 101..110.
  Schema s = MustParseSchema(R"({"type":"struct","schema-id":4,"identifier-field-ids":[110],"fields":[
    {"id":101,"name":"a","required":false,"type":{"type":"struct","fields":[
      {"id":102,"name":"x","required":false,"type":"int"},
      {"id":103,"name":"y","required":false,"type":{"type":"list","element-id":104,"element-required":false,
        "element":{"type":"struct","fields":[{"id":105,"name":"z","required":false,"type":"int"}]}}}]}},
    {"id":106,"name":"m","required":false,"type":{"type":"map","key-id":107,"key":"string","value-id":108,"value-required":false,
      "value":{"type":"struct","fields":[{"id":109,"name":"v","required":false,"type":"long"}]}}},
    {"id":110,"name":"c","required":true,"type":"int"}]})");
  Schema fresh = AssignFreshIds(s);
  EXPECT_EQ(SchemaToJson(fresh), J(R"({"type":"struct","schema-id":4,"identifier-field-ids":[3],"fields":[
    {"id":1,"name":"a","required":false,"type":{"type":"struct","fields":[
      {"id":4,"name":"x","required":false,"type":"int"},
      {"id":5,"name":"y","required":false,"type":{"type":"list","element-id":6,"element-required":false,
        "element":{"type":"struct","fields":[{"id":7,"name":"z","required":false,"type":"int"}]}}}]}},
    {"id":2,"name":"m","required":false,"type":{"type":"map","key-id":8,"key":"string","value-id":9,"value-required":false,
      "value":{"type":"struct","fields":[{"id":10,"name":"v","required":false,"type":"long"}]}}},
    {"id":3,"name":"c","required":true,"type":"int"}]})"));
}

}  // namespace
}  // namespace floe::schema
