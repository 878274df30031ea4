#pragma once
// `.proto` files every Protobuf schema may import without a registry reference, beyond the
// `google/protobuf/*.proto` files libprotobuf carries: Confluent's option and decimal types
// and Google's date type, which Confluent's serializers import without registering them.
#include <string_view>

namespace floe::proto::internal {

// The source of a built-in file by import name, or empty when `name` is not one.
std::string_view BuiltinProtoSource(std::string_view name);

}  // namespace floe::proto::internal
