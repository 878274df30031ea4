// DecodePlan::Run: executes a compiled plan over one datum. Run<true> decodes and appends;
// Run<false> is the same code with every append compiled out, so validation checks
// exactly what decoding checks.
#include <arrow/array/builder_binary.h>
#include <arrow/array/builder_decimal.h>
#include <arrow/array/builder_nested.h>
#include <arrow/array/builder_primitive.h>
#include <arrow/util/decimal.h>
#include <arrow/util/utf8.h>

#include <limits>

#include "floe/avro/decode_plan.h"
#include "floe/core/arrow_interop.h"

namespace floe::avro {
namespace {

// Stops on a failed read, naming the field (see Annotate). Inside Run only.
#define FLOE_DECODE_TRY(expr)                                  \
  do {                                                         \
    ::floe::Status decode_status_ = (expr);                    \
    if (!decode_status_.ok()) [[unlikely]] {                   \
      return Annotate(s, decode_status_);                      \
    }                                                          \
  } while (0)

// Appends only in Run<true>; Arrow errors (out of memory, a column over 2 GiB) likewise.
#define FLOE_DECODE_APPEND(expr)                               \
  do {                                                         \
    if constexpr (kAppend) {                                   \
      ::arrow::Status append_status_ = (expr);                 \
      if (!append_status_.ok()) [[unlikely]] {                 \
        return Annotate(s, ::floe::FromArrow(append_status_)); \
      }                                                        \
    }                                                          \
  } while (0)

// Times of day: Arrow (and Parquet, and Iceberg) only hold values within one day.
constexpr std::int32_t kMillisPerDay = 86'400'000;
constexpr std::int64_t kMicrosPerDay = std::int64_t{kMillisPerDay} * 1000;

template <typename B>
B* Cast(const DecodePlan::Step& s) {
  return static_cast<B*>(s.builder);  // checked with dynamic_cast when the plan was compiled
}

// Array and map blocks: a count, and when the count is negative, its absolute value and
// then the block's size in bytes. Every storable type takes at least one byte per value
// (the mapping rejects null, empty records and fixed(0)), so a count larger than the
// bytes left is corrupt: checking it first stops a hostile count from looping or
// reserving its way out of memory.
Status ReadBlockCount(BinaryReader& in, std::int64_t* count, std::int64_t* byte_size) {
  const std::size_t at = in.offset();
  FLOE_RETURN_IF_ERROR(in.ReadLong(count));
  *byte_size = -1;
  if (*count < 0) {
    if (*count == std::numeric_limits<std::int64_t>::min()) {
      return reader_errors::Invalid(at, "block count " + std::to_string(*count) + " is out of range");
    }
    *count = -*count;
    const std::size_t size_at = in.offset();
    FLOE_RETURN_IF_ERROR(in.ReadLong(byte_size));
    if (*byte_size < 0 || static_cast<std::uint64_t>(*byte_size) > in.remaining()) {
      return reader_errors::Invalid(size_at, "block size " + std::to_string(*byte_size) + " with " +
                                                 std::to_string(in.remaining()) + " bytes left");
    }
  }
  if (static_cast<std::uint64_t>(*count) > in.remaining()) {
    return reader_errors::Invalid(at, "block of " + std::to_string(*count) + " items with only " +
                                          std::to_string(in.remaining()) + " bytes left");
  }
  return Status::OK();
}

Status CheckBlockSize(const BinaryReader& in, std::size_t block_start, std::int64_t byte_size) {
  if (byte_size < 0 || in.offset() - block_start == static_cast<std::uint64_t>(byte_size)) return Status::OK();
  return reader_errors::Invalid(block_start, "block says it has " + std::to_string(byte_size) + " bytes but its items took " +
                                                 std::to_string(in.offset() - block_start));
}

Status ReadBranch(BinaryReader& in, std::int32_t branch_count, std::int64_t* branch) {
  const std::size_t at = in.offset();
  FLOE_RETURN_IF_ERROR(in.ReadLong(branch));
  if (*branch < 0 || *branch >= branch_count) {
    return reader_errors::Invalid(at, "union branch " + std::to_string(*branch) + " does not exist (the union has " +
                                          std::to_string(branch_count) + ")");
  }
  return Status::OK();
}

Status CheckUtf8(std::string_view v, std::size_t at) {
  if (arrow::util::ValidateUTF8(v)) [[likely]] {
    return Status::OK();
  }
  return reader_errors::Invalid(at, "string is not valid UTF-8");
}

// Avro decimals are big-endian two's-complement unscaled integers: minimal length from
// most writers, but any length is legal, so redundant sign bytes are dropped before the
// value must fit Arrow's width. A value with more digits than the declared precision is
// rejected: a table column of decimal(p, s) must not hold it.
template <typename D, int kWidth>
Status ToDecimal(std::string_view raw, std::int32_t precision, std::size_t at, D* out) {
  auto bytes = reinterpret_cast<const std::uint8_t*>(raw.data());
  std::size_t n = raw.size();
  if (n == 0) return reader_errors::Invalid(at, "decimal value has no bytes");
  while (n > kWidth && ((bytes[0] == 0x00 && (bytes[1] & 0x80) == 0) || (bytes[0] == 0xff && (bytes[1] & 0x80) != 0))) {
    ++bytes;
    --n;
  }
  if (n > kWidth) return reader_errors::Invalid(at, "decimal value does not fit in " + std::to_string(kWidth) + " bytes");
  auto value = D::FromBigEndian(bytes, static_cast<std::int32_t>(n));
  if (!value.ok()) return reader_errors::Invalid(at, "bad decimal value: " + value.status().ToString());
  if (!value->FitsInPrecision(precision)) {
    return reader_errors::Invalid(at, "decimal value " + value->ToIntegerString() + " has more than " +
                                          std::to_string(precision) + " digits");
  }
  *out = *value;
  return Status::OK();
}

}  // namespace

Status DecodePlan::Decode(BinaryReader& in) const { return Run<true>(root_, in); }
Status DecodePlan::Validate(BinaryReader& in) const { return Run<false>(root_, in); }

Status DecodePlan::Annotate(const Step& step, const Status& error) const {
  const std::string& path = paths_[step.path];
  if (path.empty()) return error;
  return error.WithContext("field '" + path + "'");
}

template <bool kAppend>
Status DecodePlan::Run(std::uint32_t index, BinaryReader& in) const {
  const Step& s = steps_[index];
  switch (s.op) {
    case Op::kBoolean: {
      bool v = false;
      FLOE_DECODE_TRY(in.ReadBoolean(&v));
      FLOE_DECODE_APPEND(Cast<arrow::BooleanBuilder>(s)->Append(v));
      return Status::OK();
    }
    case Op::kInt: {
      std::int32_t v = 0;
      FLOE_DECODE_TRY(in.ReadInt(&v));
      FLOE_DECODE_APPEND(Cast<arrow::Int32Builder>(s)->Append(v));
      return Status::OK();
    }
    case Op::kLong: {
      std::int64_t v = 0;
      FLOE_DECODE_TRY(in.ReadLong(&v));
      FLOE_DECODE_APPEND(Cast<arrow::Int64Builder>(s)->Append(v));
      return Status::OK();
    }
    case Op::kFloat: {
      float v = 0;
      FLOE_DECODE_TRY(in.ReadFloat(&v));
      FLOE_DECODE_APPEND(Cast<arrow::FloatBuilder>(s)->Append(v));
      return Status::OK();
    }
    case Op::kDouble: {
      double v = 0;
      FLOE_DECODE_TRY(in.ReadDouble(&v));
      FLOE_DECODE_APPEND(Cast<arrow::DoubleBuilder>(s)->Append(v));
      return Status::OK();
    }
    case Op::kBytes: {
      std::string_view v;
      FLOE_DECODE_TRY(in.ReadBytes(&v));
      FLOE_DECODE_APPEND(Cast<arrow::BinaryBuilder>(s)->Append(v));
      return Status::OK();
    }
    case Op::kString: {
      const std::size_t at = in.offset();
      std::string_view v;
      FLOE_DECODE_TRY(in.ReadString(&v));
      FLOE_DECODE_TRY(CheckUtf8(v, at));
      FLOE_DECODE_APPEND(Cast<arrow::StringBuilder>(s)->Append(v));
      return Status::OK();
    }
    case Op::kFixed: {
      std::string_view v;
      FLOE_DECODE_TRY(in.ReadFixed(static_cast<std::size_t>(s.fixed_size), &v));
      FLOE_DECODE_APPEND(Cast<arrow::FixedSizeBinaryBuilder>(s)->Append(v));
      return Status::OK();
    }
    case Op::kEnum: {
      const std::size_t at = in.offset();
      std::int32_t v = 0;
      FLOE_DECODE_TRY(in.ReadInt(&v));
      if (v < 0 || static_cast<std::size_t>(v) >= s.symbols->size()) [[unlikely]] {
        return Annotate(s, reader_errors::Invalid(at, "enum index " + std::to_string(v) + " does not exist (the enum has " +
                                                          std::to_string(s.symbols->size()) + " symbols)"));
      }
      FLOE_DECODE_APPEND(Cast<arrow::StringBuilder>(s)->Append((*s.symbols)[static_cast<std::size_t>(v)]));
      return Status::OK();
    }
    case Op::kDecimal128:
    case Op::kDecimal256: {
      const std::size_t at = in.offset();
      std::string_view raw;
      if (s.fixed_size > 0) {
        FLOE_DECODE_TRY(in.ReadFixed(static_cast<std::size_t>(s.fixed_size), &raw));
      } else {
        FLOE_DECODE_TRY(in.ReadBytes(&raw));
      }
      if (s.op == Op::kDecimal128) {
        arrow::Decimal128 v;
        FLOE_DECODE_TRY((ToDecimal<arrow::Decimal128, 16>(raw, s.precision, at, &v)));
        FLOE_DECODE_APPEND(Cast<arrow::Decimal128Builder>(s)->Append(v));
      } else {
        arrow::Decimal256 v;
        FLOE_DECODE_TRY((ToDecimal<arrow::Decimal256, 32>(raw, s.precision, at, &v)));
        FLOE_DECODE_APPEND(Cast<arrow::Decimal256Builder>(s)->Append(v));
      }
      return Status::OK();
    }
    case Op::kDate: {
      std::int32_t v = 0;
      FLOE_DECODE_TRY(in.ReadInt(&v));
      FLOE_DECODE_APPEND(Cast<arrow::Date32Builder>(s)->Append(v));
      return Status::OK();
    }
    case Op::kTimeMillis: {
      const std::size_t at = in.offset();
      std::int32_t millis = 0;
      FLOE_DECODE_TRY(in.ReadInt(&millis));
      if (millis < 0 || millis >= kMillisPerDay) [[unlikely]] {
        return Annotate(s, reader_errors::Invalid(at, "time of " + std::to_string(millis) +
                                                          " ms is not within a day [0, 86400000)"));
      }
      FLOE_DECODE_APPEND(Cast<arrow::Time64Builder>(s)->Append(std::int64_t{millis} * 1000));
      return Status::OK();
    }
    case Op::kTimeMicros: {
      const std::size_t at = in.offset();
      std::int64_t v = 0;
      FLOE_DECODE_TRY(in.ReadLong(&v));
      if (v < 0 || v >= kMicrosPerDay) [[unlikely]] {
        return Annotate(s, reader_errors::Invalid(at, "time of " + std::to_string(v) +
                                                          " us is not within a day [0, 86400000000)"));
      }
      FLOE_DECODE_APPEND(Cast<arrow::Time64Builder>(s)->Append(v));
      return Status::OK();
    }
    case Op::kTimestamp: {
      std::int64_t v = 0;
      FLOE_DECODE_TRY(in.ReadLong(&v));
      FLOE_DECODE_APPEND(Cast<arrow::TimestampBuilder>(s)->Append(v));
      return Status::OK();
    }
    case Op::kTimestampMillis: {
      const std::size_t at = in.offset();
      std::int64_t millis = 0;
      FLOE_DECODE_TRY(in.ReadLong(&millis));
      std::int64_t micros = 0;
      if (__builtin_mul_overflow(millis, std::int64_t{1000}, &micros)) [[unlikely]] {
        return Annotate(s, reader_errors::Invalid(at, "timestamp of " + std::to_string(millis) +
                                                          " ms is out of the range of microsecond timestamps"));
      }
      FLOE_DECODE_APPEND(Cast<arrow::TimestampBuilder>(s)->Append(micros));
      return Status::OK();
    }
    case Op::kRecord:
      FLOE_DECODE_APPEND(Cast<arrow::StructBuilder>(s)->Append());
      [[fallthrough]];
    case Op::kColumns:
      for (std::uint32_t i = 0; i < s.child_count; ++i) {
        FLOE_RETURN_IF_ERROR(Run<kAppend>(children_[s.first_child + i], in));
      }
      return Status::OK();
    case Op::kArray:
    case Op::kMap: {
      if (s.op == Op::kArray) {
        FLOE_DECODE_APPEND(Cast<arrow::ListBuilder>(s)->Append());
      } else {
        FLOE_DECODE_APPEND(Cast<arrow::MapBuilder>(s)->Append());
      }
      while (true) {
        std::int64_t count = 0;
        std::int64_t byte_size = -1;
        FLOE_DECODE_TRY(ReadBlockCount(in, &count, &byte_size));
        if (count == 0) return Status::OK();
        const std::size_t block_start = in.offset();
        for (std::int64_t i = 0; i < count; ++i) {
          for (std::uint32_t c = 0; c < s.child_count; ++c) {  // item, or key then value
            FLOE_RETURN_IF_ERROR(Run<kAppend>(children_[s.first_child + c], in));
          }
        }
        FLOE_DECODE_TRY(CheckBlockSize(in, block_start, byte_size));
      }
    }
    case Op::kOptional: {
      std::int64_t branch = 0;
      FLOE_DECODE_TRY(ReadBranch(in, s.branch_count, &branch));
      if (branch == s.null_branch) {
        FLOE_DECODE_APPEND(s.builder->AppendNull());
        return Status::OK();
      }
      return Run<kAppend>(children_[s.first_child], in);
    }
    case Op::kUnionStruct: {
      std::int64_t branch = 0;
      FLOE_DECODE_TRY(ReadBranch(in, s.branch_count, &branch));
      if (branch == s.null_branch) {
        FLOE_DECODE_APPEND(s.builder->AppendNull());  // also appends to every member
        return Status::OK();
      }
      const auto member = static_cast<std::uint32_t>(branch - (s.null_branch >= 0 && branch > s.null_branch ? 1 : 0));
      FLOE_DECODE_APPEND(Cast<arrow::StructBuilder>(s)->Append());
      for (std::uint32_t m = 0; m < s.child_count; ++m) {
        const std::uint32_t child = children_[s.first_child + m];
        if (m == member) {
          FLOE_RETURN_IF_ERROR(Run<kAppend>(child, in));
        } else {
          FLOE_DECODE_APPEND(steps_[child].builder->AppendNull());
        }
      }
      return Status::OK();
    }
  }
  return Status::Internal("corrupt decode plan");
}

#undef FLOE_DECODE_TRY
#undef FLOE_DECODE_APPEND

}  // namespace floe::avro
