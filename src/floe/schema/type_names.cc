#include "floe/schema/type_names_internal.h"

#include <cctype>
#include <optional>
#include <vector>

#include "floe/core/ascii.h"
#include "floe/core/edit_distance.h"

namespace floe::schema {
namespace {

struct NamedPrimitive {
  const char* name;
  TypeId id;
};

// The parameterless types, spelled as in the spec (and as written back).
constexpr NamedPrimitive kPrimitives[] = {
    {"boolean", TypeId::kBoolean},         {"int", TypeId::kInt},
    {"long", TypeId::kLong},               {"float", TypeId::kFloat},
    {"double", TypeId::kDouble},           {"date", TypeId::kDate},
    {"time", TypeId::kTime},               {"timestamp", TypeId::kTimestamp},
    {"timestamptz", TypeId::kTimestampTz}, {"timestamp_ns", TypeId::kTimestampNs},
    {"timestamptz_ns", TypeId::kTimestampTzNs}, {"string", TypeId::kString},
    {"uuid", TypeId::kUuid},               {"binary", TypeId::kBinary},
    {"unknown", TypeId::kUnknown},         {"variant", TypeId::kVariant},
};

// A tiny cursor for "decimal(P,S)" / "fixed[L]": the grammar is too small for a regex.
struct Cursor {
  std::string_view s;
  std::size_t pos = 0;
  void SkipSpaces() {
    while (pos < s.size() && std::isspace(static_cast<unsigned char>(s[pos]))) ++pos;
  }
  bool Eat(char c) {
    SkipSpaces();
    if (pos < s.size() && s[pos] == c) {
      ++pos;
      return true;
    }
    return false;
  }
  // A non-negative decimal number; nullopt when there is none or it has over 9 digits
  // (every limit here is far below that, and it keeps the value inside int).
  std::optional<int> Number() {
    SkipSpaces();
    std::size_t start = pos;
    int value = 0;
    while (pos < s.size() && std::isdigit(static_cast<unsigned char>(s[pos]))) {
      if (pos - start >= 9) return std::nullopt;
      value = value * 10 + (s[pos] - '0');
      ++pos;
    }
    if (pos == start) return std::nullopt;
    return value;
  }
  bool AtEnd() const { return pos == s.size(); }
};

Result<TypePtr> ParseDecimal(std::string_view original, std::string_view lower) {
  Cursor c{lower, 7};  // after "decimal"
  std::optional<int> precision, scale;
  bool ok = c.Eat('(') && (precision = c.Number()) && c.Eat(',') && (scale = c.Number()) && c.Eat(')') && c.AtEnd();
  if (!ok) {
    return Status::InvalidArgument("invalid type '" + std::string(original) + "': expected decimal(P,S)");
  }
  if (*precision < 1 || *precision > kMaxDecimalPrecision) {
    return Status::InvalidArgument("invalid type '" + std::string(original) + "': decimal precision " +
                                   std::to_string(*precision) + " is outside 1.." +
                                   std::to_string(kMaxDecimalPrecision));
  }
  // Parquet (and every engine) requires 0 <= scale <= precision.
  if (*scale > *precision) {
    return Status::InvalidArgument("invalid type '" + std::string(original) + "': decimal scale " +
                                   std::to_string(*scale) + " is greater than its precision " +
                                   std::to_string(*precision));
  }
  return Type::Decimal(*precision, *scale);
}

Result<TypePtr> ParseFixed(std::string_view original, std::string_view lower) {
  Cursor c{lower, 5};  // after "fixed"
  std::optional<int> length;
  bool ok = c.Eat('[') && (length = c.Number()) && c.Eat(']') && c.AtEnd();
  if (!ok) return Status::InvalidArgument("invalid type '" + std::string(original) + "': expected fixed[L]");
  if (*length < 1) {
    return Status::InvalidArgument("invalid type '" + std::string(original) +
                                   "': a fixed type needs a length of at least 1");
  }
  return Type::Fixed(*length);
}

}  // namespace

std::string PrimitiveTypeString(const Type& type) {
  switch (type.id()) {
    case TypeId::kDecimal:
      return "decimal(" + std::to_string(type.precision()) + "," + std::to_string(type.scale()) + ")";
    case TypeId::kFixed: return "fixed[" + std::to_string(type.length()) + "]";
    case TypeId::kStruct: return "struct";
    case TypeId::kList: return "list";
    case TypeId::kMap: return "map";
    default:
      for (const auto& p : kPrimitives) {
        if (p.id == type.id()) return p.name;
      }
  }
  return "?";
}

Result<TypePtr> ParsePrimitiveTypeString(std::string_view text) {
  const std::string lower = AsciiLower(text);
  for (const auto& p : kPrimitives) {
    if (lower == p.name) return Type::Primitive(p.id);
  }
  if (lower.starts_with("decimal")) return ParseDecimal(text, lower);
  if (lower.starts_with("fixed")) return ParseFixed(text, lower);
  if (lower.starts_with("geometry") || lower.starts_with("geography")) {
    return Status::Unsupported("type '" + std::string(text) + "' (Iceberg v3 geospatial) is not supported by Floe");
  }
  std::vector<std::string> names;
  for (const auto& p : kPrimitives) names.emplace_back(p.name);
  names.emplace_back("decimal(P,S)");
  names.emplace_back("fixed[L]");
  std::string message = "unknown type '" + std::string(text) + "'";
  if (auto near = ClosestMatch(lower, names)) message += " (did you mean '" + *near + "'?)";
  return Status::InvalidArgument(message);
}

}  // namespace floe::schema
