#include <arrow/api.h>
#include <arrow/json/from_string.h>
#include <gtest/gtest.h>

#include <functional>
#include <random>
#include <string>

#include "avro_test_encoder.h"
#include "floe/avro/datum_decoder.h"

namespace floe::avro {
namespace {

using testing::AvroTestEncoder;
using testing::MinimalBigEndian;

// Columns of every shape, so that a record can fail inside each kind of builder.
constexpr const char* kSchema = R"({"type":"record","name":"Row","namespace":"t","fields":[
  {"name":"id","type":"long"},
  {"name":"name","type":"string"},
  {"name":"tags","type":{"type":"array","items":"string"}},
  {"name":"attrs","type":{"type":"map","values":"int"}},
  {"name":"point","type":{"type":"record","name":"P","fields":[{"name":"x","type":"int"},{"name":"label","type":"string"}]}},
  {"name":"maybe","type":["null","P"]},
  {"name":"u","type":["int","string"]},
  {"name":"amount","type":{"type":"bytes","logicalType":"decimal","precision":6,"scale":2}},
  {"name":"tail","type":"int"}]})";

struct Row {
  std::int64_t id = 1;
  std::string name = "n";
  std::vector<std::string> tags = {"a", "b"};
  std::vector<std::pair<std::string, std::int32_t>> attrs = {{"k", 1}};
  std::int32_t x = 2;
  std::string label = "l";
  bool maybe_null = false;
  bool u_is_int = true;
  std::int64_t amount = 12345;
  std::int32_t tail = 9;
};

std::string Encode(const Row& r) {
  AvroTestEncoder e;
  e.Long(r.id).String(r.name);
  if (!r.tags.empty()) e.Count(static_cast<std::int64_t>(r.tags.size()));
  for (const auto& t : r.tags) e.String(t);
  e.End();
  if (!r.attrs.empty()) e.Count(static_cast<std::int64_t>(r.attrs.size()));
  for (const auto& [k, v] : r.attrs) e.String(k).Int(v);
  e.End();
  e.Int(r.x).String(r.label);
  if (r.maybe_null) {
    e.Branch(0);
  } else {
    e.Branch(1).Int(r.x + 1).String(r.label + "!");
  }
  if (r.u_is_int) {
    e.Branch(0).Int(r.x);
  } else {
    e.Branch(1).String(r.label);
  }
  e.Bytes(MinimalBigEndian(r.amount)).Int(r.tail);
  return e.bytes();
}

// The JSON Arrow reads for the struct of all columns of one Row.
std::string Json(const Row& r) {
  std::string tags, attrs;
  for (const auto& t : r.tags) tags += (tags.empty() ? "\"" : ", \"") + t + "\"";
  for (const auto& [k, v] : r.attrs) attrs += (attrs.empty() ? "[\"" : ", [\"") + k + "\", " + std::to_string(v) + "]";
  std::string amount = std::to_string(r.amount);
  amount.insert(amount.size() - 2, ".");
  return "{\"id\": " + std::to_string(r.id) + ", \"name\": \"" + r.name + "\", \"tags\": [" + tags +
         "], \"attrs\": [" + attrs + "], \"point\": {\"x\": " + std::to_string(r.x) + ", \"label\": \"" + r.label +
         "\"}, \"maybe\": " +
         (r.maybe_null ? "null"
                       : "{\"x\": " + std::to_string(r.x + 1) + ", \"label\": \"" + r.label + "!\"}") +
         ", \"u\": " +
         (r.u_is_int ? "{\"member0\": " + std::to_string(r.x) + ", \"member1\": null}"
                     : "{\"member0\": null, \"member1\": \"" + r.label + "\"}") +
         ", \"amount\": \"" + amount + "\", \"tail\": " + std::to_string(r.tail) + "}";
}

RecordBatchDecoder MakeDecoder() {
  auto schema = ParseSchema(kSchema);
  EXPECT_TRUE(schema.ok()) << schema.status().ToString();
  auto decoder = RecordBatchDecoder::Make(*schema);
  EXPECT_TRUE(decoder.ok()) << decoder.status().ToString();
  return std::move(*decoder);
}

