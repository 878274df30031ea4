// Decoding hand-made wire bytes: every scalar, presence and defaults, repeated fields packed
// and not, last-one-wins, merging, unknown fields and oneofs.
#include <gtest/gtest.h>

#include <limits>

#include "floe/proto/wire_format.h"
#include "proto_test_util.h"
#include "wire_encoder.h"

namespace floe::proto {
namespace {

using testing::ExpectColumn;
using testing::Flush;
using testing::MakeDecoder;
using testing::WireEncoder;

constexpr const char* kScalars = R"(syntax = "proto3";
enum Color { RED = 0; GREEN = 1; BLUE = 2; }
message S {
  int32 i32 = 1; sint32 s32 = 2; sfixed32 sf32 = 3; int64 i64 = 4; sint64 s64 = 5; sfixed64 sf64 = 6;
  uint32 u32 = 7; fixed32 f32 = 8; uint64 u64 = 9; fixed64 f64 = 10; bool b = 11; float fl = 12;
  double d = 13; string str = 14; bytes by = 15; Color color = 16;
})";

TEST(ProtoDecoderTest, EveryScalarAndItsProto3Default) {
  auto d = MakeDecoder(kScalars);
  ASSERT_TRUE(d.decoder);
  WireEncoder e;
  e.VarintField(1, static_cast<std::uint64_t>(-5))  // int32 negatives are 10-byte varints
      .SInt(2, -7)
      .Fixed32(3, static_cast<std::uint32_t>(-9))
      .VarintField(4, static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::min()))
      .SInt(5, std::numeric_limits<std::int64_t>::max())
      .Fixed64(6, static_cast<std::uint64_t>(-11))
      .VarintField(7, 4294967295u)
      .Fixed32(8, 4000000000u)
      .VarintField(9, std::numeric_limits<std::uint64_t>::max())
      .Fixed64(10, 12345678901234567890ull)
      .VarintField(11, 1)
      .Float(12, 1.5f)
      .Double(13, -2.25)
      .Bytes(14, "h\xc3\xa9llo")
      .Bytes(15, std::string("\0\x7f", 2))
      .VarintField(16, 2);
  ASSERT_TRUE(d->Append(e.str()).ok());
  ASSERT_TRUE(d->Append("").ok());  // all absent: proto3 defaults, never null
  auto batch = Flush(*d.decoder);
  ASSERT_TRUE(batch);
  ExpectColumn(*batch, "i32", "[-5, 0]");
  ExpectColumn(*batch, "s32", "[-7, 0]");
  ExpectColumn(*batch, "sf32", "[-9, 0]");
  ExpectColumn(*batch, "i64", "[-9223372036854775808, 0]");
  ExpectColumn(*batch, "s64", "[9223372036854775807, 0]");
  ExpectColumn(*batch, "sf64", "[-11, 0]");
  ExpectColumn(*batch, "u32", "[4294967295, 0]");
  ExpectColumn(*batch, "f32", "[4000000000, 0]");
  ExpectColumn(*batch, "u64", R"(["18446744073709551615", "0"])");
  ExpectColumn(*batch, "f64", R"(["12345678901234567890", "0"])");
  ExpectColumn(*batch, "b", "[true, false]");
  ExpectColumn(*batch, "fl", "[1.5, 0]");
  ExpectColumn(*batch, "d", "[-2.25, 0]");
  ExpectColumn(*batch, "str", R"(["héllo", ""])");
  ExpectColumn(*batch, "by", R"(["\u0000\u007f", ""])");
  ExpectColumn(*batch, "color", R"(["BLUE", "RED"])");
}

TEST(ProtoDecoderTest, Truncation32BitsLikeLibprotobuf) {
  auto d = MakeDecoder(kScalars);
  ASSERT_TRUE(d.decoder);
  // An int32 or uint32 written as a wider varint keeps its low 32 bits; a bool is any non-zero.
  ASSERT_TRUE(d->Append(WireEncoder().VarintField(1, 0x1'0000'0007ull).VarintField(7, 0x7'0000'0001ull).VarintField(11, 300).str()).ok());
  auto batch = Flush(*d.decoder);
  ASSERT_TRUE(batch);
  ExpectColumn(*batch, "i32", "[7]");
  ExpectColumn(*batch, "u32", "[1]");
  ExpectColumn(*batch, "b", "[true]");
}

