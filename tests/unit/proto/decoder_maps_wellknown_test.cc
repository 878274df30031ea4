// Maps (de-duplicated, defaults for absent keys and values), nested messages, well-known types,
// and the key (struct) form.
#include <gtest/gtest.h>

#include "proto_test_util.h"
#include "wire_encoder.h"

namespace floe::proto {
namespace {

using testing::ExpectColumn;
using testing::Flush;
using testing::MakeDecoder;
using testing::WireEncoder;

constexpr const char* kMaps = R"(syntax = "proto3";
message V { int32 x = 1; string s = 2; }
message M {
  map<string, int64> counts = 1;
  map<sint32, V> by_id = 2;
  map<bool, string> flags = 3;
  map<uint64, double> big = 4;
})";

WireEncoder Entry(const WireEncoder& key_and_value) { return key_and_value; }

TEST(ProtoMapTest, EntriesDefaultsAndLastKeyWins) {
  auto d = MakeDecoder(kMaps, "M");
  ASSERT_TRUE(d.decoder);
  const std::string bytes =
      WireEncoder()
          .Message(1, Entry(WireEncoder().Bytes(1, "a").VarintField(2, 1)))
          .Message(1, Entry(WireEncoder().Bytes(1, "b").VarintField(2, 2)))
          .Message(1, Entry(WireEncoder().VarintField(2, 3).Bytes(1, "a")))  // value before key; "a" again
          .Message(1, Entry(WireEncoder().Bytes(1, "c")))                      // no value: 0
          .Message(1, Entry(WireEncoder().VarintField(2, 4)))                  // no key: ""
          .Message(2, Entry(WireEncoder().SInt(1, -1).Message(2, WireEncoder().VarintField(1, 5))))
          .Message(2, Entry(WireEncoder().SInt(1, 7)))                         // no value: the empty message
          .Message(2, Entry(WireEncoder().VarintField(1, 1).Message(2, WireEncoder().Bytes(2, "z"))))  // key -1 again
          .Message(3, Entry(WireEncoder().VarintField(1, 1).Bytes(2, "on")))
          .Message(3, Entry(WireEncoder().VarintField(1, 2).Bytes(2, "still on")))  // 2 is true too
          .Message(4, Entry(WireEncoder().VarintField(1, 18446744073709551615ull).Double(2, 0.5)))
          .str();
  ASSERT_TRUE(d->Append(bytes).ok());
  ASSERT_TRUE(d->Append("").ok());
  auto batch = Flush(*d.decoder);
  ASSERT_TRUE(batch);
  ExpectColumn(*batch, "counts", R"([[["b", 2], ["a", 3], ["c", 0], ["", 4]], []])");
  ExpectColumn(*batch, "by_id", R"([[[7, {"x": 0, "s": ""}], [-1, {"x": 0, "s": "z"}]], []])");
  ExpectColumn(*batch, "flags", R"([[[true, "still on"]], []])");
  ExpectColumn(*batch, "big", R"([[["18446744073709551615", 0.5]], []])");
}

TEST(ProtoMapTest, AnOverwrittenEntryIsStillChecked) {
  auto d = MakeDecoder(kMaps, "M");
  ASSERT_TRUE(d.decoder);
  const std::string bytes = WireEncoder()
                                .Message(2, WireEncoder().SInt(1, 1).Message(2, WireEncoder().Bytes(2, "\xff")))
                                .Message(2, WireEncoder().SInt(1, 1))
                                .str();
  const Status st = d->Append(bytes);
  EXPECT_EQ(st.code(), StatusCode::kInvalidArgument);
  EXPECT_NE(st.message().find("field 'by_id{}.value.s' is not valid UTF-8"), std::string::npos) << st.message();
  EXPECT_EQ(d->num_rows(), 0);
}

constexpr const char* kWellKnown = R"(syntax = "proto3";
import "google/protobuf/timestamp.proto";
import "google/protobuf/duration.proto";
import "google/protobuf/wrappers.proto";
import "confluent/meta.proto";
import "confluent/type/decimal.proto";
import "google/type/date.proto";
message W {
  google.protobuf.Timestamp ts = 1;
  google.protobuf.Duration dur = 2;
  google.protobuf.Int64Value w_i64 = 3;
  google.protobuf.StringValue w_str = 4;
  google.protobuf.BoolValue w_b = 5;
  google.protobuf.UInt64Value w_u64 = 6;
  confluent.type.Decimal amount = 7 [(confluent.field_meta) = { params: [{key: "precision", value: "8"}, {key: "scale", value: "2"}] }];
  google.type.Date day = 8;
  repeated google.protobuf.Timestamp history = 9;
})";

