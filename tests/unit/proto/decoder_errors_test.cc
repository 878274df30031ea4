// Malformed messages: each rule's error, and that a bad message appends nothing (rollback).
#include <gtest/gtest.h>

#include "proto_test_util.h"
#include "wire_encoder.h"

namespace floe::proto {
namespace {

using testing::ExpectColumn;
using testing::Flush;
using testing::MakeDecoder;
using testing::WireEncoder;

constexpr const char* kSchema = R"(syntax = "proto3";
message Item { string sku = 1; repeated int32 qty = 2; }
message Order {
  int64 id = 1;
  string note = 2;
  repeated Item items = 3;
  map<string, Item> by_sku = 4;
  Item main = 5;
  repeated fixed32 codes = 6;
  int32 tail = 7;
})";

void ExpectError(const std::string& bytes, const std::string& message) {
  auto d = MakeDecoder(kSchema, "Order");
  ASSERT_TRUE(d.decoder);
  const Status checked = d->Validate(bytes);
  const Status st = d->Append(bytes);
  EXPECT_EQ(st.code(), StatusCode::kInvalidArgument);
  EXPECT_EQ(st.message(), message);
  EXPECT_EQ(checked.message(), st.message());  // Validate says what Append says
  EXPECT_EQ(d->num_rows(), 0);
}

TEST(ProtoDecoderErrorsTest, EachRuleIsNamed) {
  ExpectError("\x08", "field 'id' (number 1): truncated varint: the data ends inside it (at byte 1)");
  ExpectError("\x08\xff\xff\xff\xff\xff\xff\xff\xff\xff\x7f",
              "field 'id' (number 1): overlong varint: more than 64 bits (at byte 1)");
  ExpectError("\x12\x05" "ab", "field 'note' (number 2): length 5 runs past the end of the data (2 bytes left) (at byte 1)");
  ExpectError(WireEncoder().Fixed64(1, 5).str(),
              "field 'id' (number 1): wire type 1 (64-bit) where its type needs 0 (varint) (at byte 0)");
  ExpectError(WireEncoder().VarintField(3, 1).str(),
              "field 'items' (number 3): wire type 0 (varint) where its type needs 2 (length-delimited) (at byte 0)");
  ExpectError(WireEncoder().Bytes(2, "bad \xc3\x28").str(), "field 'note' is not valid UTF-8 (the string at byte 2)");
  ExpectError(WireEncoder().Message(3, WireEncoder().Bytes(1, "\xe2\x82")).str(),
              "field 'items[].sku' is not valid UTF-8 (the string at byte 4)");
  ExpectError(WireEncoder().Message(5, WireEncoder().Raw("\x10")).str(),
              "field 'main.qty' (number 2): truncated varint: the data ends inside it (at byte 3)");
  ExpectError(WireEncoder().Bytes(6, "abc").str(), "packed field 'codes': truncated fixed32 value: 4 bytes needed, 3 left (at byte 2)");
  ExpectError(std::string("\x00\x01", 2), "field number 0 is not a valid field number (at byte 0)");
  ExpectError("\x0f", "wire type 7 does not exist (at byte 0)");
  ExpectError(WireEncoder().Tag(9, 4).str(), "unknown field 9: end-group tag of field 9 without a start-group tag (at byte 1)");
  ExpectError(WireEncoder().Tag(9, 3).VarintField(1, 1).str(),
              "unknown field 9: group of field 9 has no end-group tag (at byte 1)");
  ExpectError(WireEncoder().Tag(9, 3).Tag(8, 4).str(),
              "unknown field 9: end-group tag of field 8 closes the group of field 9 (at byte 1)");
  ExpectError(WireEncoder().Tag(0xffffffff, 0).str(), "tag 34359738360 does not fit 32 bits (at byte 0)");
}

// A value the wire replaces is still checked, as libprotobuf parses it before dropping it: a
// record libprotobuf refuses is never accepted (found by tests/fuzz proto).
TEST(ProtoDecoderErrorsTest, ReplacedValuesAreCheckedToo) {
  constexpr const char* kOneof = R"(syntax = "proto3";
import "google/protobuf/wrappers.proto";
message Leaf { string s = 1; }
message Pick {
  oneof choice { string text = 1; Leaf leaf = 2; int64 number = 3; }
  string note = 4;
  google.protobuf.StringValue wrapped = 5;
})";
  auto expect = [&](const std::string& bytes, const std::string& message) {
    auto d = MakeDecoder(kOneof, "Pick");
    ASSERT_TRUE(d.decoder);
    const Status st = d->Append(bytes);
    EXPECT_EQ(st.code(), StatusCode::kInvalidArgument) << st.ToString();
    EXPECT_EQ(st.message(), message);
    EXPECT_EQ(d->Validate(bytes).message(), message);
    EXPECT_EQ(d->num_rows(), 0);
  };
  // A oneof string with invalid UTF-8, then another member.
  expect(std::string("\x0a\x02\xff\x41\x18\x02", 6), "field 'text' is not valid UTF-8 (the string at byte 2)");
  // A oneof message with a broken varint inside, then another member.
  expect(std::string("\x12\x02\x0a\x80\x18\x02", 6),
         "field 'leaf.s' (number 1): truncated varint: the data ends inside it (at byte 3)");
  // A singular string written twice: the first one is invalid.
  expect(std::string("\x22\x01\xff\x22\x01\x41", 6), "field 'note' is not valid UTF-8 (the string at byte 2)");
  // A StringValue whose value is written twice.
  expect(std::string("\x2a\x06\x0a\x01\xff\x0a\x01\x41", 8), "field 'wrapped' is not valid UTF-8 (the string at byte 4)");
}

