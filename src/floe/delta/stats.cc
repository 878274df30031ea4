#include "floe/delta/stats.h"

#include <arrow/util/decimal.h>
#include <nlohmann/json.hpp>
#include <parquet/metadata.h>
#include <parquet/schema.h>
#include <parquet/statistics.h>

#include <chrono>
#include <cmath>
#include <cstring>
#include <map>
#include <optional>

#include "floe/delta/value_format_internal.h"

namespace floe::delta {
namespace {

constexpr std::size_t kStringPrefixCodePoints = 32;  // what Spark's Delta writer keeps

template <typename T>
T LittleEndian(const std::string& bytes) {
  T v{};
  std::memcpy(&v, bytes.data(), std::min(sizeof(T), bytes.size()));
  return v;
}

// A JSON tree whose leaves are already-rendered JSON text: decimals must keep every digit,
// which a double in nlohmann::json would not.
struct Node {
  std::optional<std::string> raw;
  std::map<std::string, Node> children;

  void Set(const std::vector<std::string>& path, std::string value) {
    Node* n = this;
    for (const auto& p : path) n = &n->children[p];
    n->raw = std::move(value);
  }
  std::string Dump() const {
    if (raw) return *raw;
    std::string out = "{";
    bool first = true;
    for (const auto& [k, v] : children) {
      if (!first) out += ",";
      first = false;
      out += nlohmann::json(k).dump() + ":" + v.Dump();
    }
    return out + "}";
  }
  bool empty() const { return !raw && children.empty(); }
};

std::optional<std::string> Utf8Prefix(const std::string& s, std::size_t code_points) {
  std::size_t seen = 0;
  for (std::size_t i = 0; i < s.size(); ++i) {
    if ((static_cast<unsigned char>(s[i]) & 0xC0) != 0x80) {
      if (seen == code_points) return s.substr(0, i);
      ++seen;
    }
  }
  return std::nullopt;  // short enough: no cut
}

enum class Bound { kMin, kMax };

// The JSON text of a Parquet plain-encoded min or max, or nullopt when Delta keeps none.
std::optional<std::string> RenderBound(const std::string& bytes, const schema::Type& type,
                                       parquet::Type::type physical, Bound bound) {
  using schema::TypeId;
  switch (type.id()) {
    case TypeId::kInt: return std::to_string(LittleEndian<std::int32_t>(bytes));
    case TypeId::kLong: return std::to_string(LittleEndian<std::int64_t>(bytes));
    case TypeId::kFloat:
    case TypeId::kDouble: {
      const double v = type.id() == TypeId::kFloat ? LittleEndian<float>(bytes) : LittleEndian<double>(bytes);
      if (!std::isfinite(v)) return std::nullopt;
      return nlohmann::json(v).dump();
    }
    case TypeId::kDate: return nlohmann::json(FormatDate(LittleEndian<std::int32_t>(bytes))).dump();
    case TypeId::kTimestamp:
    case TypeId::kTimestampTz: {
      std::int64_t micros = LittleEndian<std::int64_t>(bytes);
      // Millisecond precision, as Spark writes and reads them; widened outwards.
      std::int64_t millis = micros / 1000;
      if (micros % 1000 != 0 && (micros < 0) == (bound == Bound::kMin)) millis += micros < 0 ? -1 : 1;
      return nlohmann::json(FormatTimestampMillis(millis, type.id() == TypeId::kTimestampTz)).dump();
    }
    case TypeId::kString: {
      if (auto prefix = Utf8Prefix(bytes, kStringPrefixCodePoints)) {
        if (bound == Bound::kMax) return std::nullopt;
        return nlohmann::json(*prefix).dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
      }
      return nlohmann::json(bytes).dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
    }
    case TypeId::kDecimal: {
      arrow::Decimal128 value;
      if (physical == parquet::Type::INT32) {
        value = arrow::Decimal128(LittleEndian<std::int32_t>(bytes));
      } else if (physical == parquet::Type::INT64) {
        value = arrow::Decimal128(LittleEndian<std::int64_t>(bytes));
      } else {
        if (bytes.empty() || bytes.size() > 16) return std::nullopt;
        auto parsed = arrow::Decimal128::FromBigEndian(reinterpret_cast<const std::uint8_t*>(bytes.data()),
                                                       static_cast<std::int32_t>(bytes.size()));
        if (!parsed.ok()) return std::nullopt;
        value = *parsed;
      }
      return value.ToString(type.scale());
    }
    default: return std::nullopt;  // boolean, binary, uuid, fixed: Delta keeps no min/max
  }
}

struct ColumnStats {
  std::int64_t null_count = 0;
  bool null_count_valid = true;
  std::optional<std::string> min, max;  // plain-encoded, as Parquet orders them
  bool bounds_valid = true;
  std::vector<std::string> path;
  const schema::NestedField* field = nullptr;
  parquet::Type::type physical = parquet::Type::INT32;
};

}  // namespace

Result<std::string> StatsJson(const parquet::FileMetaData& footer, const schema::Schema& schema) {
  const parquet::SchemaDescriptor* descr = footer.schema();
  std::map<int, ColumnStats> columns;  // by leaf index
  for (int c = 0; c < descr->num_columns(); ++c) {
    const parquet::ColumnDescriptor* column = descr->Column(c);
    if (column->max_repetition_level() > 0) continue;  // inside a list or map
    const int id = column->schema_node()->field_id();
    const schema::NestedField* field = id >= 0 ? schema.FindById(id) : nullptr;
    if (field == nullptr || !field->type->is_primitive()) continue;
    ColumnStats s;
    s.path = column->path()->ToDotVector();
    s.field = field;
    s.physical = column->physical_type();
    columns.emplace(c, std::move(s));
  }
  for (int rg = 0; rg < footer.num_row_groups(); ++rg) {
    auto row_group = footer.RowGroup(rg);
    for (auto& entry : columns) {
      // Not a structured binding: clang 14 (the fuzz build) cannot capture one in a lambda.
      const int c = entry.first;
      auto& s = entry.second;
      auto chunk = row_group->ColumnChunk(c);
      auto stats = chunk->statistics();
      if (!stats || !stats->HasNullCount()) {
        s.null_count_valid = false;
        s.bounds_valid = false;
        continue;
      }
      s.null_count += stats->null_count();
      if (!stats->HasMinMax()) {
        // All nulls is the only case where no bounds are still exact bounds.
        if (stats->null_count() != chunk->num_values()) s.bounds_valid = false;
        continue;
      }
      const std::string lo = stats->EncodeMin(), hi = stats->EncodeMax();
      // Parquet's own column order for the logical type picks the winner across row groups;
      // comparing typed values is only needed where there are several row groups.
      auto typed_less = [&](const std::string& a, const std::string& b) {
        auto ta = stats->physical_type();
        switch (ta) {
          case parquet::Type::INT32: return LittleEndian<std::int32_t>(a) < LittleEndian<std::int32_t>(b);
          case parquet::Type::INT64: return LittleEndian<std::int64_t>(a) < LittleEndian<std::int64_t>(b);
          case parquet::Type::FLOAT: return LittleEndian<float>(a) < LittleEndian<float>(b);
          case parquet::Type::DOUBLE: return LittleEndian<double>(a) < LittleEndian<double>(b);
          case parquet::Type::FIXED_LEN_BYTE_ARRAY:
            if (s.field->type->id() == schema::TypeId::kDecimal) {
              auto da = arrow::Decimal128::FromBigEndian(reinterpret_cast<const std::uint8_t*>(a.data()),
                                                         static_cast<std::int32_t>(a.size()));
              auto db = arrow::Decimal128::FromBigEndian(reinterpret_cast<const std::uint8_t*>(b.data()),
                                                         static_cast<std::int32_t>(b.size()));
              if (da.ok() && db.ok()) return *da < *db;
            }
            return a < b;
          default: return a < b;  // strings: unsigned byte order is code point order
        }
      };
      if (!s.min || typed_less(lo, *s.min)) s.min = lo;
      if (!s.max || typed_less(*s.max, hi)) s.max = hi;
    }
  }
  Node mins, maxs, nulls;
  for (const auto& [c, s] : columns) {
    if (s.null_count_valid) nulls.Set(s.path, std::to_string(s.null_count));
    if (!s.bounds_valid || !s.min || !s.max) continue;
    auto lo = RenderBound(*s.min, *s.field->type, s.physical, Bound::kMin);
    auto hi = RenderBound(*s.max, *s.field->type, s.physical, Bound::kMax);
    if (lo) mins.Set(s.path, *lo);
    if (hi) maxs.Set(s.path, *hi);
  }
  std::string out = "{\"numRecords\":" + std::to_string(footer.num_rows());
  if (!mins.empty()) out += ",\"minValues\":" + mins.Dump();
  if (!maxs.empty()) out += ",\"maxValues\":" + maxs.Dump();
  if (!nulls.empty()) out += ",\"nullCount\":" + nulls.Dump();
  return out + "}";
}

}  // namespace floe::delta
