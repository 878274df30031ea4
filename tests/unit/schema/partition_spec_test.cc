#include <gtest/gtest.h>

#include "floe/schema/json.h"
#include "floe/schema/partition.h"
#include "schema_test_util.h"

namespace floe::schema {
namespace {

using testing::ErrorOf;
using testing::J;
using testing::MustParseSchema;

PartitionField PF(int source, int id, const char* name, TransformKind kind, int param = 0) {
  return PartitionField{source, id, name, Transform{kind, param}};
}

TEST(PartitionSpecType, IsAStructOfOptionalResultTypes) {
  Schema schema = MustParseSchema(testing::kEveryTypeSchema);
  PartitionSpec spec{1,
                     {PF(11, 1000, "tstz_day", TransformKind::kDay), PF(1, 1001, "id_bucket", TransformKind::kBucket, 8),
                      PF(14, 1002, "s_trunc", TransformKind::kTruncate, 2), PF(30, 1003, "x", TransformKind::kIdentity),
                      PF(6, 1004, "price", TransformKind::kIdentity), PF(19, 1005, "tags_null", TransformKind::kVoid)}};
  Result<TypePtr> type = spec.PartitionType(schema);
  ASSERT_TRUE(type.ok()) << type.status().ToString();
  // Java's partitionType(): every partition field is optional, whatever its source.
  EXPECT_EQ(TypeToJson(**type), J(R"json({"type":"struct","fields":[
      {"id":1000,"name":"tstz_day","required":false,"type":"date"},
      {"id":1001,"name":"id_bucket","required":false,"type":"int"},
      {"id":1002,"name":"s_trunc","required":false,"type":"string"},
      {"id":1003,"name":"x","required":false,"type":"long"},
      {"id":1004,"name":"price","required":false,"type":"decimal(9,2)"},
      {"id":1005,"name":"tags_null","required":false,
       "type":{"type":"list","element-id":32,"element":"string","element-required":true}}]})json"));
}

TEST(PartitionSpecType, AVoidFieldMayOutliveItsSourceColumn) {
  Schema schema = MustParseSchema(testing::kEveryTypeSchema);
  PartitionSpec spec{2, {PF(999, 1000, "dropped", TransformKind::kVoid)}};
  Result<TypePtr> type = spec.PartitionType(schema);
  ASSERT_TRUE(type.ok()) << type.status().ToString();
  EXPECT_EQ((*type)->fields()[0].type->id(), TypeId::kUnknown);
}

TEST(PartitionSpecType, RejectsSourcesTheSpecForbids) {
  Schema schema = MustParseSchema(testing::kEveryTypeSchema);
  auto error = [&](PartitionField f) { return ErrorOf(PartitionSpec{4, {std::move(f)}}.PartitionType(schema)); };
  EXPECT_EQ(error(PF(999, 1000, "p", TransformKind::kIdentity)),
            "partition spec 4 field 'p': source column id 999 is not in schema 7");
  EXPECT_EQ(error(PF(14, 1000, "p", TransformKind::kDay)),
            "partition spec 4 field 'p': column 's': transform day cannot be applied to type string (it applies to "
            "date, timestamp, timestamptz, timestamp_ns and timestamptz_ns)");
  EXPECT_EQ(error(PF(32, 1000, "p", TransformKind::kIdentity)),
            "partition spec 4 field 'p': column 'tags.element' is inside list 'tags'; a partition source may be "
            "nested in structs only");
  EXPECT_EQ(error(PF(37, 1000, "p", TransformKind::kBucket, 4)),
            "partition spec 4 field 'p': column 'points.element.x' is inside list 'points'; a partition source may "
            "be nested in structs only");
  EXPECT_EQ(error(PF(18, 1000, "p", TransformKind::kIdentity)),
            "partition spec 4 field 'p': column 'point' is a struct; partition by one of its fields ('point.<field>')");
  EXPECT_EQ(error(PF(20, 1000, "p", TransformKind::kIdentity)),
            "partition spec 4 field 'p': column 'props' is a map; a partition source must be a primitive column");
}

}  // namespace
}  // namespace floe::schema