// The batch must be well formed, have these rows, and every column their number.
void ExpectBatch(const std::shared_ptr<arrow::RecordBatch>& batch, const std::vector<Row>& rows) {
  ASSERT_TRUE(batch);
  ASSERT_TRUE(batch->ValidateFull().ok()) << batch->ValidateFull().ToString();
  ASSERT_EQ(batch->num_rows(), static_cast<std::int64_t>(rows.size()));
  for (const auto& column : batch->columns()) EXPECT_EQ(column->length(), batch->num_rows());
  std::string json = "[";
  for (std::size_t i = 0; i < rows.size(); ++i) json += (i ? ", " : "") + Json(rows[i]);
  json += "]";
  auto expected = arrow::json::ArrayFromJSONString(arrow::struct_(batch->schema()->fields()), json);
  ASSERT_TRUE(expected.ok()) << expected.status().ToString() << "\n" << json;
  auto actual = batch->ToStructArray().ValueOrDie();
  EXPECT_TRUE(actual->Equals(**expected)) << "got      " << actual->ToString() << "\nexpected "
                                          << (*expected)->ToString();
}

TEST(AvroRecordBatchDecoder, AppendsAndFlushes) {
  RecordBatchDecoder d = MakeDecoder();
  EXPECT_EQ(d.schema()->num_fields(), 9);
  EXPECT_EQ(d.schema()->field(5)->name(), "maybe");
  EXPECT_TRUE(d.schema()->field(5)->nullable());
  Row a;
  Row b;
  b.id = -5;
  b.name = "";
  b.tags = {};
  b.attrs = {{"x", -1}, {"y", 2}};
  b.maybe_null = true;
  b.u_is_int = false;
  b.amount = -99;
  ASSERT_TRUE(d.Append(Encode(a)).ok());
  const std::string bytes_b = Encode(b);
  ASSERT_TRUE(d.Append(std::span<const std::uint8_t>(reinterpret_cast<const std::uint8_t*>(bytes_b.data()),
                                                     bytes_b.size()))
                  .ok());
  EXPECT_EQ(d.num_rows(), 2);
  auto batch = d.Flush();
  ASSERT_TRUE(batch.ok()) << batch.status().ToString();
  ExpectBatch(*batch, {a, b});
  // The next batch starts empty.
  EXPECT_EQ(d.num_rows(), 0);
  ASSERT_TRUE(d.Append(Encode(b)).ok());
  ExpectBatch(*d.Flush(), {b});
  ExpectBatch(*d.Flush(), {});
}

TEST(AvroRecordBatchDecoder, RejectsTrailingBytesWithoutAddingARow) {
  RecordBatchDecoder d = MakeDecoder();
  Status st = d.Append(Encode(Row{}) + "x");
  ASSERT_FALSE(st.ok());
  EXPECT_NE(st.message().find("but the data has"), std::string::npos) << st.message();
  EXPECT_EQ(d.num_rows(), 0);
  ExpectBatch(*d.Flush(), {});
}

// Corrupt records that fail in every kind of column, after earlier columns (and earlier
// children of the failing column) have already been appended to.
std::vector<std::pair<std::string, std::string>> CorruptRecords() {
  std::vector<std::pair<std::string, std::string>> out;
  auto add = [&](const std::string& what, const std::function<void(AvroTestEncoder&)>& f) {
    AvroTestEncoder e;
    f(e);
    out.emplace_back(what, e.bytes());
  };
  add("bad UTF-8 in the second column", [](auto& e) { e.Long(1).String("\xc3"); });
  add("array cut after one item", [](auto& e) { e.Long(1).String("n").Count(2).String("a").Long(9); });
  add("map key without value", [](auto& e) { e.Long(1).String("n").End().Count(1).String("k"); });
  add("struct child missing", [](auto& e) { e.Long(1).String("n").End().End().Int(3); });
  add("optional struct cut inside", [](auto& e) { e.Long(1).String("n").End().End().Int(3).String("l").Branch(1).Int(4); });
  add("bad union branch", [](auto& e) {
    e.Long(1).String("n").End().End().Int(3).String("l").Branch(0).Branch(7);
  });
  add("decimal over its precision", [](auto& e) {
    e.Long(1).String("n").End().End().Int(3).String("l").Branch(0).Branch(0).Int(1).Bytes(MinimalBigEndian(1000000));
  });
  add("last column missing", [](auto& e) {
    e.Long(1).String("n").End().End().Int(3).String("l").Branch(0).Branch(0).Int(1).Bytes(MinimalBigEndian(1));
  });
  add("nothing at all", [](auto&) {});
  return out;
}