TEST(ProtoDecoderErrorsTest, NestingTooDeepIsRefused) {
  WireEncoder deep;
  for (int i = 0; i < 101; ++i) deep.Tag(9, 3);
  for (int i = 0; i < 101; ++i) deep.Tag(9, 4);
  ExpectError(deep.str(), "unknown field 9: groups nested deeper than 100 levels (at byte 101)");
  WireEncoder ok;
  for (int i = 0; i < 99; ++i) ok.Tag(9, 3);
  for (int i = 0; i < 99; ++i) ok.Tag(9, 4);
  auto d = MakeDecoder(kSchema, "Order");
  ASSERT_TRUE(d.decoder);
  EXPECT_TRUE(d->Append(ok.str()).ok());
}

std::string Good(std::int64_t id) {
  return WireEncoder()
      .VarintField(1, static_cast<std::uint64_t>(id))
      .Bytes(2, "n" + std::to_string(id))
      .Message(3, WireEncoder().Bytes(1, "a").VarintField(2, 1).VarintField(2, 2))
      .Message(4, WireEncoder().Bytes(1, "k").Message(2, WireEncoder().Bytes(1, "v").VarintField(2, 3)))
      .Message(5, WireEncoder().Bytes(1, "m"))
      .Fixed32(6, 4)
      .VarintField(7, 9)
      .str();
}

TEST(ProtoDecoderErrorsTest, BadMessagesAppendNothingWhereverTheyFail) {
  auto d = MakeDecoder(kSchema, "Order");
  ASSERT_TRUE(d.decoder);
  // Each fails after some columns, and some nested builders, have been appended to.
  const std::vector<std::string> bad = {
      Good(0) + WireEncoder().VarintField(7, 1).Raw("\x80").str(),                          // after every column
      WireEncoder().Message(3, WireEncoder().Bytes(1, "ok").Raw("\x10\x80")).str(),           // inside a list of structs
      WireEncoder().Message(4, WireEncoder().Bytes(1, "k").Message(2, WireEncoder().Bytes(1, "\xff"))).str(),  // in a map value
      WireEncoder().Message(4, WireEncoder().Bytes(1, "\xff")).str(),                        // a map key
      WireEncoder().Message(5, WireEncoder().Bytes(1, "m").Bytes(1, "\xc0")).str(),          // a nested struct
      WireEncoder().Fixed32(6, 1).Bytes(6, "12345").str(),                                   // a packed run
  };
  for (std::size_t i = 0; i < bad.size(); ++i) {
    ASSERT_TRUE(d->Append(Good(static_cast<std::int64_t>(i))).ok());
    EXPECT_FALSE(d->Append(bad[i]).ok()) << i;
    EXPECT_EQ(d->num_rows(), static_cast<std::int64_t>(i + 1));
  }
  ASSERT_TRUE(d->Append(Good(99)).ok());
  auto batch = Flush(*d.decoder);
  ASSERT_TRUE(batch);
  ASSERT_EQ(batch->num_rows(), 7);
  ExpectColumn(*batch, "id", "[0, 1, 2, 3, 4, 5, 99]");
  ExpectColumn(*batch, "items", R"([[{"sku": "a", "qty": [1, 2]}], [{"sku": "a", "qty": [1, 2]}], [{"sku": "a", "qty": [1, 2]}],
      [{"sku": "a", "qty": [1, 2]}], [{"sku": "a", "qty": [1, 2]}], [{"sku": "a", "qty": [1, 2]}], [{"sku": "a", "qty": [1, 2]}]])");
  ExpectColumn(*batch, "by_sku", R"([[["k", {"sku": "v", "qty": [3]}]], [["k", {"sku": "v", "qty": [3]}]],
      [["k", {"sku": "v", "qty": [3]}]], [["k", {"sku": "v", "qty": [3]}]], [["k", {"sku": "v", "qty": [3]}]],
      [["k", {"sku": "v", "qty": [3]}]], [["k", {"sku": "v", "qty": [3]}]]])");
  ExpectColumn(*batch, "codes", "[[4], [4], [4], [4], [4], [4], [4]]");
  ExpectColumn(*batch, "tail", "[9, 9, 9, 9, 9, 9, 9]");
  // The decoder starts over cleanly after a Flush.
  ASSERT_TRUE(d->Append(Good(7)).ok());
  batch = Flush(*d.decoder);
  ASSERT_TRUE(batch);
  ExpectColumn(*batch, "id", "[7]");
}

}  // namespace
}  // namespace floe::proto
