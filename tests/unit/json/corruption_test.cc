// Truncated and bit-flipped payloads: the decoder never crashes and never leaves part of a
// record in its columns (checked against a decoder that only ever sees the accepted payloads).
#include <gtest/gtest.h>

#include <random>

#include "floe/json/inference.h"
#include "json_test_util.h"

namespace floe::json {
namespace {

using testing::FlushValid;
using testing::ValueDecoderFor;

constexpr const char* kCorruptedRecordSchema = R"({"type":"object","required":["id"],"properties":{
  "id":{"type":"integer"},
  "name":{"type":["null","string"]},
  "tags":{"type":"array","items":{"type":["string","null"]}},
  "attrs":{"type":"object","additionalProperties":{"type":"integer"}},
  "point":{"type":"object","properties":{"x":{"type":"number"},"when":{"type":"string","format":"date-time"}}},
  "grid":{"type":"array","items":{"type":"array","items":{"type":"integer"}}},
  "amount":{"type":"number","connect.parameters":{"scale":"2","connect.decimal.precision":"10"}},
  "raw":{"type":"string","connect.type":"bytes"},
  "any":{}}})";

const char* const kPayloads[] = {
    R"({"id":1,"name":"n\u00e9","tags":["a",null],"attrs":{"k":1,"l":-2},"point":{"x":1.5,"when":"2024-01-02T03:04:05.6Z"},"grid":[[1,2],[]],"amount":12.5,"raw":"AAEC","any":{"z":[true]}})",
    R"({"grid":[[3]],"id":-7,"point":{"x":-0.0},"attrs":{},"tags":[],"extra":[{"a":1}]})",
};

// Feeds one payload to the decoder under test; whatever it accepts goes to the reference too.
void Feed(columnar::ValueDecoder& decoder, columnar::ValueDecoder& reference, const std::string& payload) {
  const std::int64_t before = decoder.num_rows();
  const Status validated = decoder.Validate(payload);
  const Status st = decoder.Append(payload);
  ASSERT_EQ(validated.ok(), st.ok()) << payload;
  if (!st.ok()) {
    ASSERT_EQ(decoder.num_rows(), before) << payload;
    ASSERT_EQ(st.code(), StatusCode::kInvalidArgument) << payload << ": " << st.ToString();
    return;
  }
  ASSERT_TRUE(reference.Append(payload).ok()) << payload;
}

void ExpectSameRows(columnar::ValueDecoder& decoder, columnar::ValueDecoder& reference) {
  auto got = FlushValid(decoder);
  auto expected = FlushValid(reference);
  ASSERT_NE(got, nullptr);
  ASSERT_NE(expected, nullptr);
  EXPECT_EQ(got->num_rows(), expected->num_rows());
  EXPECT_TRUE(got->Equals(*expected));
}

TEST(JsonCorruptionTest, TruncationsAppendNothing) {
  auto decoder = ValueDecoderFor(kCorruptedRecordSchema);
  auto reference = ValueDecoderFor(kCorruptedRecordSchema);
  for (const std::string payload : kPayloads) {
    ASSERT_TRUE(decoder->Append(payload).ok());
    ASSERT_TRUE(reference->Append(payload).ok());
    for (std::size_t n = 0; n < payload.size(); ++n) Feed(*decoder, *reference, payload.substr(0, n));
  }
  ExpectSameRows(*decoder, *reference);
}

TEST(JsonCorruptionTest, BitFlipsAppendNothing) {
  auto decoder = ValueDecoderFor(kCorruptedRecordSchema);
  auto reference = ValueDecoderFor(kCorruptedRecordSchema);
  int accepted = 0;
  for (const std::string payload : kPayloads) {
    for (std::size_t i = 0; i < payload.size(); ++i) {
      for (int bit = 0; bit < 8; ++bit) {
        std::string flipped = payload;
        flipped[i] = static_cast<char>(flipped[i] ^ (1 << bit));
        const std::int64_t before = decoder->num_rows();
        Feed(*decoder, *reference, flipped);
        accepted += decoder->num_rows() > before;
      }
    }
  }
  EXPECT_GT(accepted, 0);  // some flips land in strings and stay valid
  ExpectSameRows(*decoder, *reference);
}

TEST(JsonCorruptionTest, RandomEditsAppendNothing) {
  static constexpr char kTokens[] = {'{', '}', '[', ']', '"', ',', ':', '0', '9', '-', '.', 'e', 'n', 't', '\\', ' ', '\xff', '\0'};
  std::mt19937 rng(13);
  auto decoder = ValueDecoderFor(kCorruptedRecordSchema);
  auto reference = ValueDecoderFor(kCorruptedRecordSchema);
  Inference inference;
  const JsonType open = Object({});
  for (int round = 0; round < 3000; ++round) {
    std::string payload = kPayloads[round % 2];
    const int edits = 1 + static_cast<int>(rng() % 3);
    for (int e = 0; e < edits; ++e) {
      const std::size_t at = rng() % payload.size();
      switch (rng() % 3) {
        case 0: payload[at] = kTokens[rng() % sizeof kTokens]; break;
        case 1: payload.erase(at, 1 + rng() % 4); break;
        default: payload.insert(at, 1, kTokens[rng() % sizeof kTokens]); break;
      }
      if (payload.empty()) payload = "{";
    }
    Feed(*decoder, *reference, payload);
    // Schemaless inference sees the same bytes: an answer or an error, never a crash.
    auto widened = inference.FitOrWiden(open, payload);
    if (!widened.ok()) {
      EXPECT_EQ(widened.status().code(), StatusCode::kInvalidArgument);
    }
  }
  ExpectSameRows(*decoder, *reference);
}

}  // namespace
}  // namespace floe::json