TEST(AvroRecordBatchDecoder, AFailedRecordLeavesTheBatchAsItWas) {
  RecordBatchDecoder d = MakeDecoder();
  std::vector<Row> good(3);
  good[1].id = 2;
  good[1].tags = {"only"};
  good[2].id = 3;
  good[2].maybe_null = true;
  for (const auto& r : good) ASSERT_TRUE(d.Append(Encode(r)).ok());
  for (const auto& [what, bytes] : CorruptRecords()) {
    Status st = d.Append(bytes);
    EXPECT_FALSE(st.ok()) << what;
    EXPECT_EQ(st.code(), StatusCode::kInvalidArgument) << what << ": " << st.ToString();
    EXPECT_EQ(d.num_rows(), 3) << what;
  }
  // More good rows append fine after the failures (now validated first).
  Row more;
  more.id = 4;
  more.u_is_int = false;
  ASSERT_TRUE(d.Append(Encode(more)).ok());
  good.push_back(more);
  ExpectBatch(*d.Flush(), good);
  // And after the flush (optimistic decoding again).
  ASSERT_TRUE(d.Append(Encode(more)).ok());
  ASSERT_FALSE(d.Append(CorruptRecords()[1].second).ok());
  ExpectBatch(*d.Flush(), {more});
}

// Failures inside structs inside lists, maps, nested lists and union members: the
// rollback must repair every level before it can rebuild the columns.
TEST(AvroRecordBatchDecoder, RollbackRepairsDeeplyNestedBuilders) {
  auto schema = ParseSchema(R"({"type":"record","name":"N","fields":[
    {"name":"a","type":"int"},
    {"name":"l","type":{"type":"array","items":{"type":"record","name":"Q","fields":[
      {"name":"x","type":"int"},{"name":"s","type":"string"}]}}},
    {"name":"m","type":{"type":"map","values":"Q"}},
    {"name":"ll","type":{"type":"array","items":{"type":"array","items":["null","Q"]}}},
    {"name":"u","type":["null","int",{"type":"map","values":"Q"}]}]})");
  ASSERT_TRUE(schema.ok()) << schema.status().ToString();
  auto decoder = RecordBatchDecoder::Make(*schema);
  ASSERT_TRUE(decoder.ok()) << decoder.status().ToString();
  auto good = [](std::int32_t a) {
    AvroTestEncoder e;
    e.Int(a).Count(1).Int(1).String("a").End();
    e.Count(1).String("k").Int(2).String("b").End();
    e.Count(1).Count(2).Branch(0).Branch(1).Int(3).String("c").End().End();
    e.Branch(2).Count(1).String("z").Int(4).String("d").End();
    return e.bytes();
  };
  const std::string good_json = R"({"l": [{"x": 1, "s": "a"}], "m": [["k", {"x": 2, "s": "b"}]],
      "ll": [[null, {"x": 3, "s": "c"}]], "u": {"member0": null, "member1": [["z", {"x": 4, "s": "d"}]]}})";
  ASSERT_TRUE(decoder->Append(good(10)).ok());
  auto corrupt = [](const std::function<void(AvroTestEncoder&)>& f) {
    AvroTestEncoder e;
    f(e);
    return e.bytes();
  };
  const std::string bad[] = {
      corrupt([](auto& e) { e.Int(0).Count(2).Int(1).String("a").Int(2); }),
      corrupt([](auto& e) { e.Int(0).End().Count(1).String("k").Int(2); }),
      corrupt([](auto& e) { e.Int(0).End().End().Count(1).Count(2).Branch(0).Branch(1).Int(3); }),
      corrupt([](auto& e) { e.Int(0).End().End().End().Branch(2).Count(1).String("z").Int(4).String("\xff"); }),
  };
  for (const auto& b : bad) {
    EXPECT_FALSE(decoder->Append(b).ok());
    EXPECT_EQ(decoder->num_rows(), 1);
  }
  ASSERT_TRUE(decoder->Append(good(20)).ok());
  auto batch = decoder->Flush();
  ASSERT_TRUE(batch.ok());
  ASSERT_TRUE((*batch)->ValidateFull().ok()) << (*batch)->ValidateFull().ToString();
  auto expected = arrow::json::ArrayFromJSONString(
      arrow::struct_((*batch)->schema()->fields()),
      "[{\"a\": 10, " + good_json.substr(1) + ", {\"a\": 20, " + good_json.substr(1) + "]");
  ASSERT_TRUE(expected.ok()) << expected.status().ToString();
  auto actual = (*batch)->ToStructArray().ValueOrDie();
  EXPECT_TRUE(actual->Equals(**expected)) << actual->ToString();
}

