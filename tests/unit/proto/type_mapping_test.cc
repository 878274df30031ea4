#include "floe/proto/type_mapping.h"

#include <arrow/api.h>
#include <google/protobuf/descriptor.pb.h>
#include <gtest/gtest.h>

#include "proto_test_util.h"

namespace floe::proto {
namespace {

std::string SchemaOf(const std::string& text) {
  auto schema = ProtoSchema::Parse(text);
  if (!schema.ok()) return schema.status().ToString();
  auto columns = ToArrowSchema(*(*schema)->file()->message_type(0));
  return columns.ok() ? (*columns)->ToString() : columns.status().ToString();
}

TEST(ProtoTypeMappingTest, Scalars) {
  EXPECT_EQ(SchemaOf(R"(syntax = "proto3";
enum E { A = 0; }
message M {
  int32 a = 1; sint32 b = 2; sfixed32 c = 3; int64 d = 4; sint64 e = 5; sfixed64 f = 6;
  uint32 g = 7; fixed32 h = 8; uint64 i = 9; fixed64 j = 10; bool k = 11; float l = 12; double m = 13;
  string n = 14; bytes o = 15; E p = 16;
})"),
            "a: int32 not null\nb: int32 not null\nc: int32 not null\nd: int64 not null\ne: int64 not null\n"
            "f: int64 not null\ng: int64 not null\nh: int64 not null\ni: decimal128(20, 0) not null\n"
            "j: decimal128(20, 0) not null\nk: bool not null\nl: float not null\nm: double not null\n"
            "n: string not null\no: binary not null\np: string not null");
}

TEST(ProtoTypeMappingTest, PresenceShapesAndNesting) {
  EXPECT_EQ(SchemaOf(R"(syntax = "proto3";
message M {
  optional int32 a = 1;
  P p = 2;
  repeated P ps = 3;
  repeated int64 ns = 4;
  map<string, P> by_name = 5;
  map<int64, double> by_id = 6;
  oneof o { string s = 7; P q = 8; }
}
message P { int32 x = 1; optional string y = 2; })"),
            "a: int32\n"
            "p: struct<x: int32 not null, y: string>\n"
            "ps: list<element: struct<x: int32 not null, y: string> not null> not null\n"
            "ns: list<element: int64 not null> not null\n"
            "by_name: map<string, struct<x: int32 not null, y: string>> not null\n"
            "by_id: map<int64, double> not null\n"
            "s: string\n"
            "q: struct<x: int32 not null, y: string>");
}

TEST(ProtoTypeMappingTest, MapValuesAreNotNull) {
  auto schema = ProtoSchema::Parse(R"(syntax = "proto3"; message M { map<string, M2> m = 1; } message M2 { int32 x = 1; })");
  ASSERT_TRUE(schema.ok());
  auto columns = ToArrowSchema(*(*schema)->file()->message_type(0));
  ASSERT_TRUE(columns.ok());
  const auto& map = static_cast<const arrow::MapType&>(*(*columns)->field(0)->type());
  EXPECT_EQ(map.item_field()->name(), "value");
  EXPECT_FALSE(map.item_field()->nullable());
  EXPECT_FALSE(map.key_field()->nullable());
}

TEST(ProtoTypeMappingTest, Proto2Labels) {
  EXPECT_EQ(SchemaOf(R"(syntax = "proto2";
message M { required int32 a = 1; optional int32 b = 2 [default = 5]; optional string c = 3; repeated bool d = 4;
            optional group G = 5 { optional int32 x = 1; } })"),
            "a: int32 not null\nb: int32\nc: string\nd: list<element: bool not null> not null\n"
            "g: struct<x: int32>");
}

TEST(ProtoTypeMappingTest, WellKnownTypes) {
  EXPECT_EQ(SchemaOf(R"(syntax = "proto3";
import "google/protobuf/timestamp.proto";
import "google/protobuf/duration.proto";
import "google/protobuf/wrappers.proto";
import "confluent/meta.proto";
import "confluent/type/decimal.proto";
import "google/type/date.proto";
message M {
  google.protobuf.Timestamp ts = 1;
  google.protobuf.Duration dur = 2;
  google.protobuf.Int64Value w1 = 3; google.protobuf.UInt64Value w2 = 4; google.protobuf.Int32Value w3 = 5;
  google.protobuf.UInt32Value w4 = 6; google.protobuf.BoolValue w5 = 7; google.protobuf.StringValue w6 = 8;
  google.protobuf.BytesValue w7 = 9; google.protobuf.FloatValue w8 = 10; google.protobuf.DoubleValue w9 = 11;
  confluent.type.Decimal d1 = 12 [(confluent.field_meta) = { params: [{key: "precision", value: "10"}, {key: "scale", value: "3"}] }];
  confluent.type.Decimal d2 = 13;
  google.type.Date day = 14;
  repeated google.protobuf.Timestamp tss = 15;
})"),
            "ts: timestamp[us, tz=UTC]\ndur: int64\nw1: int64\nw2: decimal128(20, 0)\nw3: int32\nw4: int64\n"
            "w5: bool\nw6: string\nw7: binary\nw8: float\nw9: double\nd1: decimal128(10, 3)\n"
            "d2: decimal128(38, 0)\nday: date32[day]\ntss: list<element: timestamp[us, tz=UTC] not null> not null");
}

TEST(ProtoTypeMappingTest, DecimalParamsSurviveADescriptorRoundTrip) {
  // A base64 FileDescriptorProto carries the option as bytes: it must read the same.
  auto text = ProtoSchema::Parse(R"(syntax = "proto3"; import "confluent/meta.proto"; import "confluent/type/decimal.proto";
message M { confluent.type.Decimal d = 1 [(confluent.field_meta) = { params: [{key: "scale", value: "4"}, {key: "precision", value: "12"}] }]; })");
  ASSERT_TRUE(text.ok()) << text.status().ToString();
  google::protobuf::FileDescriptorProto proto;
  (*text)->file()->CopyTo(&proto);
  std::string binary = proto.SerializeAsString();
  static constexpr char kAlphabet[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
  std::string base64;
  std::uint32_t bits = 0;
  int nbits = 0;
  for (unsigned char c : binary) {
    bits = (bits << 8) | c;
    for (nbits += 8; nbits >= 6; nbits -= 6) base64.push_back(kAlphabet[(bits >> (nbits - 6)) & 63]);
  }
  if (nbits > 0) base64.push_back(kAlphabet[(bits << (6 - nbits)) & 63]);
  while (base64.size() % 4 != 0) base64.push_back('=');
  auto schema = ProtoSchema::Parse(base64);
  ASSERT_TRUE(schema.ok()) << schema.status().ToString();
  auto columns = ToArrowSchema(*(*schema)->file()->message_type(0));
  ASSERT_TRUE(columns.ok());
  EXPECT_EQ((*columns)->ToString(), "d: decimal128(12, 4)");
}

TEST(ProtoTypeMappingTest, RecursionIsRefusedNamingTheCycle) {
  Status st = testing::MappingError(R"(syntax = "proto3"; package a;
message Node { string name = 1; repeated Node children = 2; })");
  EXPECT_EQ(st.code(), StatusCode::kInvalidArgument);
  EXPECT_EQ(st.message(), "field 'children[]': recursive message types cannot be stored as columns: a.Node.children -> a.Node");

  st = testing::MappingError(R"(syntax = "proto3"; package a;
message A { B b = 1; } message B { int32 x = 1; map<string, A> as = 2; })");
  EXPECT_EQ(st.code(), StatusCode::kInvalidArgument);
  EXPECT_EQ(st.message(),
            "field 'b.as{}.value': recursive message types cannot be stored as columns: "
            "a.A.b -> a.B.as -> a.B.AsEntry.value -> a.A");

  st = testing::MappingError(R"(syntax = "proto3"; import "google/protobuf/struct.proto";
message A { google.protobuf.Struct s = 1; })");
  EXPECT_EQ(st.code(), StatusCode::kInvalidArgument);
  EXPECT_NE(st.message().find("google.protobuf.Struct.fields -> google.protobuf.Struct.FieldsEntry.value -> "
                              "google.protobuf.Value.struct_value -> google.protobuf.Struct"),
            std::string::npos)
      << st.message();
}

TEST(ProtoTypeMappingTest, UnstorableShapesAreRefused) {
  Status st = testing::MappingError(R"(syntax = "proto3"; import "google/protobuf/empty.proto";
message A { int32 x = 1; google.protobuf.Empty nothing = 2; })");
  EXPECT_EQ(st.code(), StatusCode::kInvalidArgument);
  EXPECT_EQ(st.message(), "field 'nothing': message 'google.protobuf.Empty' has no fields, which a table cannot store");

  st = testing::MappingError(R"(syntax = "proto3"; import "confluent/meta.proto"; import "confluent/type/decimal.proto";
message A { confluent.type.Decimal d = 1 [(confluent.field_meta) = { params: [{key: "precision", value: "40"}] }]; })");
  EXPECT_EQ(st.code(), StatusCode::kInvalidArgument);
  EXPECT_EQ(st.message(),
            "field 'd': decimal(40, 0) cannot be stored: precision must be 1..38 and scale 0..precision");

  st = testing::MappingError(R"(syntax = "proto3"; import "confluent/meta.proto"; import "confluent/type/decimal.proto";
message A { confluent.type.Decimal d = 1 [(confluent.field_meta) = { params: [{key: "scale", value: "two"}] }]; })");
  EXPECT_EQ(st.message(), "field 'd': (confluent.field_meta).params scale 'two' is not a number");
}

TEST(ProtoTypeMappingTest, KeyFormIsOneNullableStruct) {
  auto d = testing::MakeDecoder(R"(syntax = "proto3"; message K { string id = 1; int32 shard = 2; })", "", "key");
  ASSERT_TRUE(d.payload);
  EXPECT_EQ(d.payload->columns()->ToString(), "key: struct<id: string not null, shard: int32 not null>");
}

}  // namespace
}  // namespace floe::proto
