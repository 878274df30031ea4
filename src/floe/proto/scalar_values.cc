#include <google/protobuf/descriptor.h>

#include "floe/proto/scalar_values_internal.h"

namespace floe::proto::internal {

namespace {

constexpr std::int64_t kMicrosPerSecond = 1'000'000;
constexpr std::int32_t kNanosPerSecond = 1'000'000'000;

// Days from 1970-01-01 to a proleptic Gregorian date (Howard Hinnant's days_from_civil).
std::int64_t DaysFromCivil(std::int64_t y, std::int64_t m, std::int64_t d) {
  y -= m <= 2 ? 1 : 0;
  const std::int64_t era = (y >= 0 ? y : y - 399) / 400;
  const std::int64_t yoe = y - era * 400;
  const std::int64_t doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1;
  const std::int64_t doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
  return era * 146097 + doe - 719468;
}

int DaysInMonth(std::int64_t y, std::int64_t m) {
  static constexpr int kDays[] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
  const bool leap = (y % 4 == 0 && y % 100 != 0) || y % 400 == 0;
  return m == 2 && leap ? 29 : kDays[m - 1];
}

// seconds + nanos -> micros; nanos truncate toward zero, like Duration's sign rule.
Result<std::int64_t> Micros(std::int64_t seconds, std::int32_t nanos, const char* what) {
  std::int64_t micros = 0;
  if (__builtin_mul_overflow(seconds, kMicrosPerSecond, &micros) ||
      __builtin_add_overflow(micros, static_cast<std::int64_t>(nanos / 1000), &micros)) {
    return Status::InvalidArgument(std::string(what) + " of " + std::to_string(seconds) +
                                   " s is out of the range of microseconds in 64 bits");
  }
  return micros;
}

Result<arrow::Decimal128> Decimal(const Field& field, std::string_view bytes, std::int32_t value_scale) {
  arrow::Decimal128 value;
  if (!bytes.empty()) {
    if (bytes.size() > 16) {
      return Status::InvalidArgument("Decimal value of " + std::to_string(bytes.size()) +
                                     " bytes does not fit 38 digits (at most 16 bytes)");
    }
    auto parsed = arrow::Decimal128::FromBigEndian(reinterpret_cast<const std::uint8_t*>(bytes.data()),
                                                   static_cast<std::int32_t>(bytes.size()));
    if (!parsed.ok()) return Status::InvalidArgument("Decimal value: " + parsed.status().ToString());
    value = *parsed;
  }
  const std::int64_t delta = static_cast<std::int64_t>(field.scale) - value_scale;
  // The value's own scale comes off the wire: shown as unscaled digits and scale, never formatted.
  auto Text = [&] { return value.ToIntegerString() + "e-" + std::to_string(value_scale); };
  auto too_wide = [&] {
    return Status::InvalidArgument("Decimal " + Text() + " does not fit decimal(" +
                                   std::to_string(field.precision) + ", " + std::to_string(field.scale) + ")");
  };
  if (delta > 0) {
    // Scaling up cannot lose digits, but it can overflow: check the room first.
    if (delta >= field.precision) {
      if (value != 0) return too_wide();
      return value;
    }
    if (!value.FitsInPrecision(field.precision - static_cast<std::int32_t>(delta))) return too_wide();
    auto rescaled = value.Rescale(value_scale, field.scale);
    if (!rescaled.ok()) return too_wide();
    return *rescaled;
  }
  if (delta < 0) {
    if (delta < -38) {  // dividing by more than 10^38 leaves nothing of a non-zero value
      if (value != 0) return too_wide();
      return value;
    }
    auto rescaled = value.Rescale(value_scale, field.scale);
    if (!rescaled.ok()) {
      return Status::InvalidArgument("Decimal " + Text() + " has more than " +
                                     std::to_string(field.scale) + " fraction digits (the column's scale)");
    }
    value = *rescaled;
  }
  if (!value.FitsInPrecision(field.precision)) return too_wide();
  return value;
}

}  // namespace

std::uint8_t WireOf(Kind k) {
  switch (k) {
    case Kind::kSFixed32: case Kind::kFixed32: case Kind::kFloat: return kFixed32;
    case Kind::kSFixed64: case Kind::kFixed64: case Kind::kDouble: return kFixed64;
    case Kind::kString: case Kind::kBytes: return kLengthDelimited;
    default: return IsMessageLike(k) ? kLengthDelimited : kVarint;
  }
}

std::uint64_t NormalizedKey(Kind kind, std::uint64_t bits) {
  switch (kind) {
    case Kind::kInt32: case Kind::kSInt32: case Kind::kSFixed32:
      return static_cast<std::uint64_t>(static_cast<std::int64_t>(AsInt32(kind, bits)));
    case Kind::kBool: return bits != 0 ? 1 : 0;
    case Kind::kString: return 0;
    case Kind::kUInt64: case Kind::kFixed64: return bits;
    default: return static_cast<std::uint64_t>(AsInt64(kind, bits));
  }
}

const std::string* EnumName(const EnumNames& names, std::int32_t number) {
  if (!names.dense.empty()) {
    const std::int64_t i = static_cast<std::int64_t>(number) - names.min;
    return i >= 0 && i < static_cast<std::int64_t>(names.dense.size()) ? names.dense[static_cast<std::size_t>(i)] : nullptr;
  }
  const auto* value = names.type->FindValueByNumber(number);
  return value != nullptr ? &value->name() : nullptr;
}

std::array<std::uint8_t, 4> WellknownWires(const Field& field) {
  constexpr std::uint8_t kNone = 0xff;
  switch (field.kind) {
    case Kind::kTimestamp: case Kind::kDuration: return {kNone, kVarint, kVarint, kNone};
    case Kind::kDate: return {kNone, kVarint, kVarint, kVarint};
    case Kind::kDecimal: return {kNone, kLengthDelimited, kVarint, kVarint};
    default: return {kNone, WireOf(field.wrapped), kNone, kNone};
  }
}

Result<WellknownValue> ConvertWellknown(const Field& field, const std::array<Occurrence, 4>& got,
                                        const std::array<bool, 4>& has) {
  WellknownValue out;
  switch (field.kind) {
    case Kind::kTimestamp: {
      const auto seconds = static_cast<std::int64_t>(has[1] ? got[1].bits : 0);
      const auto nanos = static_cast<std::int32_t>(has[2] ? got[2].bits : 0);
      if (nanos < 0 || nanos >= kNanosPerSecond) {
        return Status::InvalidArgument("Timestamp nanos " + std::to_string(nanos) + " is not in [0, 999999999]");
      }
      FLOE_ASSIGN_OR_RETURN(out.integer, Micros(seconds, nanos, "Timestamp"));
      return out;
    }
    case Kind::kDuration: {
      const auto seconds = static_cast<std::int64_t>(has[1] ? got[1].bits : 0);
      const auto nanos = static_cast<std::int32_t>(has[2] ? got[2].bits : 0);
      if (nanos <= -kNanosPerSecond || nanos >= kNanosPerSecond || (seconds > 0 && nanos < 0) ||
          (seconds < 0 && nanos > 0)) {
        return Status::InvalidArgument("Duration nanos " + std::to_string(nanos) +
                                       " is not within a second or has another sign than its seconds " +
                                       std::to_string(seconds));
      }
      FLOE_ASSIGN_OR_RETURN(out.integer, Micros(seconds, nanos, "Duration"));
      return out;
    }
    case Kind::kDate: {
      const std::int64_t y = static_cast<std::int32_t>(has[1] ? got[1].bits : 0);
      const std::int64_t m = static_cast<std::int32_t>(has[2] ? got[2].bits : 0);
      const std::int64_t d = static_cast<std::int32_t>(has[3] ? got[3].bits : 0);
      // google.type.Date allows 0 for "no year/month/day"; a date column needs all three.
      if (y < 1 || y > 9999 || m < 1 || m > 12 || d < 1 || d > DaysInMonth(y, m)) {
        return Status::InvalidArgument("Date " + std::to_string(y) + "-" + std::to_string(m) + "-" +
                                       std::to_string(d) + " is not a full calendar date in years 1..9999");
      }
      out.integer = DaysFromCivil(y, m, d);
      return out;
    }
    case Kind::kDecimal: {
      const std::string_view bytes = has[1] ? std::string_view(got[1].data, got[1].size) : std::string_view();
      const auto scale = static_cast<std::int32_t>(has[3] ? got[3].bits : 0);
      FLOE_ASSIGN_OR_RETURN(out.decimal, Decimal(field, bytes, scale));
      return out;
    }
    default: return Status::Internal("not a well-known type");
  }
}

}  // namespace floe::proto::internal