TEST(ProtoDecoderTest, UnknownEnumNumbersAreKeptAsText) {
  auto d = MakeDecoder(kScalars);
  ASSERT_TRUE(d.decoder);
  ASSERT_TRUE(d->Append(WireEncoder().VarintField(16, 7).str()).ok());
  ASSERT_TRUE(d->Append(WireEncoder().VarintField(16, static_cast<std::uint64_t>(-3)).str()).ok());
  auto batch = Flush(*d.decoder);
  ASSERT_TRUE(batch);
  ExpectColumn(*batch, "color", R"(["7", "-3"])");
}

TEST(ProtoDecoderTest, LastOccurrenceOfASingularFieldWins) {
  auto d = MakeDecoder(kScalars);
  ASSERT_TRUE(d.decoder);
  ASSERT_TRUE(d->Append(WireEncoder().Bytes(14, "first").VarintField(1, 1).Bytes(14, "second").VarintField(1, 2).str()).ok());
  auto batch = Flush(*d.decoder);
  ASSERT_TRUE(batch);
  ExpectColumn(*batch, "str", R"(["second"])");
  ExpectColumn(*batch, "i32", "[2]");
}

constexpr const char* kPresence = R"(syntax = "proto3";
message P { int32 x = 1; repeated int32 xs = 2; string label = 3; }
message M {
  optional int32 opt = 1;
  P p = 2;
  oneof choice { string name = 3; int64 number = 4; P pick = 5; }
  int32 plain = 6;
})";

TEST(ProtoDecoderTest, PresenceGivesNullsAndOneofKeepsTheLastMember) {
  auto d = MakeDecoder(kPresence, "M");
  ASSERT_TRUE(d.decoder);
  ASSERT_TRUE(d->Append("").ok());
  ASSERT_TRUE(d->Append(WireEncoder().VarintField(1, 0).Message(2, WireEncoder()).Bytes(3, "n").str()).ok());
  // Two members on the wire: the last one is the one set, as in libprotobuf.
  ASSERT_TRUE(d->Append(WireEncoder().Bytes(3, "n").VarintField(4, 9).str()).ok());
  ASSERT_TRUE(d->Append(WireEncoder().VarintField(4, 9).Message(5, WireEncoder().VarintField(1, 3)).str()).ok());
  auto batch = Flush(*d.decoder);
  ASSERT_TRUE(batch);
  ExpectColumn(*batch, "opt", "[null, 0, null, null]");
  ExpectColumn(*batch, "p", R"([null, {"x": 0, "xs": [], "label": ""}, null, null])");
  ExpectColumn(*batch, "name", R"([null, "n", null, null])");
  ExpectColumn(*batch, "number", "[null, null, 9, null]");
  ExpectColumn(*batch, "pick", R"([null, null, null, {"x": 3, "xs": [], "label": ""}])");
  ExpectColumn(*batch, "plain", "[0, 0, 0, 0]");
}

TEST(ProtoDecoderTest, SingularMessageOccurrencesMerge) {
  auto d = MakeDecoder(kPresence, "M");
  ASSERT_TRUE(d.decoder);
  // Protobuf merges a repeated singular message: scalars last-wins, repeated fields concatenate.
  const std::string bytes = WireEncoder()
                                .Message(2, WireEncoder().VarintField(1, 1).VarintField(2, 10).Bytes(3, "a"))
                                .VarintField(6, 5)
                                .Message(2, WireEncoder().VarintField(1, 2).VarintField(2, 11))
                                .str();
  ASSERT_TRUE(d->Append(bytes).ok());
  auto batch = Flush(*d.decoder);
  ASSERT_TRUE(batch);
  ExpectColumn(*batch, "p", R"([{"x": 2, "xs": [10, 11], "label": "a"}])");
  ExpectColumn(*batch, "plain", "[5]");
}

constexpr const char* kRepeated = R"(syntax = "proto3";
enum E { Z = 0; ONE = 1; }
message R {
  repeated int32 a = 1;
  repeated sint64 b = 2;
  repeated fixed32 c = 3;
  repeated double d = 4;
  repeated E e = 5;
  repeated string f = 6;
  repeated bool g = 7;
})";

