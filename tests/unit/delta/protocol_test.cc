#include "floe/delta/protocol.h"

#include <gtest/gtest.h>

namespace floe::delta {
namespace {

schema::Schema With(schema::TypeId type) {
  schema::Schema s;
  s.fields.push_back({1, "c", false, schema::Type::Primitive(type), "", std::nullopt, std::nullopt});
  return s;
}

TEST(DeltaProtocol, MinimalVersionsForTheFeaturesUsed) {
  EXPECT_EQ(RequiredProtocol(With(schema::TypeId::kLong), false), (Protocol{1, 2, {}, {}}));
  EXPECT_EQ(RequiredProtocol(With(schema::TypeId::kLong), true), (Protocol{2, 5, {}, {}}));
  EXPECT_EQ(RequiredProtocol(With(schema::TypeId::kTimestampTz), true), (Protocol{2, 5, {}, {}}));
  EXPECT_EQ(RequiredProtocol(With(schema::TypeId::kTimestamp), false),
            (Protocol{3, 7, {"timestampNtz"}, {"timestampNtz"}}));
  EXPECT_EQ(RequiredProtocol(With(schema::TypeId::kTimestamp), true),
            (Protocol{3, 7, {"columnMapping", "timestampNtz"}, {"columnMapping", "timestampNtz"}}));
}

TEST(DeltaProtocol, UpgradeToFeaturesKeepsWhatTheLegacyVersionsAllowed) {
  const Protocol merged = MergeProtocols(Protocol{2, 5, {}, {}}, Protocol{3, 7, {"timestampNtz"}, {"timestampNtz"}});
  EXPECT_EQ(merged.min_reader_version, 3);
  EXPECT_EQ(merged.min_writer_version, 7);
  EXPECT_TRUE(merged.reader_features.count("columnMapping"));
  EXPECT_TRUE(merged.writer_features.count("columnMapping"));
  EXPECT_TRUE(merged.writer_features.count("timestampNtz"));
  EXPECT_EQ(MergeProtocols(Protocol{2, 5, {}, {}}, Protocol{1, 2, {}, {}}), (Protocol{2, 5, {}, {}}));
}

TEST(DeltaProtocol, UnsupportedWriterFeaturesAndActiveConstraintsRefuseAppends) {
  EXPECT_TRUE(CheckWritable(Protocol{3, 7, {"deletionVectors"}, {"deletionVectors"}}, {}, "{}").ok());
  auto row_tracking = CheckWritable(Protocol{3, 7, {}, {"rowTracking"}}, {}, "{}");
  EXPECT_EQ(row_tracking.code(), StatusCode::kUnsupported);
  EXPECT_NE(row_tracking.ToString().find("rowTracking"), std::string::npos);
  EXPECT_EQ(CheckWritable(Protocol{1, 3, {}, {}}, {{"delta.constraints.positive", "x > 0"}}, "{}").code(),
            StatusCode::kUnsupported);
  EXPECT_EQ(CheckWritable(Protocol{1, 8, {}, {}}, {}, "{}").code(), StatusCode::kUnsupported);
}

}  // namespace
}  // namespace floe::delta
