#pragma once
// The schemas of the randomized tests: every mapped type, in proto3 and proto2.
namespace floe::proto::testing {

constexpr const char* kProto3 = R"(syntax = "proto3";
package oracle;
import "google/protobuf/timestamp.proto";
import "google/protobuf/duration.proto";
import "google/protobuf/wrappers.proto";
import "confluent/meta.proto";
import "confluent/type/decimal.proto";
import "google/type/date.proto";

enum Color { RED = 0; GREEN = 1; BLUE = 2; }
message Inner { int32 a = 1; string s = 2; repeated sint64 r = 3; optional Color c = 4; Leaf leaf = 5; }
message Leaf { fixed64 f = 1; bytes b = 2; }
message Row {
  int32 i32 = 1; sint32 s32 = 2; sfixed32 sf32 = 3; int64 i64 = 4; sint64 s64 = 5; sfixed64 sf64 = 6;
  uint32 u32 = 7; fixed32 f32 = 8; uint64 u64 = 9; fixed64 f64 = 10; bool b = 11; float fl = 12;
  double d = 13; string str = 14; bytes by = 15; Color color = 16;
  optional int32 opt_i32 = 17; optional string opt_str = 18; optional double opt_d = 19;
  Inner inner = 20;
  repeated int32 ri32 = 21; repeated double rd = 22 [packed = false]; repeated string rs = 23;
  repeated Inner rinner = 24; repeated Color rcolor = 25; repeated fixed64 rf64 = 26;
  repeated bool rb = 27 [packed = false]; repeated sint32 rs32 = 28; repeated float rfl = 29; repeated bytes rby = 30;
  map<string, int64> m_str = 31; map<int32, Inner> m_inner = 32; map<uint64, string> m_u64 = 33;
  map<bool, Color> m_bool = 34; map<sint64, double> m_s64 = 35; map<fixed32, bytes> m_f32 = 36;
  oneof choice { string o_str = 37; Inner o_inner = 38; int64 o_i64 = 39; google.protobuf.Timestamp o_ts = 40; }
  google.protobuf.Timestamp ts = 41; google.protobuf.Duration dur = 42;
  google.protobuf.Int64Value w_i64 = 43; google.protobuf.StringValue w_str = 44; google.protobuf.BoolValue w_b = 45;
  google.protobuf.UInt64Value w_u64 = 46; google.protobuf.DoubleValue w_d = 47; google.protobuf.BytesValue w_by = 48;
  google.protobuf.FloatValue w_f = 49; google.protobuf.Int32Value w_i32 = 50; google.protobuf.UInt32Value w_u32 = 51;
  confluent.type.Decimal dec = 52 [(confluent.field_meta) = { params: [{key: "precision", value: "18"}, {key: "scale", value: "2"}] }];
  google.type.Date day = 53;
  repeated google.protobuf.Timestamp rts = 54; repeated google.protobuf.StringValue rw = 55;
  map<string, google.protobuf.Duration> m_dur = 56;
  int32 far = 100000;
}
)";

constexpr const char* kProto2 = R"(syntax = "proto2";
package oracle2;
enum Size { ZERO = 0; SMALL = 1; LARGE = 5; HUGE = -7; }
message Row2 {
  optional int32 a = 1 [default = 42];
  optional string s = 2 [default = "hi"];
  optional Size size = 3 [default = LARGE];
  optional int64 plain = 4;
  required sint32 req = 5;
  repeated int32 unpacked = 6;
  repeated int32 packed = 7 [packed = true];
  optional group G = 8 { optional int32 x = 1; repeated string y = 2; }
  repeated group RG = 9 { optional uint64 z = 1; }
  optional bytes raw = 10 [default = "\001\002"];
  optional double dd = 11 [default = 1.5];
  optional bool bb = 12 [default = true];
  optional float ff = 13 [default = -2.25];
  optional uint32 uu = 14 [default = 4000000000];
  optional fixed64 fx = 15 [default = 18446744073709551615];
  map<string, Size> sizes = 16;
  optional Nested n = 17;
  oneof pick { int32 p1 = 18; string p2 = 19 [default = "dflt"]; }
}
message Nested { required string id = 1; optional sfixed32 v = 2 [default = -5]; }
)";

}  // namespace floe::proto::testing
