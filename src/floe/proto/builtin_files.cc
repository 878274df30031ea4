// Written from the public definitions (Confluent schema-registry `confluent/meta.proto` and
// `confluent/type/decimal.proto`; googleapis `google/type/date.proto`): the same packages,
// messages, field numbers and extension numbers, which is all that decoding depends on.
#include "floe/proto/builtin_files_internal.h"

namespace floe::proto::internal {

namespace {

constexpr std::string_view kConfluentMeta = R"(syntax = "proto3";
package confluent;

import "google/protobuf/descriptor.proto";

option java_package = "io.confluent.protobuf";
option java_outer_classname = "MetaProto";

// Documentation, parameters and tags that Confluent's tools attach to schema elements.
message Meta {
  string doc = 1;
  map<string, string> params = 2;
  repeated string tags = 3;
}

extend google.protobuf.FileOptions { Meta file_meta = 1088; }
extend google.protobuf.MessageOptions { Meta message_meta = 1088; }
extend google.protobuf.FieldOptions { Meta field_meta = 1088; }
extend google.protobuf.EnumOptions { Meta enum_meta = 1088; }
extend google.protobuf.EnumValueOptions { Meta enum_value_meta = 1088; }
)";

constexpr std::string_view kConfluentDecimal = R"(syntax = "proto3";
package confluent.type;

option java_package = "io.confluent.protobuf.type";
option java_outer_classname = "DecimalProto";

// An arbitrary-precision decimal: the unscaled value as big-endian two's complement bytes.
message Decimal {
  bytes value = 1;
  uint32 precision = 2;
  int32 scale = 3;
}
)";

constexpr std::string_view kGoogleDate = R"(syntax = "proto3";
package google.type;

option java_package = "com.google.type";
option java_multiple_files = true;
option java_outer_classname = "DateProto";

// A calendar date: year 1..9999 (0: no year), month 1..12 (0: no month), day 1..31 (0: no day).
message Date {
  int32 year = 1;
  int32 month = 2;
  int32 day = 3;
}
)";

}  // namespace

std::string_view BuiltinProtoSource(std::string_view name) {
  if (name == "confluent/meta.proto") return kConfluentMeta;
  if (name == "confluent/type/decimal.proto") return kConfluentDecimal;
  if (name == "google/type/date.proto") return kGoogleDate;
  return {};
}

}  // namespace floe::proto::internal
