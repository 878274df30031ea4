#pragma once
// Reading decoded Arrow columns back in the Avro tests.
#include <arrow/api.h>

#include <cstdint>
#include <string_view>

namespace floe::avro::testing {

// Value i of a binary or fixed-size binary column (Avro bytes and fixed decode to either).
inline std::string_view BinaryAt(const arrow::Array& a, std::int64_t i) {
  if (a.type_id() == arrow::Type::FIXED_SIZE_BINARY) return static_cast<const arrow::FixedSizeBinaryArray&>(a).GetView(i);
  return static_cast<const arrow::BinaryArray&>(a).GetView(i);
}

}  // namespace floe::avro::testing
