#include "floe/iceberg/parquet_metrics.h"

#include <parquet/metadata.h>
#include <parquet/schema.h>
#include <parquet/statistics.h>

#include <algorithm>
#include <cstring>
#include <optional>

namespace floe::iceberg {
namespace {

// Index of the first byte of each UTF-8 code point in `s`.
std::vector<std::size_t> CodePointStarts(const std::string& s) {
  std::vector<std::size_t> starts;
  for (std::size_t i = 0; i < s.size(); ++i) {
    if ((static_cast<unsigned char>(s[i]) & 0xC0) != 0x80) starts.push_back(i);
  }
  return starts;
}

std::string EncodeUtf8(std::uint32_t cp) {
  std::string out;
  if (cp < 0x80) {
    out.push_back(static_cast<char>(cp));
  } else if (cp < 0x800) {
    out.push_back(static_cast<char>(0xC0 | (cp >> 6)));
    out.push_back(static_cast<char>(0x80 | (cp & 0x3F)));
  } else if (cp < 0x10000) {
    out.push_back(static_cast<char>(0xE0 | (cp >> 12)));
    out.push_back(static_cast<char>(0x80 | ((cp >> 6) & 0x3F)));
    out.push_back(static_cast<char>(0x80 | (cp & 0x3F)));
  } else {
    out.push_back(static_cast<char>(0xF0 | (cp >> 18)));
    out.push_back(static_cast<char>(0x80 | ((cp >> 12) & 0x3F)));
    out.push_back(static_cast<char>(0x80 | ((cp >> 6) & 0x3F)));
    out.push_back(static_cast<char>(0x80 | (cp & 0x3F)));
  }
  return out;
}

std::uint32_t DecodeUtf8(const std::string& s, std::size_t start, std::size_t end) {
  const auto b0 = static_cast<unsigned char>(s[start]);
  const std::size_t n = end - start;
  if (n == 1) return b0;
  std::uint32_t cp = b0 & (n == 2 ? 0x1F : n == 3 ? 0x0F : 0x07);
  for (std::size_t i = start + 1; i < end; ++i) cp = (cp << 6) | (static_cast<unsigned char>(s[i]) & 0x3F);
  return cp;
}

// Minimal two's-complement big-endian bytes of a fixed-width big-endian decimal.
std::string MinimalTwosComplement(const std::string& be) {
  std::size_t start = 0;
  while (start + 1 < be.size()) {
    const auto b = static_cast<unsigned char>(be[start]);
    const auto next = static_cast<unsigned char>(be[start + 1]);
    const bool redundant = (b == 0x00 && (next & 0x80) == 0) || (b == 0xFF && (next & 0x80) != 0);
    if (!redundant) break;
    ++start;
  }
  return be.substr(start);
}

// Big-endian two's complement of a little-endian signed integer of `width` bytes.
std::string IntegerToBigEndianDecimal(const std::string& le) {
  std::string be(le.rbegin(), le.rend());
  return MinimalTwosComplement(be);
}

struct Bounds {
  std::optional<std::string> lower;
  std::optional<std::string> upper;
};

// Iceberg bytes from Parquet's plain-encoded min/max. Returns nothing for combinations
// whose orderings could differ (then the bound is omitted, which is always safe).
Bounds ConvertBounds(const parquet::Statistics& stats, const schema::Type& type, const MetricsOptions& options) {
  Bounds b;
  if (!stats.HasMinMax()) return b;
  const std::string min = stats.EncodeMin();
  const std::string max = stats.EncodeMax();
  const auto physical = stats.physical_type();
  switch (type.id()) {
    case schema::TypeId::kBoolean:
    case schema::TypeId::kInt:
    case schema::TypeId::kDate:
    case schema::TypeId::kLong:
    case schema::TypeId::kTime:
    case schema::TypeId::kTimestamp:
    case schema::TypeId::kTimestampTz:
    case schema::TypeId::kTimestampNs:
    case schema::TypeId::kTimestampTzNs:
    case schema::TypeId::kFloat:
    case schema::TypeId::kDouble:
    case schema::TypeId::kUuid:
    case schema::TypeId::kFixed:
      b.lower = min;
      b.upper = max;
      break;
    case schema::TypeId::kString:
      b.lower = TruncateLowerBound(min, options.truncate_length, true);
      b.upper = TruncateUpperBound(max, options.truncate_length, true);
      break;
    case schema::TypeId::kBinary:
      b.lower = TruncateLowerBound(min, options.truncate_length, false);
      b.upper = TruncateUpperBound(max, options.truncate_length, false);
      break;
    case schema::TypeId::kDecimal:
      if (physical == parquet::Type::FIXED_LEN_BYTE_ARRAY || physical == parquet::Type::BYTE_ARRAY) {
        b.lower = MinimalTwosComplement(min);
        b.upper = MinimalTwosComplement(max);
      } else if (physical == parquet::Type::INT32 || physical == parquet::Type::INT64) {
        b.lower = IntegerToBigEndianDecimal(min);
        b.upper = IntegerToBigEndianDecimal(max);
      }
      break;
    default:
      break;
  }
  // Floats: Parquet never records NaN in min/max, but -0.0/+0.0 ordering differs between
  // writers; Iceberg readers handle both, so the values are used as they are.
  return b;
}

template <typename T>
T ReadLittleEndian(const std::string& bytes) {
  T v{};
  std::memcpy(&v, bytes.data(), std::min(sizeof(T), bytes.size()));
  return v;
}

// Sign-extends a big-endian two's-complement value to 32 bytes, so that byte-wise
// comparison (after flipping the sign bit) orders like the numbers.
std::string SignExtended(const std::string& be) {
  const bool negative = !be.empty() && (static_cast<unsigned char>(be[0]) & 0x80);
  std::string out(32 - std::min<std::size_t>(32, be.size()), negative ? '\xff' : '\0');
  out += be;
  out[0] = static_cast<char>(static_cast<unsigned char>(out[0]) ^ 0x80);
  return out;
}

// -1, 0, 1 as Iceberg orders the values whose single-value forms are `a` and `b`.
int CompareBounds(const schema::Type& type, const std::string& a, const std::string& b) {
  auto cmp = [](auto x, auto y) { return x < y ? -1 : (y < x ? 1 : 0); };
  switch (type.id()) {
    case schema::TypeId::kBoolean: return cmp(static_cast<unsigned char>(a[0]), static_cast<unsigned char>(b[0]));
    case schema::TypeId::kInt:
    case schema::TypeId::kDate: return cmp(ReadLittleEndian<std::int32_t>(a), ReadLittleEndian<std::int32_t>(b));
    case schema::TypeId::kLong:
    case schema::TypeId::kTime:
    case schema::TypeId::kTimestamp:
    case schema::TypeId::kTimestampTz:
    case schema::TypeId::kTimestampNs:
    case schema::TypeId::kTimestampTzNs: return cmp(ReadLittleEndian<std::int64_t>(a), ReadLittleEndian<std::int64_t>(b));
    case schema::TypeId::kFloat: return cmp(ReadLittleEndian<float>(a), ReadLittleEndian<float>(b));
    case schema::TypeId::kDouble: return cmp(ReadLittleEndian<double>(a), ReadLittleEndian<double>(b));
    case schema::TypeId::kDecimal: return cmp(SignExtended(a), SignExtended(b));
    default: return cmp(a, b);  // strings, binary, fixed, uuid: unsigned byte-wise
  }
}

}  // namespace

std::string TruncateLowerBound(const std::string& value, int length, bool utf8) {
  if (length <= 0) return value;
  if (!utf8) return value.size() <= static_cast<std::size_t>(length) ? value : value.substr(0, length);
  const auto starts = CodePointStarts(value);
  if (starts.size() <= static_cast<std::size_t>(length)) return value;
  return value.substr(0, starts[length]);
}

std::optional<std::string> TruncateUpperBound(const std::string& value, int length, bool utf8) {
  if (length <= 0) return value;
  if (!utf8) {
    if (value.size() <= static_cast<std::size_t>(length)) return value;
    std::string prefix = value.substr(0, length);
    // Increment the last byte that is not 0xFF, dropping what follows it.
    for (std::size_t i = prefix.size(); i-- > 0;) {
      if (static_cast<unsigned char>(prefix[i]) != 0xFF) {
        prefix[i] = static_cast<char>(static_cast<unsigned char>(prefix[i]) + 1);
        return prefix.substr(0, i + 1);
      }
    }
    return std::nullopt;
  }
  const auto starts = CodePointStarts(value);
  if (starts.size() <= static_cast<std::size_t>(length)) return value;
  // Increment the last code point that can be incremented (skipping the surrogate range).
  for (std::size_t k = static_cast<std::size_t>(length); k-- > 0;) {
    const std::size_t begin = starts[k];
    const std::size_t end = starts[k + 1];
    std::uint32_t cp = DecodeUtf8(value, begin, end) + 1;
    if (cp >= 0xD800 && cp <= 0xDFFF) cp = 0xE000;
    if (cp > 0x10FFFF) continue;
    return value.substr(0, begin) + EncodeUtf8(cp);
  }
  return std::nullopt;
}

Status AddParquetMetrics(const parquet::FileMetaData& metadata, const schema::Schema& table_schema, DataFile& file,
                         const MetricsOptions& options) {
  file.record_count = metadata.num_rows();
  file.split_offsets.clear();
  const parquet::SchemaDescriptor* schema = metadata.schema();
  const int columns = schema->num_columns();
  std::map<int, std::pair<std::optional<std::string>, std::optional<std::string>>> bounds;
  std::map<int, bool> bounds_valid;
  for (int rg = 0; rg < metadata.num_row_groups(); ++rg) {
    auto row_group = metadata.RowGroup(rg);
    if (row_group->num_columns() > 0) file.split_offsets.push_back(row_group->ColumnChunk(0)->file_offset());
    for (int c = 0; c < columns; ++c) {
      const parquet::ColumnDescriptor* column = schema->Column(c);
      const int field_id = column->schema_node()->field_id();
      if (field_id < 0) continue;  // not one of the table's columns
      auto chunk = row_group->ColumnChunk(c);
      file.column_sizes[field_id] += chunk->total_compressed_size();
      file.value_counts[field_id] += chunk->num_values();
      auto stats = chunk->statistics();
      const bool has_null_count = stats && stats->HasNullCount();
      if (has_null_count) file.null_value_counts[field_id] += stats->null_count();
      // Bounds only for columns outside lists/maps: there a row's "value" is a collection
      // and per-element bounds would mislead row-level pruning.
      const schema::NestedField* field = table_schema.FindById(field_id);
      if (column->max_repetition_level() > 0 || field == nullptr || !field->type->is_primitive()) continue;
      auto it = bounds_valid.emplace(field_id, true).first;
      if (!it->second) continue;
      if (!stats || !stats->HasMinMax()) {
        // A row group without min/max (e.g. all nulls) is fine only if all its values are null.
        if (!(has_null_count && stats->null_count() == chunk->num_values())) it->second = false;
        continue;
      }
      Bounds b = ConvertBounds(*stats, *field->type, options);
      auto& [lower, upper] = bounds[field_id];
      if (!b.lower || !b.upper) {
        it->second = false;
        continue;
      }
      if (!lower) {
        lower = b.lower;
        upper = b.upper;
      } else {
        if (CompareBounds(*field->type, *b.lower, *lower) < 0) lower = b.lower;
        if (CompareBounds(*field->type, *b.upper, *upper) > 0) upper = b.upper;
      }
    }
  }
  for (const auto& [id, lu] : bounds) {
    if (!bounds_valid[id] || !lu.first || !lu.second) continue;
    file.lower_bounds[id] = *lu.first;
    file.upper_bounds[id] = *lu.second;
  }
  return Status::OK();
}

}  // namespace floe::iceberg
