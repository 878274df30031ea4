#include "floe/json/inference.h"

#include <gtest/gtest.h>

#include "floe/json/payload_schema.h"
#include "json_test_util.h"

namespace floe::json {
namespace {

using testing::ExpectColumn;
using testing::FlushValid;

JsonType InferOk(const std::string& payload, InferenceOptions options = {}) {
  Inference inference(options);
  auto t = inference.Infer(payload);
  EXPECT_TRUE(t.ok()) << payload << ": " << t.status().ToString();
  return t.ok() ? *t : JsonType{};
}

JsonType MergeOk(const JsonType& a, const JsonType& b, InferenceOptions options = {}) {
  auto t = Merge(a, b, options);
  EXPECT_TRUE(t.ok()) << t.status().ToString();
  return t.ok() ? *t : JsonType{};
}

TEST(JsonInferenceTest, InfersOneRecord) {
  JsonType t = InferOk(R"({"a":1,"b":1.5,"c":"s","d":true,"e":null,"f":{"g":[1,2]},"h":[],"i":{},"j":1e2,"k":18446744073709551615})");
  EXPECT_EQ(ToString(t),
            "object<a: integer?, b: number?, c: string?, d: boolean?, e: null?, f: object<g: array<integer?>?>?, "
            "h: array<null?>?, i: object<>?, j: number?, k: number?>");
  // Open types have no column yet.
  auto schema = ToArrowSchema(t);
  ASSERT_TRUE(schema.ok());
  auto expected = arrow::schema({
      arrow::field("a", arrow::int64()), arrow::field("b", arrow::float64()), arrow::field("c", arrow::utf8()),
      arrow::field("d", arrow::boolean()),
      arrow::field("f", arrow::struct_({arrow::field("g", arrow::list(arrow::field("element", arrow::int64())))})),
      arrow::field("j", arrow::float64()), arrow::field("k", arrow::float64())});
  EXPECT_TRUE((*schema)->Equals(*expected)) << (*schema)->ToString();
}

TEST(JsonInferenceTest, ArrayElementsMerge) {
  EXPECT_EQ(ToString(InferOk(R"({"a":[1,2.5]})")), "object<a: array<number?>?>");
  EXPECT_EQ(ToString(InferOk(R"({"a":[null,1]})")), "object<a: array<integer?>?>");
  EXPECT_EQ(ToString(InferOk(R"({"a":[[1],[],[2.5]]})")), "object<a: array<array<number?>?>?>");
  EXPECT_EQ(ToString(InferOk(R"({"a":[{"x":1},{"y":"s"}]})")), "object<a: array<object<x: integer?, y: string?>?>?>");
  Inference inference;
  Status st = inference.Infer(R"({"a":[1,{"b":2}]})").status();
  EXPECT_EQ(st.code(), StatusCode::kInvalidArgument);
  EXPECT_NE(st.message().find("$.a[1]: a value of type object where the column is integer"), std::string::npos)
      << st.message();
  EXPECT_EQ(ToString(InferOk(R"({"a":[1,{"b":2}]})", {.conflicts_as_text = true})), "object<a: array<json-text?>?>");
}

TEST(JsonInferenceTest, RefusesWhatIsNotARecord) {
  Inference inference;
  EXPECT_NE(inference.Infer("[1]").status().message().find("$: expected object, found array"), std::string::npos);
  EXPECT_NE(inference.Infer("{").status().message().find("invalid JSON"), std::string::npos);
  EXPECT_NE(inference.Infer(R"({"a":{"b":1,"b":2}})").status().message().find("$.a.b: the property appears twice"),
            std::string::npos);
  std::string deep = R"({"a":)";
  for (int i = 0; i < 70; ++i) deep += "[";
  for (int i = 0; i < 70; ++i) deep += "]";
  deep += "}";
  Status st = inference.Infer(deep).status();
  EXPECT_NE(st.message().find("nesting deeper than 64 levels"), std::string::npos) << st.message();
  Inference shallow({.max_depth = 2});
  EXPECT_TRUE(shallow.Infer(R"({"a":{"b":1}})").ok());
  EXPECT_FALSE(shallow.Infer(R"({"a":{"b":{"c":1}}})").ok());
}

TEST(JsonInferenceTest, MergeRules) {
  JsonType a = InferOk(R"({"x":1,"o":{"p":1}})");
  JsonType b = InferOk(R"({"y":"s","x":2.5,"o":{"q":true}})");
  EXPECT_EQ(ToString(MergeOk(a, b)), "object<x: number?, o: object<p: integer?, q: boolean?>?, y: string?>");
  EXPECT_EQ(ToString(MergeOk(b, a)), "object<y: string?, x: number?, o: object<q: boolean?, p: integer?>?>");
  // Null leaves a type as it is and takes any.
  EXPECT_EQ(MergeOk(a, InferOk(R"({"x":null,"o":null})")), a);
  EXPECT_EQ(ToString(MergeOk(InferOk(R"({"x":null})"), InferOk(R"({"x":[1]})"))), "object<x: array<integer?>?>");

  Status conflict = Merge(InferOk(R"({"a":{"b":{"c":"s"}}})"), InferOk(R"({"a":{"b":{"c":{"d":1}}}})")).status();
  EXPECT_EQ(conflict.code(), StatusCode::kInvalidArgument);
  EXPECT_NE(conflict.message().find("$.a.b.c: a value of type object where the column is string"), std::string::npos)
      << conflict.message();
  EXPECT_FALSE(Merge(InferOk(R"({"a":true})"), InferOk(R"({"a":1})")).ok());
  EXPECT_FALSE(Merge(InferOk(R"({"a":[1]})"), InferOk(R"({"a":{"b":1}})")).ok());

  const InferenceOptions as_text{.conflicts_as_text = true};
  JsonType text = MergeOk(InferOk(R"({"a":{"b":"s"}})"), InferOk(R"({"a":{"b":{"d":1}}})"), as_text);
  EXPECT_EQ(ToString(text), "object<a: object<b: json-text?>?>");
  EXPECT_EQ(MergeOk(text, InferOk(R"({"a":{"b":[1]}})"), as_text), text);  // text stays text
  EXPECT_EQ(MergeOk(text, InferOk(R"({"a":{"b":5}})")), text);
}

TEST(JsonInferenceTest, FitOrWiden) {
  Inference inference;
  JsonType current = InferOk(R"({"id":1,"tags":["a"],"o":{"x":1.5},"later":null})");
  auto fit = [&](const std::string& payload) { return inference.FitOrWiden(current, payload); };
  for (const char* fits : {R"({"id":2,"tags":[],"o":{"x":2}})", R"({})", R"({"id":null,"tags":null,"o":null})",
                           R"({"unknown":null,"more":{},"empty":[[]],"later":{"a":null}})", R"({"o":{"x":1e300}})",
                           R"({"tags":["b",null,"c"],"o":{"y":null}})"}) {
    auto r = fit(fits);
    ASSERT_TRUE(r.ok()) << fits << ": " << r.status().ToString();
    EXPECT_FALSE(r->has_value()) << fits << " widened to " << ToString(**r);
  }
  auto widened = fit(R"({"id":1.5,"new":"s","o":{"z":[true]},"later":7})");
  ASSERT_TRUE(widened.ok());
  ASSERT_TRUE(widened->has_value());
  EXPECT_EQ(ToString(**widened),
            "object<id: number?, tags: array<string?>?, o: object<x: number?, z: array<boolean?>?>?, later: integer?, "
            "new: string?>");
  Status conflict = fit(R"({"tags":"a"})").status();
  EXPECT_NE(conflict.message().find("$.tags: a value of type string where the column is array"), std::string::npos)
      << conflict.message();
  EXPECT_FALSE(fit("[]").ok());
  EXPECT_FALSE(fit(R"({"id":)").ok());
}

TEST(JsonInferenceTest, TextConflictKeepsStringColumns) {
  Inference inference({.conflicts_as_text = true});
  JsonType current = InferOk(R"({"s":"x","n":1})");
  auto widened = inference.FitOrWiden(current, R"({"s":{"an":"object"}})");
  ASSERT_TRUE(widened.ok() && widened->has_value());
  EXPECT_EQ(ToString(**widened), "object<s: json-text?, n: integer?>");
  // The columns are the same: only the decoder changes.
  EXPECT_TRUE((*ToArrowSchema(**widened))->Equals(**ToArrowSchema(current)));
  auto decoder = *(*InferredPayloadSchema(**widened))->NewDecoder();
  ASSERT_TRUE(decoder->Append(R"({"s":"plain","n":1})").ok());
  ASSERT_TRUE(decoder->Append(R"({"s":{"an":"object"},"n":2})").ok());
  ASSERT_TRUE(decoder->Append(R"({"s":[1,2.5,"x"]})").ok());
  auto batch = FlushValid(*decoder);
  ExpectColumn(*batch, "s", R"(["plain", "{\"an\":\"object\"}", "[1,2.5,\"x\"]"])");
  // Once text, anything fits.
  auto again = inference.FitOrWiden(**widened, R"({"s":true})");
  ASSERT_TRUE(again.ok());
  EXPECT_FALSE(again->has_value());
}

// The loop the pipeline runs: check each record, switch writer schemas when one widens.
TEST(JsonInferenceTest, DecodesAgainstTheInferredType) {
  const std::vector<std::string> records = {
      R"({"id":1,"name":"a","meta":null,"tags":[]})",
      R"({"id":2,"name":"b","meta":{},"tags":[null]})",
      R"({"id":3,"meta":{"k":"v"},"tags":["x"]})",
      R"({"id":4.5,"name":"d"})",
  };
  Inference inference;
  JsonType current = Object({});
  std::unique_ptr<columnar::ValueDecoder> decoder;
  std::vector<std::shared_ptr<arrow::RecordBatch>> batches;
  for (const auto& record : records) {
    auto widened = inference.FitOrWiden(current, record);
    ASSERT_TRUE(widened.ok()) << widened.status().ToString();
    if (widened->has_value() || !decoder) {
      if (decoder && decoder->num_rows() > 0) batches.push_back(FlushValid(*decoder));
      if (widened->has_value()) current = **widened;
      decoder = *(*InferredPayloadSchema(current))->NewDecoder();
    }
    Status st = decoder->Append(record);
    ASSERT_TRUE(st.ok()) << record << ": " << st.ToString();
  }
  batches.push_back(FlushValid(*decoder));
  ASSERT_EQ(batches.size(), 3u);
  EXPECT_EQ(batches[0]->num_rows(), 2);  // meta and tags still open: no columns for them
  EXPECT_EQ(batches[0]->schema()->ToString(), "id: int64\nname: string");
  ExpectColumn(*batches[1], "meta", R"([{"k":"v"}])");
  ExpectColumn(*batches[1], "tags", R"([["x"]])");
  ExpectColumn(*batches[2], "id", "[4.5]");
  ExpectColumn(*batches[2], "tags", "[null]");
  // An open field refuses a value that would need a column: FitOrWiden comes first.
  auto open_decoder = *(*InferredPayloadSchema(InferOk(R"({"x":null})")))->NewDecoder();
  EXPECT_TRUE(open_decoder->Append(R"({"x":{"a":[null]}})").ok());
  Status st = open_decoder->Append(R"({"x":1})");
  EXPECT_NE(st.message().find("$.x: expected null (no type is known for it yet), found integer"), std::string::npos)
      << st.message();
}

TEST(JsonInferenceTest, ColumnsReadBackFromATable) {
  JsonType inferred = InferOk(R"({"a":1,"b":1.5,"c":"s","d":true,"f":{"g":[1,2]}})");
  auto columns = *ToArrowSchema(inferred);
  auto restored = InferredFromColumns(*columns);
  ASSERT_TRUE(restored.ok()) << restored.status().ToString();
  EXPECT_EQ(*restored, inferred);

  // Types a table may hold keep their type when JSON values of their kind arrive.
  auto table = arrow::schema({arrow::field("ts", arrow::timestamp(arrow::TimeUnit::MICRO, "UTC")),
                              arrow::field("i", arrow::int32()), arrow::field("f", arrow::float32()),
                              arrow::field("dec", arrow::decimal128(10, 2)), arrow::field("day", arrow::date32()),
                              arrow::field("m", arrow::map(arrow::utf8(), arrow::int64())),
                              arrow::field("req", arrow::utf8(), /*nullable=*/false)});
  auto from_table = InferredFromColumns(*table);
  ASSERT_TRUE(from_table.ok()) << from_table.status().ToString();
  EXPECT_TRUE((*ToArrowSchema(*from_table))->Equals(*table)) << (*ToArrowSchema(*from_table))->ToString();
  Inference inference;
  const std::string record = R"({"ts":"2024-01-01T00:00:00Z","i":5,"f":1.5,"dec":1.25,"day":"2024-01-01","m":{"a":1},"req":"r"})";
  auto fits = inference.FitOrWiden(*from_table, record);
  ASSERT_TRUE(fits.ok()) << fits.status().ToString();
  EXPECT_FALSE(fits->has_value());
  auto decoder = *(*InferredPayloadSchema(*from_table))->NewDecoder();
  ASSERT_TRUE(decoder->Append(record).ok());
  EXPECT_FALSE(decoder->Append(R"({"ts":"not a time","req":"r"})").ok());
  EXPECT_FALSE(decoder->Append(R"({"i":5})").ok());  // req is required
  EXPECT_EQ(FlushValid(*decoder)->num_rows(), 1);
  auto widened = inference.FitOrWiden(*from_table, R"({"m":{"b":2.5}})");
  ASSERT_TRUE(widened.ok() && widened->has_value());
  EXPECT_EQ(ToString((*widened)->children[5].type), "map<number?>");

  auto bad = arrow::schema({arrow::field("fx", arrow::fixed_size_binary(16))});
  Status st = InferredFromColumns(*bad).status();
  EXPECT_EQ(st.code(), StatusCode::kUnsupported);
  EXPECT_NE(st.message().find("'fx'"), std::string::npos);
}

}  // namespace
}  // namespace floe::json
