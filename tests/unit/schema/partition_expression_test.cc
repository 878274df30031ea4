#include <gtest/gtest.h>

#include "floe/schema/partition.h"
#include "schema_test_util.h"

namespace floe::schema {
namespace {

using testing::ErrorOf;
using testing::MustParseSchema;

// A table like the ones Floe creates: payload columns and the _kafka system struct.
Schema TableSchema() {
  return MustParseSchema(R"json({"type":"struct","schema-id":0,"fields":[
    {"id":1,"name":"id","required":true,"type":"long"},
    {"id":2,"name":"name","required":false,"type":"string"},
    {"id":3,"name":"amount","required":false,"type":"decimal(10,2)"},
    {"id":4,"name":"day","required":false,"type":"date"},
    {"id":5,"name":"tags","required":false,"type":{"type":"list","element-id":9,"element-required":false,
      "element":{"type":"struct","fields":[{"id":10,"name":"k","required":false,"type":"string"}]}}},
    {"id":6,"name":"attrs","required":false,"type":{"type":"map","key-id":11,"key":"string","value-id":12,
      "value-required":false,"value":"long"}},
    {"id":7,"name":"_kafka","required":true,"type":{"type":"struct","fields":[
      {"id":13,"name":"timestamp","required":true,"type":"timestamptz"},
      {"id":14,"name":"partition","required":true,"type":"int"},
      {"id":15,"name":"headers","required":false,"type":{"type":"map","key-id":16,"key":"string","value-id":17,
        "value-required":false,"value":"binary"}}]}},
    {"id":8,"name":"id_day","required":false,"type":"string"},
    {"id":18,"name":"ts","required":false,"type":"timestamp"}]})json");
}

struct Expected {
  const char* expr;
  int source_id;
  const char* name;
  Transform transform;
};

TEST(PartitionExpression, ParsesEveryFormWithDefaultNames) {
  const Schema schema = TableSchema();
  const Expected cases[] = {
      {"id", 1, "id", {TransformKind::kIdentity, 0}},
      {"identity(name)", 2, "name", {TransformKind::kIdentity, 0}},
      {"day(_kafka.timestamp)", 13, "_kafka_timestamp_day", {TransformKind::kDay, 0}},
      {"hour(_kafka.timestamp)", 13, "_kafka_timestamp_hour", {TransformKind::kHour, 0}},
      {"month(day)", 4, "day_month", {TransformKind::kMonth, 0}},
      {"year(ts)", 18, "ts_year", {TransformKind::kYear, 0}},
      {"bucket[16](id)", 1, "id_bucket_16", {TransformKind::kBucket, 16}},
      {"truncate[4](name)", 2, "name_trunc_4", {TransformKind::kTruncate, 4}},
      {"truncate[100](amount)", 3, "amount_trunc_100", {TransformKind::kTruncate, 100}},
      {"void(name)", 2, "name_null", {TransformKind::kVoid, 0}},
      {"_kafka.partition", 14, "_kafka_partition", {TransformKind::kIdentity, 0}},
      {"  bucket[8]( id )  ", 1, "id_bucket_8", {TransformKind::kBucket, 8}},
      {"DAY(_kafka.timestamp)", 13, "_kafka_timestamp_day", {TransformKind::kDay, 0}},
  };
  for (const auto& c : cases) {
    Result<PartitionField> f = ParsePartitionExpression(c.expr, schema, 1005);
    ASSERT_TRUE(f.ok()) << c.expr << ": " << f.status().ToString();
    EXPECT_EQ(f->source_id, c.source_id) << c.expr;
    EXPECT_EQ(f->field_id, 1005) << c.expr;
    EXPECT_EQ(f->name, c.name) << c.expr;
    EXPECT_EQ(f->transform, c.transform) << c.expr;
  }
}