TEST(ProtoDecoderTest, RepeatedScalarsPackedUnpackedAndInterleaved) {
  auto d = MakeDecoder(kRepeated);
  ASSERT_TRUE(d.decoder);
  WireEncoder packed_a, packed_b, packed_c, packed_d;
  packed_a.Varint(1).Varint(static_cast<std::uint64_t>(-2)).Varint(300);
  packed_b.Varint(3).Varint(4);  // zig-zag: -2, 2
  const std::uint32_t c1 = 7, c2 = 8;
  const double d1 = 0.5;
  std::string c_bytes(reinterpret_cast<const char*>(&c1), 4);
  c_bytes.append(reinterpret_cast<const char*>(&c2), 4);
  const std::string bytes = WireEncoder()
                                .VarintField(1, 5)           // unpacked
                                .Bytes(1, packed_a.str())    // packed, then more unpacked
                                .Bytes(6, "x")
                                .VarintField(1, 6)
                                .Bytes(2, packed_b.str())
                                .Bytes(3, c_bytes)
                                .Fixed32(3, 9)
                                .Double(4, 1.0)
                                .Bytes(4, std::string(reinterpret_cast<const char*>(&d1), 8))
                                .Bytes(5, WireEncoder().Varint(1).Varint(0).Varint(4).str())
                                .Bytes(6, "y")
                                .VarintField(7, 1)
                                .Bytes(7, "")  // an empty packed run
                                .str();
  ASSERT_TRUE(d->Append(bytes).ok());
  ASSERT_TRUE(d->Append("").ok());
  auto batch = Flush(*d.decoder);
  ASSERT_TRUE(batch);
  ExpectColumn(*batch, "a", "[[5, 1, -2, 300, 6], []]");
  ExpectColumn(*batch, "b", "[[-2, 2], []]");
  ExpectColumn(*batch, "c", "[[7, 8, 9], []]");
  ExpectColumn(*batch, "d", "[[1.0, 0.5], []]");
  ExpectColumn(*batch, "e", R"([["ONE", "Z", "4"], []])");
  ExpectColumn(*batch, "f", R"([["x", "y"], []])");
  ExpectColumn(*batch, "g", "[[true], []]");
}

TEST(ProtoDecoderTest, UnknownFieldsOfEveryWireTypeAreSkipped) {
  auto d = MakeDecoder(kScalars);
  ASSERT_TRUE(d.decoder);
  const std::string bytes = WireEncoder()
                                .VarintField(100, 1)
                                .Fixed64(101, 2)
                                .Bytes(102, "skip me")
                                .Fixed32(103, 3)
                                .Tag(104, 3)  // a group with a nested group inside
                                .VarintField(1, 99)
                                .Tag(5, 3)
                                .Bytes(2, "in")
                                .Tag(5, 4)
                                .Tag(104, 4)
                                .VarintField(1, 42)
                                .Tag(536870911, 0)  // the highest field number
                                .Varint(1)
                                .str();
  ASSERT_TRUE(d->Append(bytes).ok());
  auto batch = Flush(*d.decoder);
  ASSERT_TRUE(batch);
  ExpectColumn(*batch, "i32", "[42]");
}

