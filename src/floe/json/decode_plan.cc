#include <arrow/array/builder_binary.h>
#include <arrow/array/builder_decimal.h>
#include <arrow/array/builder_nested.h>
#include <arrow/array/builder_primitive.h>
#include <arrow/type.h>

#include <cfloat>
#include <cmath>
#include <cstring>
#include <limits>

#include "floe/core/arrow_interop.h"
#include "floe/json/decode_plan_internal.h"
#include "floe/json/scalar_parse_internal.h"

namespace floe::json::internal {
namespace {

using simdjson::dom::element;
using simdjson::dom::element_type;

constexpr std::int64_t kMillisPerDay = 86'400'000;
constexpr int kMaxOpenDepth = 1024;  // simdjson's own nesting limit

bool IsIdentifier(std::string_view s) {
  if (s.empty() || (s[0] >= '0' && s[0] <= '9')) return false;
  for (char c : s) {
    if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_')) return false;
  }
  return true;
}

std::string ExpectedName(const PlanNode& n) {
  switch (n.kind) {
    case Kind::kNull: return "null (no type is known for it yet)";
    case Kind::kBoolean: return "boolean";
    case Kind::kInteger: return "integer";
    case Kind::kFloat32:
    case Kind::kFloat64: return "number";
    case Kind::kString: return "string";
    case Kind::kJsonText: return "any JSON";
    case Kind::kBytes: return "string (base64 bytes)";
    case Kind::kDecimal: return "number (decimal)";
    case Kind::kDecimalBytes: return "string (base64 decimal bytes)";
    case Kind::kTimestamp: return "string (RFC 3339 date-time)";
    case Kind::kTimestampMillis: return "integer (epoch milliseconds)";
    case Kind::kDate: return "string (RFC 3339 date)";
    case Kind::kDateDays: return "integer (epoch days)";
    case Kind::kTime: return "string (RFC 3339 time)";
    case Kind::kTimeMillis: return "integer (milliseconds of the day)";
    case Kind::kObject: return "object";
    case Kind::kArray: return "array";
    case Kind::kMap: return "object (map)";
  }
  return "?";
}

Status Refuse(const Path& path, const std::string& rule) { return Status::InvalidArgument(Render(path) + ": " + rule); }

Status Mismatch(const Path& path, const PlanNode& n, element v) {
  return Refuse(path, "expected " + ExpectedName(n) + ", found " + FoundName(v));
}

template <typename B, typename V>
Status Put(const PlanNode& n, V value) {
  return FromArrow(static_cast<B*>(n.builder)->Append(value));
}

// An integer within [lo, hi]: from a JSON integer only (1.0 is a number with a fraction
// part as JSON writes it, and integer columns do not guess).
Result<std::int64_t> Integer(const PlanNode& n, element v, const Path& path, std::int64_t lo, std::int64_t hi,
                             const char* range) {
  if (v.type() == element_type::INT64) {
    const std::int64_t x = v.get_int64().value_unsafe();
    if (x < lo || x > hi) return Refuse(path, std::to_string(x) + " is out of range for " + range);
    return x;
  }
  if (v.type() == element_type::UINT64) {
    return Refuse(path, std::to_string(v.get_uint64().value_unsafe()) + " is out of range for " + range);
  }
  if (v.type() == element_type::DOUBLE) {
    return Refuse(path, "expected " + ExpectedName(n) + ", found number " + simdjson::minify(v) +
                            " (integers are written without a fraction or exponent)");
  }
  return Mismatch(path, n, v);
}

std::optional<double> Number(element v) {
  switch (v.type()) {
    case element_type::INT64: return static_cast<double>(v.get_int64().value_unsafe());
    case element_type::UINT64: return static_cast<double>(v.get_uint64().value_unsafe());
    case element_type::DOUBLE: return v.get_double().value_unsafe();
    default: return std::nullopt;
  }
}

Result<std::string_view> String(const PlanNode& n, element v, const Path& path) {
  if (v.type() != element_type::STRING) return Mismatch(path, n, v);
  return v.get_string().value_unsafe();
}

std::string Quoted(std::string_view s) {
  constexpr std::size_t kMax = 64;  // messages quote the value, not a whole payload
  return "'" + std::string(s.substr(0, kMax)) + (s.size() > kMax ? "...'" : "'");
}

Result<arrow::Decimal128> Decimal(const PlanNode& n, element v, const Path& path) {
  arrow::Decimal128 integer;
  switch (v.type()) {
    case element_type::INT64: integer = arrow::Decimal128(v.get_int64().value_unsafe()); break;
    case element_type::UINT64: integer = arrow::Decimal128(0, v.get_uint64().value_unsafe()); break;
    case element_type::DOUBLE: {
      auto d = DecimalFromDouble(v.get_double().value_unsafe(), n.precision, n.scale);
      if (!d.ok()) return Refuse(path, d.status().message());
      return d;
    }
    default: return Mismatch(path, n, v);
  }
  // Integers are exact. Their digits are checked before scaling, so that scaling cannot
  // overflow 128 bits (Rescale does not check an increase of scale).
  const int integer_digits = n.precision - n.scale;
  const bool fits = integer_digits == 0 ? integer == arrow::Decimal128(0) : integer.FitsInPrecision(integer_digits);
  auto scaled = integer.Rescale(0, n.scale);
  if (!fits || !scaled.ok()) {
    return Refuse(path, simdjson::minify(v) + " does not fit decimal(" + std::to_string(n.precision) + "," +
                            std::to_string(n.scale) + ")");
  }
  return *scaled;
}

template <bool kAppend>
Status RunScalar(const PlanNode& n, element v, const Path& path) {
  switch (n.kind) {
    // An open type: a value that needs no column (`{}`, `[null]`) fits, as in inference.h.
    case Kind::kNull:
      if (NeedsColumn(v, 0, kMaxOpenDepth)) return Mismatch(path, n, v);
      return Status::OK();
    case Kind::kBoolean:
      if (v.type() != element_type::BOOL) return Mismatch(path, n, v);
      if constexpr (kAppend) return Put<arrow::BooleanBuilder>(n, v.get_bool().value_unsafe());
      return Status::OK();
    case Kind::kInteger: {
      const std::int64_t lo = n.bits >= 64 ? std::numeric_limits<std::int64_t>::min() : -(std::int64_t{1} << (n.bits - 1));
      const std::int64_t hi = n.bits >= 64 ? std::numeric_limits<std::int64_t>::max() : (std::int64_t{1} << (n.bits - 1)) - 1;
      const std::string range = "int" + std::to_string(n.bits);
      FLOE_ASSIGN_OR_RETURN(std::int64_t x, Integer(n, v, path, lo, hi, range.c_str()));
      if constexpr (kAppend) {
        if (n.bits <= 32) return Put<arrow::Int32Builder>(n, static_cast<std::int32_t>(x));
        return Put<arrow::Int64Builder>(n, x);
      }
      return Status::OK();
    }
    case Kind::kFloat32:
    case Kind::kFloat64: {
      auto x = Number(v);
      if (!x) return Mismatch(path, n, v);
      if (n.kind == Kind::kFloat64) {
        if constexpr (kAppend) return Put<arrow::DoubleBuilder>(n, *x);
        return Status::OK();
      }
      if (std::fabs(*x) > FLT_MAX) return Refuse(path, simdjson::minify(v) + " is out of range for float32");
      if constexpr (kAppend) return Put<arrow::FloatBuilder>(n, static_cast<float>(*x));
      return Status::OK();
    }
    case Kind::kString: {
      FLOE_ASSIGN_OR_RETURN(std::string_view s, String(n, v, path));
      if constexpr (kAppend) return Put<arrow::StringBuilder>(n, s);
      return Status::OK();
    }
    case Kind::kJsonText:
      if constexpr (kAppend) {
        if (v.type() == element_type::STRING) return Put<arrow::StringBuilder>(n, v.get_string().value_unsafe());
        return Put<arrow::StringBuilder>(n, simdjson::minify(v));
      }
      return Status::OK();
    case Kind::kBytes:
    case Kind::kDecimalBytes: {
      FLOE_ASSIGN_OR_RETURN(std::string_view s, String(n, v, path));
      auto bytes = DecodeBase64(s);
      if (!bytes) return Refuse(path, Quoted(s) + " is not base64");
      if (n.kind == Kind::kBytes) {
        if constexpr (kAppend) return Put<arrow::BinaryBuilder>(n, *bytes);
        return Status::OK();
      }
      auto d = DecimalFromBytes(*bytes, n.precision);
      if (!d.ok()) return Refuse(path, d.status().message());
      if constexpr (kAppend) return Put<arrow::Decimal128Builder>(n, *d);
      return Status::OK();
    }
    case Kind::kDecimal: {
      FLOE_ASSIGN_OR_RETURN(arrow::Decimal128 d, Decimal(n, v, path));
      if constexpr (kAppend) return Put<arrow::Decimal128Builder>(n, d);
      return Status::OK();
    }
    case Kind::kTimestamp: {
      FLOE_ASSIGN_OR_RETURN(std::string_view s, String(n, v, path));
      auto micros = ParseDateTimeMicros(s);
      if (!micros) return Refuse(path, Quoted(s) + " is not an RFC 3339 date-time");
      if constexpr (kAppend) return Put<arrow::TimestampBuilder>(n, *micros);
      return Status::OK();
    }
    case Kind::kTimestampMillis: {
      constexpr std::int64_t kLimit = std::numeric_limits<std::int64_t>::max() / 1000;
      FLOE_ASSIGN_OR_RETURN(std::int64_t ms, Integer(n, v, path, -kLimit, kLimit, "a timestamp in microseconds"));
      if constexpr (kAppend) return Put<arrow::TimestampBuilder>(n, ms * 1000);
      return Status::OK();
    }
    case Kind::kDate: {
      FLOE_ASSIGN_OR_RETURN(std::string_view s, String(n, v, path));
      auto days = ParseDateDays(s);
      if (!days) return Refuse(path, Quoted(s) + " is not an RFC 3339 date");
      if constexpr (kAppend) return Put<arrow::Date32Builder>(n, *days);
      return Status::OK();
    }
    case Kind::kDateDays: {
      FLOE_ASSIGN_OR_RETURN(std::int64_t days, Integer(n, v, path, std::numeric_limits<std::int32_t>::min(),
                                                       std::numeric_limits<std::int32_t>::max(), "a date"));
      if constexpr (kAppend) return Put<arrow::Date32Builder>(n, static_cast<std::int32_t>(days));
      return Status::OK();
    }
    case Kind::kTime: {
      FLOE_ASSIGN_OR_RETURN(std::string_view s, String(n, v, path));
      auto micros = ParseTimeMicros(s);
      if (!micros) return Refuse(path, Quoted(s) + " is not an RFC 3339 time");
      if constexpr (kAppend) return Put<arrow::Time64Builder>(n, *micros);
      return Status::OK();
    }
    case Kind::kTimeMillis: {
      FLOE_ASSIGN_OR_RETURN(std::int64_t ms, Integer(n, v, path, 0, kMillisPerDay - 1, "a time of day in milliseconds"));
      if constexpr (kAppend) return Put<arrow::Time64Builder>(n, ms * 1000);
      return Status::OK();
    }
    default: return Status::Internal("not a scalar JSON kind: " + std::string(KindName(n.kind)));
  }
}

}  // namespace

Result<element> PaddedParser::Parse(std::string_view payload) {
  padded_.resize(payload.size() + simdjson::SIMDJSON_PADDING);
  if (!payload.empty()) std::memcpy(padded_.data(), payload.data(), payload.size());
  std::memset(padded_.data() + payload.size(), 0, simdjson::SIMDJSON_PADDING);
  auto doc = parser_.parse(padded_.data(), payload.size(), /*realloc_if_needed=*/false);
  if (doc.error()) return Status::InvalidArgument(std::string("invalid JSON: ") + simdjson::error_message(doc.error()));
  return doc.value_unsafe();
}

bool NeedsColumn(element v, int depth, int max_depth) {
  if (depth > max_depth) return true;
  switch (v.type()) {
    case element_type::NULL_VALUE: return false;
    case element_type::OBJECT:
      for (auto member : ObjectOf(v)) {
        if (NeedsColumn(member.value, depth + 1, max_depth)) return true;
      }
      return false;
    case element_type::ARRAY:
      for (element e : ArrayOf(v)) {
        if (NeedsColumn(e, depth + 1, max_depth)) return true;
      }
      return false;
    default: return true;
  }
}

const char* FoundName(element v) {
  switch (v.type()) {
    case element_type::ARRAY: return "array";
    case element_type::OBJECT: return "object";
    case element_type::INT64:
    case element_type::UINT64: return "integer";
    case element_type::DOUBLE: return "number";
    case element_type::STRING: return "string";
    case element_type::BOOL: return "boolean";
    case element_type::NULL_VALUE: return "null";
  }
  return "?";
}

std::string Render(const Path& path) {
  std::vector<const Path*> chain;
  for (const Path* p = &path; p; p = p->parent) chain.push_back(p);
  std::string out = "$";
  for (auto it = chain.rbegin(); it != chain.rend(); ++it) {
    const Path& p = **it;
    if (p.index >= 0) {
      out += "[" + std::to_string(p.index) + "]";
    } else if (!p.name.empty() || p.parent) {
      out += IsIdentifier(p.name) ? "." + std::string(p.name) : "['" + std::string(p.name) + "']";
    }
  }
  return out;
}

// Objects with many properties find them through the node's hash map; smaller ones by a
// scan that starts where the previous property matched (records usually list properties in
// schema order, so the scan almost always hits at once).
template <bool kAppend>
Status RunMembers(const PlanNode& n, simdjson::dom::object object, const Path& path) {
  const std::size_t count = n.children.size();
  n.found.assign(count, 0);
  std::size_t next = 0;
  for (auto member : object) {
    std::size_t i = count;
    if (!n.index.empty()) {
      if (auto it = n.index.find(member.key); it != n.index.end()) i = it->second;
    } else {
      for (std::size_t k = 0; k < count; ++k) {
        const std::size_t j = (next + k) % count;
        if (n.names[j] == member.key) {
          i = j;
          break;
        }
      }
    }
    if (i == count) continue;  // not in the schema: ignored
    if (n.found[i]) return Refuse(Path{&path, member.key}, "the property appears twice");
    n.found[i] = 1;
    n.slots[i] = member.value;
    next = i + 1;
  }
  for (std::size_t i = 0; i < count; ++i) {
    const PlanNode& child = n.children[i];
    const Path at{&path, n.names[i]};
    if (!n.found[i]) {
      if (!child.nullable) return Refuse(at, "the required property is missing");
      if constexpr (kAppend) {
        if (child.builder) FLOE_RETURN_IF_ARROW_ERROR(child.builder->AppendNull());
      }
      continue;
    }
    FLOE_RETURN_IF_ERROR(Run<kAppend>(child, n.slots[i], at));
  }
  return Status::OK();
}

template <bool kAppend>
Status Run(const PlanNode& n, element v, const Path& path) {
  const element_type type = v.type();
  if (type == element_type::NULL_VALUE) {
    if (!n.nullable) return Mismatch(path, n, v);
    if constexpr (kAppend) {
      if (n.builder) return FromArrow(n.builder->AppendNull());
    }
    return Status::OK();
  }
  switch (n.kind) {
    case Kind::kObject:
      if (type != element_type::OBJECT) return Mismatch(path, n, v);
      if constexpr (kAppend) {
        if (n.builder) FLOE_RETURN_IF_ARROW_ERROR(static_cast<arrow::StructBuilder*>(n.builder)->Append());
      }
      return RunMembers<kAppend>(n, v.get_object().value_unsafe(), path);
    case Kind::kArray: {
      if (type != element_type::ARRAY) return Mismatch(path, n, v);
      if constexpr (kAppend) {
        if (n.builder) FLOE_RETURN_IF_ARROW_ERROR(static_cast<arrow::ListBuilder*>(n.builder)->Append());
      }
      std::int64_t i = 0;
      for (element e : ArrayOf(v)) {
        FLOE_RETURN_IF_ERROR(Run<kAppend>(n.children.front(), e, Path{&path, {}, i++}));
      }
      return Status::OK();
    }
    case Kind::kMap: {
      if (type != element_type::OBJECT) return Mismatch(path, n, v);
      if constexpr (kAppend) {
        if (n.builder) FLOE_RETURN_IF_ARROW_ERROR(static_cast<arrow::MapBuilder*>(n.builder)->Append());
      }
      for (auto member : ObjectOf(v)) {
        if constexpr (kAppend) {
          if (n.key_builder) FLOE_RETURN_IF_ARROW_ERROR(static_cast<arrow::StringBuilder*>(n.key_builder)->Append(member.key));
        }
        FLOE_RETURN_IF_ERROR(Run<kAppend>(n.children.front(), member.value, Path{&path, member.key}));
      }
      return Status::OK();
    }
    default: return RunScalar<kAppend>(n, v, path);
  }
}

template Status Run<true>(const PlanNode&, element, const Path&);
template Status Run<false>(const PlanNode&, element, const Path&);
template Status RunMembers<true>(const PlanNode&, simdjson::dom::object, const Path&);
template Status RunMembers<false>(const PlanNode&, simdjson::dom::object, const Path&);

}  // namespace floe::json::internal
