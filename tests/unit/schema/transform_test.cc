#include <gtest/gtest.h>

#include "floe/schema/partition.h"
#include "schema_test_util.h"

namespace floe::schema {
namespace {

using testing::ErrorOf;

TEST(TransformParse, ReadsEverySpecTransformAndWritesItBack) {
  const std::pair<const char*, Transform> cases[] = {
      {"identity", {TransformKind::kIdentity, 0}}, {"bucket[16]", {TransformKind::kBucket, 16}},
      {"truncate[4]", {TransformKind::kTruncate, 4}}, {"year", {TransformKind::kYear, 0}},
      {"month", {TransformKind::kMonth, 0}},       {"day", {TransformKind::kDay, 0}},
      {"hour", {TransformKind::kHour, 0}},         {"void", {TransformKind::kVoid, 0}},
      {"bucket[1]", {TransformKind::kBucket, 1}},  {"truncate[999999999]", {TransformKind::kTruncate, 999999999}},
  };
  for (const auto& [text, expected] : cases) {
    Result<Transform> t = Transform::Parse(text);
    ASSERT_TRUE(t.ok()) << text << ": " << t.status().ToString();
    EXPECT_EQ(*t, expected) << text;
    EXPECT_EQ(t->ToString(), text);
  }
  // Java compares transform names ignoring case.
  EXPECT_EQ(*Transform::Parse("Bucket[8]"), (Transform{TransformKind::kBucket, 8}));
  EXPECT_EQ(*Transform::Parse("DAY"), (Transform{TransformKind::kDay, 0}));
}

TEST(TransformParse, RejectsMalformedTransforms) {
  EXPECT_EQ(ErrorOf(Transform::Parse("bucket")),
            "invalid transform 'bucket': bucket needs a number of buckets, as in bucket[16]");
  EXPECT_EQ(ErrorOf(Transform::Parse("bucket[0]")),
            "invalid transform 'bucket[0]': a number of buckets must be at least 1");
  EXPECT_EQ(ErrorOf(Transform::Parse("truncate[-1]")),
            "invalid transform 'truncate[-1]': a width must be a positive integer");
  EXPECT_EQ(ErrorOf(Transform::Parse("bucket[]")),
            "invalid transform 'bucket[]': a number of buckets must be a positive integer");
  EXPECT_EQ(ErrorOf(Transform::Parse("bucket[9999999999]")),
            "invalid transform 'bucket[9999999999]': a number of buckets must be a positive integer");
  EXPECT_EQ(ErrorOf(Transform::Parse("bucket[16")), "invalid transform 'bucket[16': expected name[number]");
  EXPECT_EQ(ErrorOf(Transform::Parse("day[3]")), "invalid transform 'day[3]': day takes no parameter");
  Result<Transform> unknown = Transform::Parse("dya");
  ASSERT_FALSE(unknown.ok());
  EXPECT_EQ(unknown.status().code(), StatusCode::kUnsupported) << "maybe a newer spec's transform";
  EXPECT_CONTAINS(unknown.status().message(), "unknown transform 'dya' (did you mean 'day'?)");
  EXPECT_FALSE(Transform::Parse("").ok());
}

// Source type -> result type, or "" when the transform does not apply.
struct ResultCase {
  Transform transform;
  TypePtr source;
  std::string result;
};

TEST(TransformResultType, FollowsTheSpecsTable) {
  const Transform identity{TransformKind::kIdentity, 0}, bucket{TransformKind::kBucket, 16},
      truncate{TransformKind::kTruncate, 4}, year{TransformKind::kYear, 0}, month{TransformKind::kMonth, 0},
      day{TransformKind::kDay, 0}, hour{TransformKind::kHour, 0}, void_{TransformKind::kVoid, 0};
  auto P = [](TypeId id) { return Type::Primitive(id); };
  auto list = Type::List(NestedField{1, "element", true, P(TypeId::kInt), "", {}, {}});
  const ResultCase cases[] = {
      {identity, P(TypeId::kLong), "long"},
      {identity, Type::Decimal(9, 2), "decimal(9,2)"},
      {identity, Type::Fixed(3), "fixed[3]"},
      {identity, P(TypeId::kDouble), "double"},
      {identity, P(TypeId::kVariant), ""},
      {identity, P(TypeId::kUnknown), ""},
      {identity, list, ""},
      {bucket, P(TypeId::kInt), "int"},
      {bucket, P(TypeId::kLong), "int"},
      {bucket, Type::Decimal(9, 2), "int"},
      {bucket, P(TypeId::kDate), "int"},
      {bucket, P(TypeId::kTime), "int"},
      {bucket, P(TypeId::kTimestamp), "int"},
      {bucket, P(TypeId::kTimestampTz), "int"},
      {bucket, P(TypeId::kTimestampNs), "int"},
      {bucket, P(TypeId::kTimestampTzNs), "int"},
      {bucket, P(TypeId::kString), "int"},
      {bucket, P(TypeId::kUuid), "int"},
      {bucket, Type::Fixed(4), "int"},
      {bucket, P(TypeId::kBinary), "int"},
      {bucket, P(TypeId::kFloat), ""},
      {bucket, P(TypeId::kDouble), ""},
      {bucket, P(TypeId::kBoolean), ""},
      {truncate, P(TypeId::kInt), "int"},
      {truncate, P(TypeId::kLong), "long"},
      {truncate, Type::Decimal(9, 2), "decimal(9,2)"},
      {truncate, P(TypeId::kString), "string"},
      {truncate, P(TypeId::kBinary), "binary"},
      {truncate, Type::Fixed(4), ""},
      {truncate, P(TypeId::kUuid), ""},
      {truncate, P(TypeId::kDate), ""},
      {year, P(TypeId::kDate), "int"},
      {year, P(TypeId::kTimestampTz), "int"},
      {year, P(TypeId::kTimestampNs), "int"},
      {year, P(TypeId::kTime), ""},
      {month, P(TypeId::kTimestamp), "int"},
      {month, P(TypeId::kString), ""},
      {day, P(TypeId::kDate), "date"},
      {day, P(TypeId::kTimestampTz), "date"},
      {day, P(TypeId::kTimestampTzNs), "date"},
      {day, P(TypeId::kLong), ""},
      {hour, P(TypeId::kTimestamp), "int"},
      {hour, P(TypeId::kTimestampTzNs), "int"},
      {hour, P(TypeId::kDate), ""},
      {hour, P(TypeId::kTime), ""},
      {void_, P(TypeId::kString), "string"},
      {void_, Type::Decimal(3, 1), "decimal(3,1)"},
      {void_, list, "list<int>"},
  };
  for (const auto& c : cases) {
    Result<TypePtr> r = c.transform.ResultType(*c.source);
    if (c.result.empty()) {
      EXPECT_FALSE(r.ok()) << c.transform.ToString() << " on " << c.source->ToString() << " gave "
                           << (r.ok() ? (*r)->ToString() : "");
    } else {
      ASSERT_TRUE(r.ok()) << c.transform.ToString() << " on " << c.source->ToString() << ": " << r.status().ToString();
      EXPECT_EQ((*r)->ToString(), c.result) << c.transform.ToString() << " on " << c.source->ToString();
    }
  }
}

TEST(TransformResultType, ExplainsWhereATransformApplies) {
  EXPECT_EQ(ErrorOf(Transform{TransformKind::kDay, 0}.ResultType(*Type::Primitive(TypeId::kString))),
            "transform day cannot be applied to type string (it applies to date, timestamp, timestamptz, "
            "timestamp_ns and timestamptz_ns)");
  EXPECT_EQ(ErrorOf(Transform{TransformKind::kBucket, 0}.ResultType(*Type::Primitive(TypeId::kInt))),
            "transform bucket[0]: needs at least 1 bucket");
}

}  // namespace
}  // namespace floe::schema
