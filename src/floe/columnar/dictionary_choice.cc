#include "floe/columnar/dictionary_choice.h"

#include <arrow/api.h>

#include <algorithm>
#include <optional>
#include <string_view>
#include <unordered_set>

namespace floe::columnar {

namespace {

enum class Verdict { kPlain, kDictionary, kUndecided };

// The value at `i` as bytes: fixed-width values by their width, binary ones by their view.
std::optional<std::string_view> ValueBytes(const arrow::Array& array, std::int64_t i) {
  const arrow::Type::type id = array.type_id();
  if (arrow::is_binary_like(id)) return static_cast<const arrow::BinaryArray&>(array).GetView(i);
  if (arrow::is_large_binary_like(id)) return static_cast<const arrow::LargeBinaryArray&>(array).GetView(i);
  if (id == arrow::Type::FIXED_SIZE_BINARY || id == arrow::Type::DECIMAL128 || id == arrow::Type::DECIMAL256) {
    return static_cast<const arrow::FixedSizeBinaryArray&>(array).GetView(i);
  }
  if (arrow::is_integer(id) || arrow::is_temporal(id)) {
    const int width = array.type()->byte_width();
    if (width <= 0 || array.data()->buffers.size() < 2 || !array.data()->buffers[1]) return std::nullopt;
    const auto* values = array.data()->buffers[1]->data() + (array.offset() + i) * width;
    return std::string_view(reinterpret_cast<const char*>(values), static_cast<std::size_t>(width));
  }
  return std::nullopt;
}

Verdict Judge(const arrow::Array& array, const DictionaryChoice& choice) {
  if (arrow::is_floating(array.type_id())) return Verdict::kPlain;  // measurements: rarely repeat
  const std::int64_t n = std::min(array.length(), choice.sample_rows);
  std::unordered_set<std::string_view> distinct;
  std::int64_t values = 0;
  for (std::int64_t i = 0; i < n; ++i) {
    if (array.IsNull(i)) continue;
    auto bytes = ValueBytes(array, i);
    if (!bytes) return Verdict::kUndecided;  // a type not sampled (booleans, nested)
    distinct.insert(*bytes);
    ++values;
  }
  if (values < choice.min_values) return Verdict::kUndecided;
  return static_cast<double>(distinct.size()) > choice.max_distinct_ratio * static_cast<double>(values)
             ? Verdict::kPlain
             : Verdict::kDictionary;
}

void Visit(const arrow::Array& array, const std::string& path, const DictionaryChoice& choice,
           std::vector<std::string>& plain) {
  if (array.type_id() == arrow::Type::STRUCT) {
    const auto& s = static_cast<const arrow::StructArray&>(array);
    for (int c = 0; c < s.num_fields(); ++c) {
      // field(c) applies the struct's own offset and length.
      Visit(*s.field(c), path + "." + s.type()->field(c)->name(), choice, plain);
    }
    return;
  }
  if (Judge(array, choice) == Verdict::kPlain) plain.push_back(path);
}

}  // namespace

std::vector<std::string> PlainEncodedColumns(const arrow::RecordBatch& sample, const DictionaryChoice& choice) {
  std::vector<std::string> plain;
  for (int c = 0; c < sample.num_columns(); ++c) {
    Visit(*sample.column(c), sample.schema()->field(c)->name(), choice, plain);
  }
  return plain;
}

}  // namespace floe::columnar
