#include <gtest/gtest.h>

#include "floe/schema/json.h"
#include "schema_test_util.h"

namespace floe::schema {
namespace {

using testing::ErrorOf;
using testing::J;

std::string SpecError(const std::string& text) { return ErrorOf(PartitionSpecFromJson(J(text))); }
std::string OrderError(const std::string& text) { return ErrorOf(SortOrderFromJson(J(text))); }

TEST(PartitionSpecJson, EveryTransformRoundTrips) {
  const auto input = J(R"json({"spec-id": 3, "fields": [
    {"name": "id", "transform": "identity", "source-id": 1, "field-id": 1000},
    {"name": "id_bucket_16", "transform": "bucket[16]", "source-id": 1, "field-id": 1001},
    {"name": "s_trunc_4", "transform": "truncate[4]", "source-id": 14, "field-id": 1002},
    {"name": "ts_year", "transform": "year", "source-id": 10, "field-id": 1003},
    {"name": "ts_month", "transform": "month", "source-id": 10, "field-id": 1004},
    {"name": "ts_day", "transform": "day", "source-id": 10, "field-id": 1005},
    {"name": "ts_hour", "transform": "hour", "source-id": 10, "field-id": 1006},
    {"name": "old_null", "transform": "void", "source-id": 3, "field-id": 1007}]})json");
  Result<PartitionSpec> spec = PartitionSpecFromJson(input);
  ASSERT_TRUE(spec.ok()) << spec.status().ToString();
  EXPECT_EQ(spec->spec_id, 3);
  ASSERT_EQ(spec->fields.size(), 8u);
  EXPECT_EQ(spec->fields[1].transform, (Transform{TransformKind::kBucket, 16}));
  EXPECT_EQ(spec->fields[2].source_id, 14);
  EXPECT_EQ(spec->fields[7].field_id, 1007);
  EXPECT_FALSE(spec->is_unpartitioned());
  EXPECT_EQ(PartitionSpecToJson(*spec), input);
}

TEST(PartitionSpecJson, UnpartitionedSpecs) {
  Result<PartitionSpec> empty = PartitionSpecFromJson(J(R"({"spec-id":0,"fields":[]})"));
  ASSERT_TRUE(empty.ok());
  EXPECT_TRUE(empty->is_unpartitioned());
  EXPECT_EQ(PartitionSpecToJson(*empty), J(R"({"spec-id":0,"fields":[]})"));
  Result<PartitionSpec> voids = PartitionSpecFromJson(
      J(R"({"spec-id":1,"fields":[{"name":"a","transform":"void","source-id":1,"field-id":1000}]})"));
  ASSERT_TRUE(voids.ok());
  EXPECT_TRUE(voids->is_unpartitioned()) << "a spec of only void fields partitions nothing";
}

TEST(PartitionSpecJson, ReadsV1SpecsWithoutFieldIdsAndV3SourceIds) {
  Result<PartitionSpec> v1 = PartitionSpecFromJson(J(R"({"spec-id":0,"fields":[
      {"name":"a","transform":"identity","source-id":1},{"name":"b","transform":"day","source-id":2}]})"));
  ASSERT_TRUE(v1.ok()) << v1.status().ToString();
  EXPECT_EQ(v1->fields[0].field_id, 1000);
  EXPECT_EQ(v1->fields[1].field_id, 1001);
  Result<PartitionSpec> v3 = PartitionSpecFromJson(
      J(R"({"spec-id":0,"fields":[{"name":"a","transform":"identity","source-ids":[7],"field-id":1000}]})"));
  ASSERT_TRUE(v3.ok()) << v3.status().ToString();
  EXPECT_EQ(v3->fields[0].source_id, 7);
  Result<PartitionSpec> multi = PartitionSpecFromJson(
      J(R"({"spec-id":0,"fields":[{"name":"a","transform":"identity","source-ids":[7,8],"field-id":1000}]})"));
  ASSERT_FALSE(multi.ok());
  EXPECT_EQ(multi.status().code(), StatusCode::kUnsupported);
}