std::string BigEndian(std::int64_t v, int bytes) {
  std::string out;
  for (int i = bytes - 1; i >= 0; --i) out.push_back(static_cast<char>((static_cast<std::uint64_t>(v) >> (8 * i)) & 0xff));
  return out;
}

TEST(ProtoWellKnownTest, ValuesAndNulls) {
  auto d = MakeDecoder(kWellKnown);
  ASSERT_TRUE(d.decoder);
  const std::string bytes =
      WireEncoder()
          .Message(1, WireEncoder().VarintField(1, 1700000000).VarintField(2, 123456789))
          .Message(2, WireEncoder().VarintField(1, static_cast<std::uint64_t>(-2)).VarintField(2, static_cast<std::uint64_t>(-500000000)))
          .Message(3, WireEncoder())  // present but empty: the wrapped default, not null
          .Message(4, WireEncoder().Bytes(1, "w"))
          .Message(5, WireEncoder().VarintField(1, 1))
          .Message(6, WireEncoder().VarintField(1, 18446744073709551615ull))
          .Message(7, WireEncoder().Bytes(1, BigEndian(-12345, 2)).VarintField(2, 5).VarintField(3, 2))
          .Message(8, WireEncoder().VarintField(1, 2024).VarintField(2, 2).VarintField(3, 29))
          .Message(9, WireEncoder().VarintField(1, 1))
          .Message(9, WireEncoder())
          .str();
  ASSERT_TRUE(d->Append(bytes).ok());
  ASSERT_TRUE(d->Append("").ok());
  // A decimal written at another scale is rescaled exactly: 1.5 (15, scale 1) -> 1.50.
  ASSERT_TRUE(d->Append(WireEncoder().Message(7, WireEncoder().Bytes(1, BigEndian(15, 1)).VarintField(3, 1)).str()).ok());
  // ... and 7.000 (7000, scale 3) -> 7.00.
  ASSERT_TRUE(d->Append(WireEncoder().Message(7, WireEncoder().Bytes(1, BigEndian(7000, 2)).VarintField(3, 3)).str()).ok());
  auto batch = Flush(*d.decoder);
  ASSERT_TRUE(batch);
  ExpectColumn(*batch, "ts", "[1700000000123456, null, null, null]");
  ExpectColumn(*batch, "dur", "[-2500000, null, null, null]");
  ExpectColumn(*batch, "w_i64", "[0, null, null, null]");
  ExpectColumn(*batch, "w_str", R"(["w", null, null, null])");
  ExpectColumn(*batch, "w_b", "[true, null, null, null]");
  ExpectColumn(*batch, "w_u64", R"(["18446744073709551615", null, null, null])");
  ExpectColumn(*batch, "amount", R"(["-123.45", null, "1.50", "7.00"])");
  ExpectColumn(*batch, "day", "[19782, null, null, null]");
  ExpectColumn(*batch, "history", "[[1000000, 0], [], [], []]");
}