TEST(ProtoDecoderTest, Proto2DefaultsRequiredAndGroups) {
  auto d = MakeDecoder(R"(syntax = "proto2";
enum Size { SMALL = 1; LARGE = 5; }
message M {
  optional int32 a = 1 [default = 42];
  optional string s = 2 [default = "hi"];
  optional Size size = 3 [default = LARGE];
  optional int64 plain = 4;
  required sint32 req = 5;
  optional group G = 6 { optional int32 x = 1; repeated string y = 2; }
  repeated group RG = 7 { optional uint64 z = 1; }
  optional double dd = 8 [default = -1.5];
  optional sint64 neg = 9 [default = -3];
})");
  ASSERT_TRUE(d.decoder);
  ASSERT_TRUE(d->Append(WireEncoder().SInt(5, -1).str()).ok());
  const std::string bytes = WireEncoder()
                                .VarintField(1, 1)
                                .Bytes(2, "yo")
                                .VarintField(3, 1)
                                .VarintField(4, 4)
                                .SInt(5, 2)
                                .Tag(6, 3).VarintField(1, 8).Bytes(2, "p").Bytes(2, "q").Tag(6, 4)
                                .Tag(7, 3).VarintField(1, 1).Tag(7, 4)
                                .Tag(7, 3).Tag(7, 4)
                                .Double(8, 2.0)
                                .SInt(9, 5)
                                .str();
  ASSERT_TRUE(d->Append(bytes).ok());
  const Status missing = d->Append(WireEncoder().VarintField(1, 1).str());
  EXPECT_EQ(missing.code(), StatusCode::kInvalidArgument);
  EXPECT_EQ(missing.message(), "field 'req' is required but absent");
  auto batch = Flush(*d.decoder);
  ASSERT_TRUE(batch);
  ExpectColumn(*batch, "a", "[42, 1]");
  ExpectColumn(*batch, "s", R"(["hi", "yo"])");
  ExpectColumn(*batch, "size", R"(["LARGE", "SMALL"])");
  ExpectColumn(*batch, "plain", "[null, 4]");
  ExpectColumn(*batch, "req", "[-1, 2]");
  ExpectColumn(*batch, "g", R"([null, {"x": 8, "y": ["p", "q"]}])");
  ExpectColumn(*batch, "rg", R"([[], [{"z": "1"}, {"z": null}]])");
  ExpectColumn(*batch, "dd", "[-1.5, 2.0]");
  ExpectColumn(*batch, "neg", "[-3, 5]");
}

TEST(ProtoDecoderTest, SparseFieldNumbers) {
  auto d = MakeDecoder(R"(syntax = "proto3"; message M { int32 low = 1; string high = 400000000; })");
  ASSERT_TRUE(d.decoder);
  ASSERT_TRUE(d->Append(WireEncoder().Bytes(400000000, "far").VarintField(1, 3).VarintField(3000, 1).str()).ok());
  auto batch = Flush(*d.decoder);
  ASSERT_TRUE(batch);
  ExpectColumn(*batch, "low", "[3]");
  ExpectColumn(*batch, "high", R"(["far"])");
}

TEST(ProtoDecoderTest, FromTheFramingToColumns) {
  auto schema = ProtoSchema::Parse(R"(syntax = "proto3"; package shop;
message Order { int64 id = 1; message Line { string sku = 1; int32 qty = 2; } }
message Refund { int64 order = 1; })");
  ASSERT_TRUE(schema.ok()) << schema.status().ToString();
  // What follows the schema id: indexes [0, 0] (Order.Line), then the message.
  const std::string payload = EncodeMessageIndexes({0, 0}) + WireEncoder().Bytes(1, "A-1").VarintField(2, 3).str();
  auto selected = SelectMessage(**schema, payload);
  ASSERT_TRUE(selected.ok()) << selected.status().ToString();
  EXPECT_EQ(selected->message->full_name(), "shop.Order.Line");
  auto payload_schema = MessagePayloadSchema(*schema, selected->message);
  ASSERT_TRUE(payload_schema.ok()) << payload_schema.status().ToString();
  auto decoder = (*payload_schema)->NewDecoder();
  ASSERT_TRUE(decoder.ok());
  ASSERT_TRUE((*decoder)->Append(selected->bytes).ok());
  auto batch = Flush(**decoder);
  ASSERT_TRUE(batch);
  ExpectColumn(*batch, "sku", R"(["A-1"])");
  ExpectColumn(*batch, "qty", "[3]");

  // The configured message applies to [0] only; a bad index is a bad record.
  const std::string first = EncodeMessageIndexes({0}) + WireEncoder().VarintField(1, 5).str();
  auto refund = SelectMessage(**schema, first, "shop.Refund");
  ASSERT_TRUE(refund.ok());
  EXPECT_EQ(refund->message->full_name(), "shop.Refund");
  EXPECT_EQ(SelectMessage(**schema, EncodeMessageIndexes({2}) + "x").status().code(), StatusCode::kInvalidArgument);
  // A descriptor from another pool is refused.
  auto other = ProtoSchema::Parse("syntax = \"proto3\"; message X { int32 x = 1; }");
  ASSERT_TRUE(other.ok());
  EXPECT_EQ(MessagePayloadSchema(*schema, (*other)->file()->message_type(0)).status().code(), StatusCode::kInvalidArgument);
}

}  // namespace
}  // namespace floe::proto
