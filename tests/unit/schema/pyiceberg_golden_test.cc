// JSON written by pyiceberg 0.12.0 (an independent implementation of the spec), pasted from
// the output of pyiceberg_goldens.py: Floe must read it and write the same JSON back.
#include <gtest/gtest.h>

#include <regex>

#include "floe/schema/json.h"
#include "schema_test_util.h"

namespace floe::schema {
namespace {

using nlohmann::json;
using testing::J;

constexpr const char* kPyicebergSchema = R"json({"type":"struct","fields":[{"id":1,"name":"id","type":"long","required":true,"doc":"primary key"},{"id":2,"name":"flag","type":"boolean","required":false},{"id":3,"name":"i","type":"int","required":false},{"id":4,"name":"f","type":"float","required":false},{"id":5,"name":"d","type":"double","required":false},{"id":6,"name":"price","type":"decimal(9, 2)","required":false},{"id":7,"name":"day","type":"date","required":false},{"id":8,"name":"t","type":"time","required":false},{"id":9,"name":"ts","type":"timestamp","required":false},{"id":10,"name":"tstz","type":"timestamptz","required":false},{"id":11,"name":"ts_ns","type":"timestamp_ns","required":false},{"id":12,"name":"tstz_ns","type":"timestamptz_ns","required":false},{"id":13,"name":"s","type":"string","required":false},{"id":14,"name":"u","type":"uuid","required":false},{"id":15,"name":"fx","type":"fixed[16]","required":false},{"id":16,"name":"b","type":"binary","required":false},{"id":17,"name":"point","type":{"type":"struct","fields":[{"id":20,"name":"x","type":"double","required":true},{"id":21,"name":"y","type":"double","required":false}]},"required":false},{"id":18,"name":"tags","type":{"type":"list","element-id":22,"element":"string","element-required":true},"required":false},{"id":19,"name":"props","type":{"type":"map","key-id":23,"key":"string","value-id":24,"value":{"type":"list","element-id":25,"element":"int","element-required":false},"value-required":false},"required":true}],"schema-id":3,"identifier-field-ids":[1]})json";

constexpr const char* kPyicebergSpec = R"json({"spec-id":2,"fields":[{"source-id":10,"field-id":1000,"transform":"day","name":"tstz_day"},{"source-id":1,"field-id":1001,"transform":"bucket[16]","name":"id_bucket_16"},{"source-id":13,"field-id":1002,"transform":"truncate[4]","name":"s_trunc_4"},{"source-id":9,"field-id":1003,"transform":"hour","name":"ts_hour"},{"source-id":7,"field-id":1004,"transform":"month","name":"day_month"},{"source-id":7,"field-id":1005,"transform":"year","name":"day_year"},{"source-id":3,"field-id":1006,"transform":"identity","name":"i"},{"source-id":2,"field-id":1007,"transform":"void","name":"flag_null"}]})json";

// pyiceberg's partition_type(); it copies `required` from the source column (id_bucket_16
// is required because id is), where Java's partitionType() makes every field optional.
// Floe follows Java: the only difference below.
constexpr const char* kPyicebergPartitionType = R"json({"type":"struct","fields":[{"id":1000,"name":"tstz_day","type":"date","required":false},{"id":1001,"name":"id_bucket_16","type":"int","required":true},{"id":1002,"name":"s_trunc_4","type":"string","required":false},{"id":1003,"name":"ts_hour","type":"int","required":false},{"id":1004,"name":"day_month","type":"int","required":false},{"id":1005,"name":"day_year","type":"int","required":false},{"id":1006,"name":"i","type":"int","required":false},{"id":1007,"name":"flag_null","type":"boolean","required":false}]})json";

constexpr const char* kPyicebergSortOrder = R"json({"order-id":4,"fields":[{"source-id":1,"transform":"identity","direction":"asc","null-order":"nulls-first"},{"source-id":10,"transform":"day","direction":"desc","null-order":"nulls-last"}]})json";

// pyiceberg (like Java) writes "decimal(9, 2)"; the spec's form, which Floe writes, has no
// space. Both read the same everywhere.
json WithoutDecimalSpaces(const char* text) {
  return J(std::regex_replace(text, std::regex(R"(decimal\((\d+), (\d+)\))"), "decimal($1,$2)"));
}

TEST(SchemaPyicebergGolden, SchemaReadsAndWritesBackTheSameJson) {
  Result<Schema> s = SchemaFromJson(J(kPyicebergSchema));
  ASSERT_TRUE(s.ok()) << s.status().ToString();
  EXPECT_EQ(SchemaToJson(*s), WithoutDecimalSpaces(kPyicebergSchema));
}

TEST(SchemaPyicebergGolden, PartitionSpecReadsAndWritesBackTheSameJson) {
  Result<PartitionSpec> spec = PartitionSpecFromJson(J(kPyicebergSpec));
  ASSERT_TRUE(spec.ok()) << spec.status().ToString();
  EXPECT_EQ(PartitionSpecToJson(*spec), J(kPyicebergSpec));
}

TEST(SchemaPyicebergGolden, PartitionTypeMatchesUpToJavasOptionality) {
  Result<Schema> s = SchemaFromJson(J(kPyicebergSchema));
  Result<PartitionSpec> spec = PartitionSpecFromJson(J(kPyicebergSpec));
  ASSERT_TRUE(s.ok() && spec.ok());
  Result<TypePtr> type = spec->PartitionType(*s);
  ASSERT_TRUE(type.ok()) << type.status().ToString();
  json expected = J(kPyicebergPartitionType);
  expected["fields"][1]["required"] = false;
  EXPECT_EQ(TypeToJson(**type), expected);
}

TEST(SchemaPyicebergGolden, SortOrderReadsAndWritesBackTheSameJson) {
  Result<SortOrder> order = SortOrderFromJson(J(kPyicebergSortOrder));
  ASSERT_TRUE(order.ok()) << order.status().ToString();
  EXPECT_EQ(SortOrderToJson(*order), J(kPyicebergSortOrder));
}

}  // namespace
}  // namespace floe::schema
