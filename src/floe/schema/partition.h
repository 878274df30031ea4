#pragma once
// Partition transforms, specs and sort orders.
// Spec: https://iceberg.apache.org/spec/#partition-transforms and #sort-orders
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "floe/core/result.h"
#include "floe/schema/types.h"

namespace floe::schema {

enum class TransformKind { kIdentity, kBucket, kTruncate, kYear, kMonth, kDay, kHour, kVoid };

struct Transform {
  TransformKind kind = TransformKind::kIdentity;
  int param = 0;  // N for bucket[N], W for truncate[W]

  static Result<Transform> Parse(std::string_view text);  // "identity", "bucket[16]", "day", …
  std::string ToString() const;
  // The partition value's type for a source type, or an error if the transform does not
  // apply to it (e.g. day on a string).
  Result<TypePtr> ResultType(const Type& source) const;
  bool operator==(const Transform&) const = default;
};

struct PartitionField {
  int source_id = 0;
  int field_id = 0;  // partition field ids start at 1000 per the spec
  std::string name;
  Transform transform;
};

struct PartitionSpec {
  int spec_id = 0;
  std::vector<PartitionField> fields;
  bool is_unpartitioned() const;  // no fields, or only void transforms
  // The struct type of partition tuples (as written in manifests' `partition` field).
  Result<TypePtr> PartitionType(const Schema& schema) const;
};

enum class SortDirection { kAsc, kDesc };
enum class NullOrder { kNullsFirst, kNullsLast };

struct SortField {
  Transform transform;
  int source_id = 0;
  SortDirection direction = SortDirection::kAsc;
  NullOrder null_order = NullOrder::kNullsFirst;
};

struct SortOrder {
  int order_id = 0;  // 0 is reserved for "unsorted"
  std::vector<SortField> fields;
};

// Parses a Floe config partition expression ("day(_kafka.timestamp)", "bucket[16](id)", "id")
// against a schema into a partition field with a default name (Iceberg's convention:
// "<col>_day", "<col>_bucket_16", "<col>" for identity; dots become underscores).
Result<PartitionField> ParsePartitionExpression(std::string_view expr, const Schema& schema, int field_id);

// Parses Floe config sort expressions ("customer", "amount desc", "_kafka.timestamp asc nulls
// last") against a schema into a sort order with id `order_id`: identity transforms of
// primitive columns outside lists and maps; the direction defaults to asc, the null order to
// Iceberg's default for it (nulls first for asc, nulls last for desc). kInvalidArgument names
// the expression and what is wrong (an unknown column with the closest name).
Result<SortOrder> ParseSortOrder(const std::vector<std::string>& exprs, const Schema& schema, int order_id);

// --- Transform application (partition values of one source value) --------------------------
// Values use Iceberg's physical representation: int/date as int32, long/time/timestamps
// as int64 (micros or nanos), decimals as unscaled big-endian two's-complement bytes,
// strings/binary/fixed/uuid as bytes.
std::int32_t BucketHash(std::int64_t v);            // int, long, date, time, timestamps
std::int32_t BucketHashBytes(std::string_view v);   // string, binary, fixed, uuid, decimal bytes
// murmur3_x86_32 with seed 0, as the spec requires.
std::int32_t Murmur3_32(std::string_view data);
inline std::int32_t ApplyBucket(std::int32_t hash, int n) { return (hash & 0x7fffffff) % n; }
std::int32_t YearsFromEpochDays(std::int32_t days);
std::int32_t MonthsFromEpochDays(std::int32_t days);
std::int32_t DaysFromMicros(std::int64_t micros);    // floor division: pre-1970 values round down
std::int32_t HoursFromMicros(std::int64_t micros);
// timestamp_ns values are partitioned (and bucketed, per the spec) by their microseconds:
// floor division, so -1 ns is -1 us.
std::int64_t MicrosFromNanos(std::int64_t nanos);
std::int64_t TruncateInteger(std::int64_t v, int width);  // v - (((v % W) + W) % W)
// Truncates a UTF-8 string to at most `width` code points (never splits a code point).
std::string TruncateUtf8(std::string_view v, int width);
// The spec hashes (and serializes) a decimal's unscaled value in the fewest bytes that hold
// it; this drops redundant sign bytes from any big-endian two's-complement form (e.g. the
// 16 bytes of a decimal128). Empty input is zero: one 0x00 byte.
std::string MinimalDecimalBytes(std::string_view unscaled_big_endian);
// truncate[W] of a decimal: the unscaled value v becomes v - (((v % W) + W) % W), the scale
// stays. In and out as big-endian two's-complement bytes (out minimal); values over 16
// significant bytes (beyond decimal(38)) are an error.
Result<std::string> TruncateDecimal(std::string_view unscaled_big_endian, int width);

}  // namespace floe::schema
