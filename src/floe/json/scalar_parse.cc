#include <charconv>
#include <cmath>

#include "floe/core/arrow_interop.h"
#include "floe/json/scalar_parse_internal.h"

namespace floe::json::internal {
namespace {

constexpr std::int64_t kMicrosPerSecond = 1'000'000;
constexpr std::int64_t kMicrosPerDay = 86'400 * kMicrosPerSecond;
// Digits a double always carries through a round trip from text (DBL_DIG).
constexpr int kExactDoubleDigits = 15;

// Reads exactly n ASCII digits at pos.
std::optional<int> Digits(std::string_view s, std::size_t pos, std::size_t n) {
  if (pos + n > s.size()) return std::nullopt;
  int v = 0;
  for (std::size_t i = pos; i < pos + n; ++i) {
    if (s[i] < '0' || s[i] > '9') return std::nullopt;
    v = v * 10 + (s[i] - '0');
  }
  return v;
}

bool IsLeap(int y) { return (y % 4 == 0 && y % 100 != 0) || y % 400 == 0; }

int DaysInMonth(int y, int m) {
  static constexpr int kDays[] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
  return m == 2 && IsLeap(y) ? 29 : kDays[m - 1];
}

// Days since 1970-01-01 of a proleptic Gregorian date (Howard Hinnant's days_from_civil).
std::int64_t DaysFromCivil(int y, int m, int d) {
  y -= m <= 2;
  const int era = (y >= 0 ? y : y - 399) / 400;
  const int yoe = y - era * 400;
  const int doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1;
  const int doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
  return static_cast<std::int64_t>(era) * 146097 + doe - 719468;
}

std::optional<std::int64_t> DateAt(std::string_view s, std::size_t pos) {
  auto y = Digits(s, pos, 4);
  auto m = Digits(s, pos + 5, 2);
  auto d = Digits(s, pos + 8, 2);
  if (!y || !m || !d || s[pos + 4] != '-' || s[pos + 7] != '-') return std::nullopt;
  if (*m < 1 || *m > 12 || *d < 1 || *d > DaysInMonth(*y, *m)) return std::nullopt;
  return DaysFromCivil(*y, *m, *d);
}

// hh:mm:ss[.fraction] at pos: microseconds of the day; pos moves past it.
std::optional<std::int64_t> TimeAt(std::string_view s, std::size_t& pos) {
  auto h = Digits(s, pos, 2);
  auto mi = Digits(s, pos + 3, 2);
  auto se = Digits(s, pos + 6, 2);
  if (!h || !mi || !se || s[pos + 2] != ':' || s[pos + 5] != ':') return std::nullopt;
  if (*h > 23 || *mi > 59 || *se > 59) return std::nullopt;
  std::int64_t micros = ((*h * 60LL + *mi) * 60 + *se) * kMicrosPerSecond;
  pos += 8;
  if (pos < s.size() && s[pos] == '.') {
    ++pos;
    const std::size_t start = pos;
    std::int64_t scale = 100'000;
    for (; pos < s.size() && s[pos] >= '0' && s[pos] <= '9'; ++pos) {
      micros += (s[pos] - '0') * scale;
      scale /= 10;  // reaches 0 past the sixth digit: finer digits are dropped
    }
    if (pos == start) return std::nullopt;
  }
  return micros;
}

// Z or ±hh:mm at pos, which must end the text: the offset in microseconds.
std::optional<std::int64_t> OffsetAt(std::string_view s, std::size_t pos) {
  if (pos + 1 == s.size() && (s[pos] == 'Z' || s[pos] == 'z')) return 0;
  if (pos + 6 != s.size() || (s[pos] != '+' && s[pos] != '-') || s[pos + 3] != ':') return std::nullopt;
  auto h = Digits(s, pos + 1, 2);
  auto m = Digits(s, pos + 4, 2);
  if (!h || !m || *h > 23 || *m > 59) return std::nullopt;
  const std::int64_t offset = (*h * 60LL + *m) * 60 * kMicrosPerSecond;
  return s[pos] == '-' ? -offset : offset;
}

int Base64Value(char c) {
  if (c >= 'A' && c <= 'Z') return c - 'A';
  if (c >= 'a' && c <= 'z') return c - 'a' + 26;
  if (c >= '0' && c <= '9') return c - '0' + 52;
  if (c == '+') return 62;
  if (c == '/') return 63;
  return -1;
}

}  // namespace

std::optional<std::int64_t> ParseDateTimeMicros(std::string_view text) {
  if (text.size() < 20) return std::nullopt;
  auto days = DateAt(text, 0);
  if (!days || (text[10] != 'T' && text[10] != 't' && text[10] != ' ')) return std::nullopt;
  std::size_t pos = 11;
  auto time = TimeAt(text, pos);
  if (!time) return std::nullopt;
  auto offset = OffsetAt(text, pos);
  if (!offset) return std::nullopt;
  return *days * kMicrosPerDay + *time - *offset;
}

std::optional<std::int32_t> ParseDateDays(std::string_view text) {
  if (text.size() != 10) return std::nullopt;
  auto days = DateAt(text, 0);
  if (!days) return std::nullopt;
  return static_cast<std::int32_t>(*days);  // years 0000-9999 are well inside int32 days
}

std::optional<std::int64_t> ParseTimeMicros(std::string_view text) {
  std::size_t pos = 0;
  auto time = TimeAt(text, pos);
  if (!time) return std::nullopt;
  if (pos == text.size()) return time;
  auto offset = OffsetAt(text, pos);
  if (!offset) return std::nullopt;
  return ((*time - *offset) % kMicrosPerDay + kMicrosPerDay) % kMicrosPerDay;
}

std::optional<std::string> DecodeBase64(std::string_view text) {
  std::size_t pad = 0;
  while (pad < 2 && text.size() > pad && text[text.size() - 1 - pad] == '=') ++pad;
  if (pad > 0) {
    if (text.size() % 4 != 0) return std::nullopt;
    text.remove_suffix(pad);
    if (text.size() % 4 != 4 - pad) return std::nullopt;
  }
  if (text.size() % 4 == 1) return std::nullopt;
  std::string out;
  out.reserve(text.size() / 4 * 3 + 2);
  std::uint32_t acc = 0;
  int bits = 0;
  for (char c : text) {
    const int v = Base64Value(c);
    if (v < 0) return std::nullopt;
    acc = (acc << 6) | static_cast<std::uint32_t>(v);
    bits += 6;
    if (bits >= 8) {
      bits -= 8;
      out += static_cast<char>((acc >> bits) & 0xFF);
    }
  }
  if (bits > 0 && (acc & ((1u << bits) - 1)) != 0) return std::nullopt;  // non-canonical tail
  return out;
}

Result<arrow::Decimal128> DecimalFromDouble(double value, int precision, int scale) {
  if (!std::isfinite(value)) return Status::InvalidArgument("a decimal must be finite");
  char buf[64];
  auto [end, ec] = std::to_chars(buf, buf + sizeof buf, value, std::chars_format::scientific);
  if (ec != std::errc()) return Status::Internal("cannot print a double");
  const std::string_view text(buf, static_cast<std::size_t>(end - buf));
  char shortest_buf[64];  // for messages: the number as a producer would write it
  const std::string shortest(shortest_buf, static_cast<std::size_t>(
                                               std::to_chars(shortest_buf, shortest_buf + sizeof shortest_buf, value).ptr -
                                               shortest_buf));
  // Scientific shortest form: d[.ddd]e±x: its digits are the significant ones.
  const std::size_t e = text.find('e');
  int significant = 0;
  for (std::size_t i = 0; i < e; ++i) significant += text[i] >= '0' && text[i] <= '9';
  if (significant > kExactDoubleDigits) {
    return Status::InvalidArgument("the number " + shortest + " has more than " +
                                   std::to_string(kExactDoubleDigits) +
                                   " significant digits, more than a JSON number is read exactly (send the decimal "
                                   "as bytes)");
  }
  arrow::Decimal128 out;
  std::int32_t parsed_precision = 0;
  std::int32_t parsed_scale = 0;
  if (!arrow::Decimal128::FromString(text, &out, &parsed_precision, &parsed_scale).ok() ||
      parsed_precision - parsed_scale > precision - scale) {
    // Too many integer digits. Checked before rescaling: Arrow's Rescale assumes the result
    // fits (a scale change over 38 digits would read past its table of powers of ten).
    return Status::InvalidArgument("the number " + shortest + " does not fit decimal(" + std::to_string(precision) +
                                   "," + std::to_string(scale) + ")");
  }
  if (parsed_scale > scale) {
    return Status::InvalidArgument("the number " + shortest + " has more than " + std::to_string(scale) +
                                   " fraction digits");
  }
  FLOE_ASSIGN_OR_RETURN_ARROW(out, out.Rescale(parsed_scale, scale));
  if (!out.FitsInPrecision(precision)) {
    return Status::InvalidArgument("the number " + shortest + " does not fit decimal(" +
                                   std::to_string(precision) + "," + std::to_string(scale) + ")");
  }
  return out;
}

Result<arrow::Decimal128> DecimalFromBytes(std::string_view bytes, int precision) {
  if (bytes.empty() || bytes.size() > 16) {
    return Status::InvalidArgument("a decimal's unscaled bytes must be 1 to 16 bytes long, not " +
                                   std::to_string(bytes.size()));
  }
  FLOE_ASSIGN_OR_RETURN_ARROW(auto out, arrow::Decimal128::FromBigEndian(
                                            reinterpret_cast<const std::uint8_t*>(bytes.data()),
                                            static_cast<std::int32_t>(bytes.size())));
  if (!out.FitsInPrecision(precision)) {
    return Status::InvalidArgument("the unscaled value " + out.ToIntegerString() + " has more than " +
                                   std::to_string(precision) + " digits");
  }
  return out;
}

}  // namespace floe::json::internal
