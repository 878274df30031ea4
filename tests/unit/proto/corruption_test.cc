// Malformed input never crashes: every truncation and random bit flips of valid payloads.
// Each corrupt payload is either refused (appending nothing) or decoded; Validate agrees with
// Append; batches stay valid. Where libprotobuf also accepts a corrupted proto3 payload, the
// values must agree with its parse.
#include <google/protobuf/dynamic_message.h>
#include <google/protobuf/stubs/logging.h>
#include <gtest/gtest.h>

#include "oracle_schemas.h"
#include "oracle_util.h"
#include "proto_test_util.h"

namespace floe::proto {
namespace {

namespace gp = google::protobuf;

struct Tally {
  int accepted = 0;
  int refused = 0;
  int compared = 0;
};

class Corrupter {
 public:
  Corrupter(testing::Oracle& oracle, bool compare) : o_(oracle), compare_(compare) {}

  void Try(const std::string& bytes) {
    const std::int64_t before = o_.decoder->num_rows();
    const Status checked = o_.decoder->Validate(bytes);
    const Status st = o_.decoder->Append(bytes);
    ASSERT_EQ(checked.ok(), st.ok()) << checked.ToString() << " vs " << st.ToString();
    if (!st.ok()) {
      ASSERT_EQ(st.code(), StatusCode::kInvalidArgument) << st.ToString();
      ASSERT_EQ(checked.message(), st.message());
      ASSERT_EQ(o_.decoder->num_rows(), before);
      ++tally_.refused;
      return;
    }
    ASSERT_EQ(o_.decoder->num_rows(), before + 1);
    ++tally_.accepted;
    std::unique_ptr<gp::Message> parsed(o_.prototype->New());
    rows_.push_back(compare_ && parsed->ParseFromString(bytes) ? std::move(parsed) : nullptr);
    if (rows_.size() >= 256) Check();
  }

  // Flushes and compares the rows libprotobuf parsed too.
  void Check() {
    auto batch = testing::Flush(*o_.decoder.decoder);
    ASSERT_TRUE(batch);
    ASSERT_EQ(batch->num_rows(), static_cast<std::int64_t>(rows_.size()));
    const gp::Descriptor* d = o_.decoder.message;
    for (std::size_t row = 0; row < rows_.size(); ++row) {
      if (!rows_[row]) continue;
      ++tally_.compared;
      for (int c = 0; c < d->field_count(); ++c) {
        ASSERT_EQ(testing::CanonArrow(*batch->column(c), static_cast<std::int64_t>(row)),
                  testing::CanonField(*rows_[row], d->field(c)))
            << "column " << d->field(c)->name() << "\n" << rows_[row]->DebugString();
      }
    }
    rows_.clear();
  }

  const Tally& tally() const { return tally_; }

 private:
  testing::Oracle& o_;
  bool compare_;
  std::vector<std::unique_ptr<gp::Message>> rows_;
  Tally tally_;
};

void Corrupt(const char* schema, const std::string& message, std::uint64_t seed, bool compare) {
  testing::Oracle o;
  testing::Prepare(o, schema, message);
  ASSERT_TRUE(o.decoder.decoder);
  // libprotobuf logs every invalid string it meets; the corrupt ones are expected here.
  gp::LogSilencer quiet;
  const std::vector<std::string> payloads = testing::RandomPayloads(o, seed, 24, false);
  Corrupter corrupter(o, compare);
  testing::Filler dice(seed * 7919);
  for (const std::string& payload : payloads) {
    for (std::size_t n = 0; n < payload.size(); ++n) corrupter.Try(payload.substr(0, n));
    for (int flips = 0; flips < 60 && !payload.empty(); ++flips) {
      std::string bad = payload;
      for (auto k = dice.Range(1, 3); k > 0; --k) {
        bad[static_cast<std::size_t>(dice.Range(0, static_cast<std::int64_t>(bad.size()) - 1))] ^=
            static_cast<char>(1 << dice.Range(0, 7));
      }
      corrupter.Try(bad);
    }
    // A byte inserted or dropped shifts every field after it.
    const auto at = static_cast<std::size_t>(dice.Range(0, static_cast<std::int64_t>(payload.size())));
    corrupter.Try(payload.substr(0, at) + static_cast<char>(dice.Range(0, 255)) + payload.substr(at));
    if (at < payload.size()) corrupter.Try(payload.substr(0, at) + payload.substr(at + 1));
  }
  corrupter.Check();
  ::testing::Test::RecordProperty("accepted", corrupter.tally().accepted);
  ::testing::Test::RecordProperty("refused", corrupter.tally().refused);
  ::testing::Test::RecordProperty("compared", corrupter.tally().compared);
  EXPECT_GT(corrupter.tally().refused, 0);
  EXPECT_GT(corrupter.tally().accepted, 0);
  if (compare) {
    EXPECT_GT(corrupter.tally().compared, 0);
  }
}

TEST(ProtoCorruptionTest, Proto3TruncationsAndBitFlips) { Corrupt(testing::kProto3, "oracle.Row", 101, true); }

// Proto2 enums are closed: libprotobuf moves an unknown number to the unknown fields where the
// decoder keeps it as text, so a corrupted enum differs by design; only robustness is checked.
TEST(ProtoCorruptionTest, Proto2TruncationsAndBitFlips) { Corrupt(testing::kProto2, "oracle2.Row2", 202, false); }

TEST(ProtoCorruptionTest, KeyFormSurvivesCorruption) {
  auto d = testing::MakeDecoder(testing::kProto3, "oracle.Inner", "key");
  ASSERT_TRUE(d.decoder);
  testing::Filler filler(303);
  gp::DynamicMessageFactory factory;
  for (int i = 0; i < 200; ++i) {
    std::unique_ptr<gp::Message> m(factory.GetPrototype(d.message)->New());
    filler.Fill(m.get());
    std::string bytes = m->SerializeAsString();
    if (!bytes.empty() && filler.Chance(70)) bytes[static_cast<std::size_t>(filler.Range(0, static_cast<std::int64_t>(bytes.size()) - 1))] ^= 0x5a;
    if (filler.Chance(30)) bytes.resize(bytes.size() / 2);
    const std::int64_t before = d->num_rows();
    const bool ok = d->Validate(bytes).ok();
    EXPECT_EQ(d->Append(bytes).ok(), ok);
    EXPECT_EQ(d->num_rows(), before + (ok ? 1 : 0));
    if (filler.Chance(10)) {
      ASSERT_TRUE(d->AppendNull().ok());
    }
  }
  ASSERT_TRUE(testing::Flush(*d.decoder));
}

}  // namespace
}  // namespace floe::proto