TEST(PartitionSpecJson, RejectsMalformedSpecs) {
  EXPECT_EQ(SpecError(R"({"fields":[]})"), "partition spec: missing \"spec-id\"");
  EXPECT_EQ(SpecError(R"({"spec-id":0})"), "partition spec 0: missing \"fields\"");
  EXPECT_EQ(SpecError(R"({"spec-id":0,"fields":[{"transform":"day","source-id":1,"field-id":1000}]})"),
            "partition spec 0 field 0: missing \"name\"");
  EXPECT_EQ(SpecError(R"({"spec-id":0,"fields":[{"name":"","transform":"day","source-id":1,"field-id":1000}]})"),
            "partition spec 0 field 0: a partition field name must not be empty");
  EXPECT_EQ(SpecError(R"({"spec-id":0,"fields":[{"name":"a","source-id":1,"field-id":1000}]})"),
            "partition spec 0 field 0 ('a'): missing \"transform\"");
  EXPECT_EQ(SpecError(R"({"spec-id":0,"fields":[{"name":"a","transform":"day","field-id":1000}]})"),
            "partition spec 0 field 0 ('a'): missing \"source-id\"");
  EXPECT_EQ(SpecError(R"({"spec-id":0,"fields":[{"name":"a","transform":"bucket[0]","source-id":1,"field-id":1000}]})"),
            "partition spec 0 field 0 ('a'): invalid transform 'bucket[0]': a number of buckets must be at least 1");
  EXPECT_EQ(SpecError(R"({"spec-id":0,"fields":[{"name":"a","transform":"day","source-id":"1","field-id":1000}]})"),
            "partition spec 0 field 0 ('a'): \"source-id\" must be an integer, got a string");
  EXPECT_EQ(SpecError(R"({"spec-id":0,"fields":[{"name":"a","transform":"day","source-id":1,"field-id":1000},
                                                {"name":"b","transform":"day","source-id":2,"field-id":1000}]})"),
            "partition spec 0: partition field id 1000 is used twice: by 'a' and by 'b'");
  EXPECT_EQ(SpecError(R"({"spec-id":0,"fields":[{"name":"a","transform":"day","source-id":1,"field-id":1000},
                                                {"name":"a","transform":"hour","source-id":2,"field-id":1001}]})"),
            "partition spec 0: partition field name 'a' is used twice");
  EXPECT_EQ(SpecError(R"({"spec-id":0,"fields":[{"name":"a","transform":"day","source-id":1,"field-id":1000},
                                                {"name":"b","transform":"hour","source-id":2}]})"),
            "partition spec 0: 1 of 2 fields have no \"field-id\" (either all or none may omit it)");
  Result<PartitionSpec> unknown = PartitionSpecFromJson(
      J(R"({"spec-id":0,"fields":[{"name":"a","transform":"zorder","source-id":1,"field-id":1000}]})"));
  ASSERT_FALSE(unknown.ok());
  EXPECT_EQ(unknown.status().code(), StatusCode::kUnsupported);
}

TEST(SortOrderJson, RoundTrips) {
  const auto input = J(R"({"order-id": 2, "fields": [
    {"transform": "identity", "source-id": 1, "direction": "asc", "null-order": "nulls-first"},
    {"transform": "bucket[4]", "source-id": 2, "direction": "desc", "null-order": "nulls-last"},
    {"transform": "day", "source-id": 3, "direction": "asc", "null-order": "nulls-last"}]})");
  Result<SortOrder> order = SortOrderFromJson(input);
  ASSERT_TRUE(order.ok()) << order.status().ToString();
  EXPECT_EQ(order->order_id, 2);
  ASSERT_EQ(order->fields.size(), 3u);
  EXPECT_EQ(order->fields[1].direction, SortDirection::kDesc);
  EXPECT_EQ(order->fields[1].null_order, NullOrder::kNullsLast);
  EXPECT_EQ(order->fields[1].transform, (Transform{TransformKind::kBucket, 4}));
  EXPECT_EQ(SortOrderToJson(*order), input);
  Result<SortOrder> unsorted = SortOrderFromJson(J(R"({"order-id":0,"fields":[]})"));
  ASSERT_TRUE(unsorted.ok());
  EXPECT_EQ(SortOrderToJson(*unsorted), J(R"({"order-id":0,"fields":[]})"));
  // Java reads directions and null orders in any case; v3 writers may use "source-ids".
  Result<SortOrder> loose = SortOrderFromJson(J(R"({"order-id":1,"fields":[
      {"transform":"identity","source-ids":[5],"direction":"DESC","null-order":"NULLS-FIRST"}]})"));
  ASSERT_TRUE(loose.ok()) << loose.status().ToString();
  EXPECT_EQ(loose->fields[0].source_id, 5);
  EXPECT_EQ(loose->fields[0].direction, SortDirection::kDesc);
}

TEST(SortOrderJson, RejectsMalformedOrders) {
  EXPECT_EQ(OrderError(R"({"fields":[]})"), "sort order: missing \"order-id\"");
  EXPECT_EQ(OrderError(R"({"order-id":1,"fields":[{"transform":"identity","source-id":1,"direction":"up","null-order":"nulls-first"}]})"),
            "sort order 1 field 0: \"direction\" must be \"asc\" or \"desc\", got \"up\"");
  EXPECT_EQ(OrderError(R"({"order-id":1,"fields":[{"transform":"identity","source-id":1,"direction":"asc","null-order":"first"}]})"),
            "sort order 1 field 0: \"null-order\" must be \"nulls-first\" or \"nulls-last\", got \"first\"");
  EXPECT_EQ(OrderError(R"({"order-id":1,"fields":[{"transform":"identity","source-id":1,"null-order":"nulls-first"}]})"),
            "sort order 1 field 0: missing \"direction\"");
  EXPECT_EQ(OrderError(R"({"order-id":1,"fields":[{"source-id":1,"direction":"asc","null-order":"nulls-first"}]})"),
            "sort order 1 field 0: missing \"transform\"");
  EXPECT_EQ(OrderError(R"({"order-id":0,"fields":[{"transform":"identity","source-id":1,"direction":"asc","null-order":"nulls-first"}]})"),
            "sort order 0 is reserved for the unsorted order but has 1 fields");
  EXPECT_EQ(OrderError(R"({"order-id":3,"fields":[]})"), "sort order 3 has no fields; the unsorted order must have id 0");
  EXPECT_EQ(OrderError(R"({"order-id":1,"fields":"x"})"), "sort order 1: \"fields\" must be an array, got a string");
}

}  // namespace
}  // namespace floe::schema
