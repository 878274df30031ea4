// Transform names and result types (spec: "Partition Transforms").
#include <cctype>
#include <optional>
#include <string>
#include <vector>

#include "floe/core/edit_distance.h"
#include "floe/schema/partition.h"
#include "floe/schema/type_names_internal.h"

namespace floe::schema {
namespace {

struct NamedTransform {
  const char* name;
  TransformKind kind;
  bool has_param;
};

constexpr NamedTransform kTransforms[] = {
    {"identity", TransformKind::kIdentity, false}, {"bucket", TransformKind::kBucket, true},
    {"truncate", TransformKind::kTruncate, true},  {"year", TransformKind::kYear, false},
    {"month", TransformKind::kMonth, false},       {"day", TransformKind::kDay, false},
    {"hour", TransformKind::kHour, false},         {"void", TransformKind::kVoid, false},
};

const char* NameOf(TransformKind kind) {
  for (const auto& t : kTransforms) {
    if (t.kind == kind) return t.name;
  }
  return "?";
}

bool IsTimestamp(TypeId id) {
  return id == TypeId::kTimestamp || id == TypeId::kTimestampTz || id == TypeId::kTimestampNs ||
         id == TypeId::kTimestampTzNs;
}

// A copy of a type as a TypePtr (Type has no shared_from_this; types are immutable, so a
// shallow copy of a nested type shares its children safely).
TypePtr Copy(const Type& t) {
  switch (t.id()) {
    case TypeId::kDecimal: return Type::Decimal(t.precision(), t.scale());
    case TypeId::kFixed: return Type::Fixed(t.length());
    case TypeId::kStruct: return Type::Struct(t.fields());
    case TypeId::kList: return Type::List(t.element());
    case TypeId::kMap: return Type::Map(t.key(), t.value());
    default: return Type::Primitive(t.id());
  }
}

Status NotApplicable(const Transform& t, const Type& source, const char* applies_to) {
  return Status::InvalidArgument("transform " + t.ToString() + " cannot be applied to type " + source.ToString() +
                                 " (it applies to " + applies_to + ")");
}

}  // namespace

Result<Transform> Transform::Parse(std::string_view text) {
  std::string lower(text);
  for (char& c : lower) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  std::string name = lower;
  std::optional<std::string> param;
  if (auto open = lower.find('['); open != std::string::npos) {
    if (lower.back() != ']') {
      return Status::InvalidArgument("invalid transform '" + std::string(text) + "': expected name[number]");
    }
    name = lower.substr(0, open);
    param = lower.substr(open + 1, lower.size() - open - 2);
  }
  for (const auto& t : kTransforms) {
    if (name != t.name) continue;
    Transform out;
    out.kind = t.kind;
    if (!t.has_param) {
      if (param) {
        return Status::InvalidArgument("invalid transform '" + std::string(text) + "': " + t.name +
                                       " takes no parameter");
      }
      return out;
    }
    const char* what = t.kind == TransformKind::kBucket ? "a number of buckets" : "a width";
    if (!param) {
      return Status::InvalidArgument("invalid transform '" + std::string(text) + "': " + t.name + " needs " + what +
                                     ", as in " + t.name + "[16]");
    }
    // Digits only, as Java's parser requires; 9 digits keep the value inside int.
    bool digits = !param->empty() && param->size() <= 9;
    for (char c : *param) digits = digits && std::isdigit(static_cast<unsigned char>(c));
    if (!digits) {
      return Status::InvalidArgument("invalid transform '" + std::string(text) + "': " + what +
                                     " must be a positive integer");
    }
    for (char c : *param) out.param = out.param * 10 + (c - '0');
    if (out.param < 1) {
      return Status::InvalidArgument("invalid transform '" + std::string(text) + "': " + what + " must be at least 1");
    }
    return out;
  }
  // Well-formed but unknown: possibly a transform of a newer spec version that Floe does
  // not implement, so Unsupported rather than invalid.
  std::vector<std::string> names;
  for (const auto& t : kTransforms) names.emplace_back(t.name);
  std::string message = "unknown transform '" + std::string(text) + "'";
  if (auto near = ClosestMatch(name, names)) message += " (did you mean '" + *near + "'?)";
  message += "; known transforms: identity, bucket[N], truncate[W], year, month, day, hour, void";
  return Status::Unsupported(message);
}

std::string Transform::ToString() const {
  if (kind == TransformKind::kBucket || kind == TransformKind::kTruncate) {
    return std::string(NameOf(kind)) + "[" + std::to_string(param) + "]";
  }
  return NameOf(kind);
}

Result<TypePtr> Transform::ResultType(const Type& source) const {
  const TypeId id = source.id();
  switch (kind) {
    case TransformKind::kIdentity:
      // Identity needs values that can be compared and written in a partition tuple.
      if (!source.is_primitive() || id == TypeId::kUnknown || id == TypeId::kVariant) {
        return NotApplicable(*this, source, "primitive types");
      }
      return Copy(source);
    case TransformKind::kBucket:
      if (param < 1) return Status::InvalidArgument("transform " + ToString() + ": needs at least 1 bucket");
      if (id == TypeId::kInt || id == TypeId::kLong || id == TypeId::kDecimal || id == TypeId::kDate ||
          id == TypeId::kTime || IsTimestamp(id) || id == TypeId::kString || id == TypeId::kUuid ||
          id == TypeId::kFixed || id == TypeId::kBinary) {
        return Type::Primitive(TypeId::kInt);
      }
      return NotApplicable(*this, source, "int, long, decimal, date, time, timestamps, string, uuid, fixed and binary");
    case TransformKind::kTruncate:
      if (param < 1) return Status::InvalidArgument("transform " + ToString() + ": needs a width of at least 1");
      if (id == TypeId::kInt || id == TypeId::kLong || id == TypeId::kDecimal || id == TypeId::kString ||
          id == TypeId::kBinary) {
        return Copy(source);
      }
      return NotApplicable(*this, source, "int, long, decimal, string and binary");
    case TransformKind::kYear:
    case TransformKind::kMonth:
    case TransformKind::kDay:
      if (id != TypeId::kDate && !IsTimestamp(id)) {
        return NotApplicable(*this, source, "date, timestamp, timestamptz, timestamp_ns and timestamptz_ns");
      }
      // The value is days from 1970-01-01 either way; Java and pyiceberg type it as date.
      return Type::Primitive(kind == TransformKind::kDay ? TypeId::kDate : TypeId::kInt);
    case TransformKind::kHour:
      if (!IsTimestamp(id)) {
        return NotApplicable(*this, source, "timestamp, timestamptz, timestamp_ns and timestamptz_ns");
      }
      return Type::Primitive(TypeId::kInt);
    case TransformKind::kVoid:
      // Always null, so any source works; the spec keeps the source type.
      return Copy(source);
  }
  return Status::Internal("unhandled transform kind");
}

}  // namespace floe::schema
