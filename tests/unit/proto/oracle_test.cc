// Randomized: messages built and serialized by libprotobuf (DynamicMessage), decoded by the
// plan, every value compared with what libprotobuf itself parses from the same bytes.
#include <google/protobuf/dynamic_message.h>
#include <gtest/gtest.h>

#include "oracle_schemas.h"
#include "oracle_util.h"
#include "proto_test_util.h"

namespace floe::proto {
namespace {

namespace gp = google::protobuf;
using testing::CanonArrow;
using testing::CanonField;
using testing::Filler;
using testing::kProto2;
using testing::kProto3;
using testing::Oracle;
using testing::Prepare;
using testing::RandomPayloads;

// Decodes `payloads`, compares every column of every row with libprotobuf's parse of it.
void CheckAgainstLibprotobuf(Oracle& o, const std::vector<std::string>& payloads) {
  std::vector<std::unique_ptr<gp::Message>> parsed;
  for (const std::string& bytes : payloads) {
    std::unique_ptr<gp::Message> m(o.prototype->New());
    ASSERT_TRUE(m->ParseFromString(bytes));
    const Status st = o.decoder->Append(bytes);
    ASSERT_TRUE(st.ok()) << st.ToString() << "\n" << m->DebugString();
    parsed.push_back(std::move(m));
  }
  auto batch = testing::Flush(*o.decoder.decoder);
  ASSERT_TRUE(batch);
  ASSERT_EQ(batch->num_rows(), static_cast<std::int64_t>(payloads.size()));
  const gp::Descriptor* d = o.decoder.message;
  ASSERT_EQ(batch->num_columns(), d->field_count());
  for (std::size_t row = 0; row < parsed.size(); ++row) {
    for (int c = 0; c < d->field_count(); ++c) {
      ASSERT_EQ(CanonArrow(*batch->column(c), static_cast<std::int64_t>(row)), CanonField(*parsed[row], d->field(c)))
          << "row " << row << " column " << d->field(c)->name() << "\n" << parsed[row]->DebugString();
    }
  }
}

TEST(ProtoOracleTest, Proto3EveryMappedType) {
  Oracle o;
  Prepare(o, kProto3, "oracle.Row");
  for (std::uint64_t seed = 1; seed <= 4; ++seed) CheckAgainstLibprotobuf(o, RandomPayloads(o, seed, 150, false));
}

TEST(ProtoOracleTest, Proto3MergedMessages) {
  Oracle o;
  Prepare(o, kProto3, "oracle.Row");
  for (std::uint64_t seed = 11; seed <= 14; ++seed) CheckAgainstLibprotobuf(o, RandomPayloads(o, seed, 150, true));
}

TEST(ProtoOracleTest, Proto2DefaultsGroupsAndRequired) {
  Oracle o;
  Prepare(o, kProto2, "oracle2.Row2");
  for (std::uint64_t seed = 21; seed <= 24; ++seed) CheckAgainstLibprotobuf(o, RandomPayloads(o, seed, 200, seed % 2 == 0));
}

TEST(ProtoOracleTest, FieldsOfANewerWriterAreSkipped) {
  // Written with a newer schema (more fields, of every wire type, groups too); read with the old.
  Oracle newer;
  Prepare(newer, R"(syntax = "proto2"; package oracle2;
message Row2 {
  optional int32 a = 1; optional string s = 2; required sint32 req = 5; repeated int32 packed = 7 [packed = true];
  optional string extra = 100; repeated fixed32 extra_r = 101 [packed = true]; repeated sfixed64 extra_u = 105;
  optional group Blob = 102 { optional group Deeper = 1 { optional int64 q = 1; repeated double w = 2; } }
  optional double extra_d = 103; optional Sub extra_m = 104;
}
message Sub { optional string t = 1; repeated uint64 u = 2; })",
        "oracle2.Row2");
  Oracle older;
  Prepare(older, kProto2, "oracle2.Row2");
  const std::vector<std::string> payloads = RandomPayloads(newer, 31, 300, true);
  CheckAgainstLibprotobuf(older, payloads);
}

}  // namespace
}  // namespace floe::proto