TEST(AvroRecordBatchDecoder, AFailedFirstRecordLeavesAnEmptyBatch) {
  for (const auto& [what, bytes] : CorruptRecords()) {
    RecordBatchDecoder d = MakeDecoder();
    EXPECT_FALSE(d.Append(bytes).ok()) << what;
    EXPECT_EQ(d.num_rows(), 0);
    ASSERT_TRUE(d.Append(Encode(Row{})).ok()) << what;
    ExpectBatch(*d.Flush(), {Row{}});
  }
}

TEST(AvroRecordBatchDecoder, TruncationAtEveryByteIsAnErrorNotACrash) {
  RecordBatchDecoder d = MakeDecoder();
  Row r;
  r.tags = {"one", "two", "three"};
  r.attrs = {{"a", 1}, {"bb", 300000}};
  const std::string full = Encode(r);
  ASSERT_TRUE(d.Append(full).ok());
  for (std::size_t n = 0; n < full.size(); ++n) {
    // An exactly-sized heap copy, so that ASan catches any read past the prefix.
    std::vector<std::uint8_t> prefix(full.begin(), full.begin() + static_cast<std::ptrdiff_t>(n));
    Status st = d.Append(std::span<const std::uint8_t>(prefix.data(), prefix.size()));
    EXPECT_FALSE(st.ok()) << "prefix of " << n << " bytes";
    EXPECT_EQ(d.num_rows(), 1);
  }
  ASSERT_TRUE(d.Append(full).ok());
  ExpectBatch(*d.Flush(), {r, r});
}

// Random corruption of good records: whatever happens, the batch stays well formed and
// holds exactly the records that were accepted.
TEST(AvroRecordBatchDecoder, RandomlyCorruptedRecordsNeverBreakTheBatch) {
  RecordBatchDecoder d = MakeDecoder();
  std::mt19937 rng(42);
  Row r;
  r.tags = {"x", "yy"};
  r.attrs = {{"k", 5}, {"l", -6}};
  const std::string good = Encode(r);
  std::int64_t accepted = 0;
  for (int i = 0; i < 3000; ++i) {
    std::string bytes = good;
    const int flips = 1 + static_cast<int>(rng() % 3);
    for (int f = 0; f < flips; ++f) bytes[rng() % bytes.size()] = static_cast<char>(rng());
    if (rng() % 4 == 0) bytes.resize(rng() % bytes.size());
    if (d.Append(bytes).ok()) ++accepted;
    EXPECT_EQ(d.num_rows(), accepted);
    if (i % 1000 == 999) {
      auto batch = d.Flush();
      ASSERT_TRUE(batch.ok());
      ASSERT_TRUE((*batch)->ValidateFull().ok()) << (*batch)->ValidateFull().ToString();
      EXPECT_EQ((*batch)->num_rows(), accepted);
      for (const auto& column : (*batch)->columns()) EXPECT_EQ(column->length(), accepted);
      accepted = 0;
    }
  }
}

TEST(AvroRecordBatchDecoder, MakeNeedsAStorableRecord) {
  EXPECT_FALSE(RecordBatchDecoder::Make(*ParseSchema(R"("int")")).ok());
  EXPECT_FALSE(RecordBatchDecoder::Make(nullptr).ok());
  auto recursive_free_but_null = ParseSchema(R"({"type":"record","name":"R","fields":[{"name":"n","type":"null"}]})");
  ASSERT_TRUE(recursive_free_but_null.ok());
  auto st = RecordBatchDecoder::Make(*recursive_free_but_null);
  ASSERT_FALSE(st.ok());
  EXPECT_NE(st.status().message().find("field 'n'"), std::string::npos);
}

TEST(AvroRecordBatchDecoder, SurvivesBeingMoved) {
  auto made = RecordBatchDecoder::Make(*ParseSchema(kSchema));
  ASSERT_TRUE(made.ok());
  auto owned = std::make_unique<RecordBatchDecoder>(std::move(*made));
  ASSERT_TRUE(owned->Append(Encode(Row{})).ok());
  RecordBatchDecoder moved_again = std::move(*owned);
  ASSERT_TRUE(moved_again.Append(Encode(Row{})).ok());
  ExpectBatch(*moved_again.Flush(), {Row{}, Row{}});
}

}  // namespace
}  // namespace floe::avro