void ExpectRefused(const std::string& bytes, const std::string& message) {
  auto d = MakeDecoder(kWellKnown);
  ASSERT_TRUE(d.decoder);
  const Status st = d->Append(bytes);
  EXPECT_EQ(st.code(), StatusCode::kInvalidArgument);
  EXPECT_EQ(st.message(), message);
  EXPECT_EQ(d->num_rows(), 0);
}

TEST(ProtoWellKnownTest, ValuesAColumnCannotHoldAreBadRecords) {
  ExpectRefused(WireEncoder().Message(1, WireEncoder().VarintField(2, 1000000000)).str(),
                "field 'ts': Timestamp nanos 1000000000 is not in [0, 999999999]");
  ExpectRefused(WireEncoder().Message(1, WireEncoder().VarintField(1, 1ull << 62)).str(),
                "field 'ts': Timestamp of 4611686018427387904 s is out of the range of microseconds in 64 bits");
  ExpectRefused(WireEncoder().Message(2, WireEncoder().VarintField(1, 1).VarintField(2, static_cast<std::uint64_t>(-1))).str(),
                "field 'dur': Duration nanos -1 is not within a second or has another sign than its seconds 1");
  ExpectRefused(WireEncoder().Message(8, WireEncoder().VarintField(2, 2).VarintField(3, 29)).str(),
                "field 'day': Date 0-2-29 is not a full calendar date in years 1..9999");
  ExpectRefused(WireEncoder().Message(8, WireEncoder().VarintField(1, 2023).VarintField(2, 2).VarintField(3, 29)).str(),
                "field 'day': Date 2023-2-29 is not a full calendar date in years 1..9999");
  ExpectRefused(WireEncoder().Message(7, WireEncoder().Bytes(1, BigEndian(1000000000, 4))).str(),
                "field 'amount': Decimal 1000000000e-0 does not fit decimal(8, 2)");
  ExpectRefused(WireEncoder().Message(7, WireEncoder().Bytes(1, BigEndian(12345, 2)).VarintField(3, 3)).str(),
                "field 'amount': Decimal 12345e-3 has more than 2 fraction digits (the column's scale)");
  ExpectRefused(WireEncoder().Message(7, WireEncoder().Bytes(1, std::string(17, '\x01'))).str(),
                "field 'amount': Decimal value of 17 bytes does not fit 38 digits (at most 16 bytes)");
  ExpectRefused(WireEncoder().Message(1, WireEncoder().Bytes(1, "x")).str(),
                "field 'ts': field 1 has wire type 2 (length-delimited) where it needs 0 (varint) (at byte 2)");
}

TEST(ProtoKeyFormTest, OneStructColumnNullableAndValidated) {
  auto d = MakeDecoder(R"(syntax = "proto3"; message K { string id = 1; repeated int32 parts = 2; })", "", "key");
  ASSERT_TRUE(d.decoder);
  const std::string good = WireEncoder().Bytes(1, "k1").VarintField(2, 3).str();
  const std::string bad = WireEncoder().Bytes(1, "\xc3").str();
  EXPECT_TRUE(d->Validate(good).ok());
  EXPECT_EQ(d->Validate(bad).code(), StatusCode::kInvalidArgument);
  EXPECT_EQ(d->num_rows(), 0);  // Validate appends nothing
  ASSERT_TRUE(d->Append(good).ok());
  ASSERT_TRUE(d->AppendNull().ok());
  EXPECT_FALSE(d->Append(bad).ok());
  auto batch = Flush(*d.decoder);
  ASSERT_TRUE(batch);
  ExpectColumn(*batch, "key", R"([{"id": "k1", "parts": [3]}, null])");
}

TEST(ProtoKeyFormTest, ValueColumnsCannotBeNullAsAWhole) {
  auto d = MakeDecoder(R"(syntax = "proto3"; message V { string id = 1; })");
  ASSERT_TRUE(d.decoder);
  EXPECT_EQ(d->AppendNull().code(), StatusCode::kUnsupported);
}

}  // namespace
}  // namespace floe::proto