TEST(PartitionExpression, ErrorsNameTheExpressionAndTheRule) {
  const Schema schema = TableSchema();
  auto error = [&](const char* expr) { return ErrorOf(ParsePartitionExpression(expr, schema, 1000)); };
  EXPECT_EQ(error("bucket[16](idd)"), "partition expression 'bucket[16](idd)': no column 'idd' in the schema (did you mean 'id'?)");
  EXPECT_EQ(error("day(_kafka.timestmap)"),
            "partition expression 'day(_kafka.timestmap)': no column '_kafka.timestmap' in the schema (did you mean "
            "'_kafka.timestamp'?)");
  EXPECT_EQ(error("day(name)"),
            "partition expression 'day(name)': column 'name': transform day cannot be applied to type string (it "
            "applies to date, timestamp, timestamptz, timestamp_ns and timestamptz_ns)");
  EXPECT_EQ(error("hour(day)"),
            "partition expression 'hour(day)': column 'day': transform hour cannot be applied to type date (it "
            "applies to timestamp, timestamptz, timestamp_ns and timestamptz_ns)");
  EXPECT_EQ(error("identity(tags.element.k)"),
            "partition expression 'identity(tags.element.k)': column 'tags.element.k' is inside list 'tags'; a "
            "partition source may be nested in structs only");
  EXPECT_EQ(error("tags.k"),
            "partition expression 'tags.k': column 'tags.element.k' is inside list 'tags'; a partition source may "
            "be nested in structs only");
  EXPECT_EQ(error("bucket[4](attrs.value)"),
            "partition expression 'bucket[4](attrs.value)': column 'attrs.value' is inside map 'attrs'; a partition "
            "source may be nested in structs only");
  EXPECT_EQ(error("identity(_kafka.headers.key)"),
            "partition expression 'identity(_kafka.headers.key)': column '_kafka.headers.key' is inside map "
            "'_kafka.headers'; a partition source may be nested in structs only");
  EXPECT_EQ(error("_kafka"),
            "partition expression '_kafka': column '_kafka' is a struct; partition by one of its fields "
            "('_kafka.<field>')");
  EXPECT_EQ(error("bucket[0](id)"),
            "partition expression 'bucket[0](id)': invalid transform 'bucket[0]': a number of buckets must be at least 1");
  EXPECT_EQ(error("bucket(id)"),
            "partition expression 'bucket(id)': invalid transform 'bucket': bucket needs a number of buckets, as in "
            "bucket[16]");
  EXPECT_CONTAINS(error("dya(id)"), "partition expression 'dya(id)': unknown transform 'dya' (did you mean 'day'?)");
  EXPECT_EQ(ParsePartitionExpression("dya(id)", schema, 1000).status().code(), StatusCode::kInvalidArgument);
  EXPECT_EQ(error("day(ts"), "partition expression 'day(ts': expected transform(column), as in day(ts) or bucket[16](id)");
  EXPECT_EQ(error("day()"), "partition expression 'day()': no column between the parentheses");
  EXPECT_EQ(error("(id)"), "partition expression '(id)': no transform before '('");
  EXPECT_EQ(error("  "), "partition expression '': it is empty");
  EXPECT_EQ(error("day(id)"),
            "partition expression 'day(id)': column 'id': transform day cannot be applied to type long (it applies "
            "to date, timestamp, timestamptz, timestamp_ns and timestamptz_ns)");
}

TEST(PartitionExpression, RejectsADefaultNameThatIsAnotherColumn) {
  Schema schema = TableSchema();
  schema.fields.push_back(NestedField{19, "ts_day", false, Type::Primitive(TypeId::kInt), "", {}, {}});
  EXPECT_EQ(ErrorOf(ParsePartitionExpression("day(ts)", schema, 1000)),
            "partition expression 'day(ts)': its partition field name 'ts_day' is already the name of a column of "
            "the schema");
  // Identity of the column itself is the one allowed clash.
  EXPECT_TRUE(ParsePartitionExpression("ts_day", schema, 1000).ok());
}

TEST(SortExpression, ColumnsDirectionsAndNullOrders) {
  const Schema schema = TableSchema();
  auto order = ParseSortOrder({"name", "amount DESC", "_kafka.timestamp asc nulls last", " id  desc nulls first "},
                              schema, 3);
  ASSERT_TRUE(order.ok()) << order.status().ToString();
  EXPECT_EQ(order->order_id, 3);
  ASSERT_EQ(order->fields.size(), 4u);
  EXPECT_EQ(order->fields[0].source_id, 2);
  EXPECT_EQ(order->fields[0].direction, SortDirection::kAsc);
  EXPECT_EQ(order->fields[0].null_order, NullOrder::kNullsFirst);  // Iceberg's default for asc
  EXPECT_EQ(order->fields[1].source_id, 3);
  EXPECT_EQ(order->fields[1].direction, SortDirection::kDesc);
  EXPECT_EQ(order->fields[1].null_order, NullOrder::kNullsLast);  // ... and for desc
  EXPECT_EQ(order->fields[2].source_id, 13);
  EXPECT_EQ(order->fields[2].null_order, NullOrder::kNullsLast);
  EXPECT_EQ(order->fields[3].source_id, 1);
  EXPECT_EQ(order->fields[3].direction, SortDirection::kDesc);
  EXPECT_EQ(order->fields[3].null_order, NullOrder::kNullsFirst);
  for (const auto& f : order->fields) EXPECT_EQ(f.transform.kind, TransformKind::kIdentity);
}

TEST(SortExpression, RefusesWhatCannotBeSortedBy) {
  const Schema schema = TableSchema();
  EXPECT_NE(ErrorOf(ParseSortOrder({"nmae"}, schema, 1)).find("did you mean 'name'"), std::string::npos);
  EXPECT_NE(ErrorOf(ParseSortOrder({"tags.k"}, schema, 1)).find("inside list 'tags'"), std::string::npos);
  EXPECT_NE(ErrorOf(ParseSortOrder({"_kafka"}, schema, 1)).find("not a primitive column"), std::string::npos);
  EXPECT_NE(ErrorOf(ParseSortOrder({"id sideways"}, schema, 1)).find("asc or desc"), std::string::npos);
  EXPECT_NE(ErrorOf(ParseSortOrder({"id desc nulls"}, schema, 1)).find("sort expression 'id desc nulls'"),
            std::string::npos);
}

}  // namespace
}  // namespace floe::schema
