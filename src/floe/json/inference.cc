#include "floe/json/inference.h"

#include <arrow/type.h>

#include <unordered_set>

#include "floe/json/decode_plan_internal.h"

namespace floe::json {
namespace {

using internal::ArrayOf;
using internal::NeedsColumn;
using internal::ObjectOf;
using internal::Path;
using simdjson::dom::element;
using simdjson::dom::element_type;

bool Is(Kind k, std::initializer_list<Kind> kinds) {
  for (Kind x : kinds) {
    if (x == k) return true;
  }
  return false;
}

// Kinds read from a JSON string or integer that only columns read back from a table have.
bool ReadsString(Kind k) { return Is(k, {Kind::kBytes, Kind::kDecimalBytes, Kind::kTimestamp, Kind::kDate, Kind::kTime}); }
bool ReadsInteger(Kind k) { return Is(k, {Kind::kTimestampMillis, Kind::kDateDays, Kind::kTimeMillis}); }
bool IsNumber(element_type t) {
  return t == element_type::INT64 || t == element_type::UINT64 || t == element_type::DOUBLE;
}

// Whether Merge(t, Infer(v)) would leave t as it is. Allocates nothing: this runs per record.
bool Fits(const JsonType& t, element v, int depth, int max_depth) {
  if (depth > max_depth) return false;  // Infer refuses it, with the path
  const element_type type = v.type();
  if (type == element_type::NULL_VALUE) return true;  // every inferred field is nullable
  switch (t.kind) {
    case Kind::kNull: return !NeedsColumn(v, depth, max_depth);
    case Kind::kJsonText: return true;
    case Kind::kBoolean: return type == element_type::BOOL;
    case Kind::kInteger: return type == element_type::INT64;
    case Kind::kFloat32:
    case Kind::kFloat64:
    case Kind::kDecimal: return IsNumber(type);
    case Kind::kString: return type == element_type::STRING;
    case Kind::kObject: {
      if (type != element_type::OBJECT) return false;
      // Records usually list properties in the order of the columns: the scan for each
      // starts after the previous match, so it almost always hits at once.
      const std::size_t count = t.children.size();
      std::size_t next = 0;
      for (auto member : ObjectOf(v)) {
        const JsonField* field = nullptr;
        for (std::size_t k = 0; k < count && !field; ++k) {
          const std::size_t j = (next + k) % count;
          if (t.children[j].name == member.key) {
            field = &t.children[j];
            next = j + 1;
          }
        }
        const bool fits = field ? Fits(field->type, member.value, depth + 1, max_depth)
                                : !NeedsColumn(member.value, depth + 1, max_depth);
        if (!fits) return false;
      }
      return true;
    }
    case Kind::kArray: {
      if (type != element_type::ARRAY) return false;
      for (element e : ArrayOf(v)) {
        if (!Fits(t.item().type, e, depth + 1, max_depth)) return false;
      }
      return true;
    }
    case Kind::kMap: {
      if (type != element_type::OBJECT) return false;
      for (auto member : ObjectOf(v)) {
        if (!Fits(t.item().type, member.value, depth + 1, max_depth)) return false;
      }
      return true;
    }
    default:
      if (ReadsString(t.kind)) return type == element_type::STRING;
      if (ReadsInteger(t.kind)) return type == element_type::INT64;
      return false;
  }
}

Result<JsonType> MergeAt(const JsonType& a, const JsonType& b, const Path& path, const InferenceOptions& options);

Result<JsonType> InferAt(element v, const Path& path, int depth, const InferenceOptions& options) {
  if (depth > options.max_depth) {
    return Status::InvalidArgument(internal::Render(path) + ": nesting deeper than " +
                                   std::to_string(options.max_depth) + " levels");
  }
  switch (v.type()) {
    case element_type::NULL_VALUE: return Scalar(Kind::kNull);
    case element_type::BOOL: return Scalar(Kind::kBoolean);
    case element_type::INT64: return Scalar(Kind::kInteger);
    // Beyond int64 only a double holds the value (as JSON readers commonly do).
    case element_type::UINT64:
    case element_type::DOUBLE: return Scalar(Kind::kFloat64);
    case element_type::STRING: return Scalar(Kind::kString);
    case element_type::ARRAY: {
      JsonType item = Scalar(Kind::kNull);
      std::int64_t i = 0;
      for (element e : ArrayOf(v)) {
        const Path at{&path, {}, i++};
        FLOE_ASSIGN_OR_RETURN(JsonType t, InferAt(e, at, depth + 1, options));
        FLOE_ASSIGN_OR_RETURN(item, MergeAt(item, t, at, options));
      }
      return Array(std::move(item));
    }
    case element_type::OBJECT: {
      std::vector<JsonField> fields;
      std::unordered_set<std::string_view> seen;
      for (auto member : ObjectOf(v)) {
        const Path at{&path, member.key};
        if (!seen.insert(member.key).second) return Status::InvalidArgument(internal::Render(at) + ": the property appears twice");
        FLOE_ASSIGN_OR_RETURN(JsonType t, InferAt(member.value, at, depth + 1, options));
        fields.push_back(JsonField{std::string(member.key), std::move(t), true});
      }
      return Object(std::move(fields));
    }
  }
  return Status::Internal("unknown simdjson element type");
}

Result<JsonType> Conflict(const JsonType& a, const JsonType& b, const Path& path, const InferenceOptions& options) {
  if (options.conflicts_as_text) return Scalar(Kind::kJsonText);
  return Status::InvalidArgument(internal::Render(path) + ": a value of type " + KindName(b.kind) +
                                 " where the column is " + KindName(a.kind) +
                                 " (json_conflicts: as_text would keep such values as JSON text)");
}

Result<JsonType> MergeAt(const JsonType& a, const JsonType& b, const Path& path, const InferenceOptions& options) {
  if (b.kind == Kind::kNull || a == b) return a;
  if (a.kind == Kind::kNull) return b;
  if (a.kind == Kind::kJsonText || b.kind == Kind::kJsonText) return Scalar(Kind::kJsonText);
  switch (a.kind) {
    case Kind::kInteger:
      if (b.kind == Kind::kInteger) return a;  // a narrower column read back from a table
      if (b.kind == Kind::kFloat64) return b;
      break;
    case Kind::kFloat32:
    case Kind::kFloat64:
    case Kind::kDecimal:
      if (b.kind == Kind::kInteger || b.kind == Kind::kFloat64) return a;
      break;
    case Kind::kObject: {
      if (b.kind != Kind::kObject) break;
      JsonType merged = a;
      for (const JsonField& f : b.children) {
        JsonField* existing = nullptr;
        for (auto& m : merged.children) {
          if (m.name == f.name) existing = &m;
        }
        if (!existing) {
          merged.children.push_back(JsonField{f.name, f.type, true});
          continue;
        }
        FLOE_ASSIGN_OR_RETURN(existing->type, MergeAt(existing->type, f.type, Path{&path, f.name}, options));
      }
      return merged;
    }
    case Kind::kArray: {
      if (b.kind != Kind::kArray) break;
      FLOE_ASSIGN_OR_RETURN(JsonType element, MergeAt(a.item().type, b.item().type, Path{&path, {}, 0}, options));
      return Array(std::move(element), a.item().nullable);
    }
    case Kind::kMap: {
      // A map column read back from a table takes objects: each property is a map entry.
      if (b.kind != Kind::kMap && b.kind != Kind::kObject) break;
      JsonType value = a.item().type;
      for (const JsonField& f : b.children) {
        FLOE_ASSIGN_OR_RETURN(value, MergeAt(value, f.type, Path{&path, f.name}, options));
      }
      return Map(std::move(value), a.item().nullable);
    }
    default:
      if (ReadsString(a.kind) && b.kind == Kind::kString) return a;
      if (ReadsInteger(a.kind) && b.kind == Kind::kInteger) return a;
      break;
  }
  return Conflict(a, b, path, options);
}

Result<JsonType> JsonTypeFromArrow(const arrow::DataType& type, const std::string& path) {
  switch (type.id()) {
    case arrow::Type::BOOL: return Scalar(Kind::kBoolean);
    case arrow::Type::INT8:
    case arrow::Type::INT16:
    case arrow::Type::INT32: {
      JsonType t = Scalar(Kind::kInteger);
      t.bits = 32;
      return t;
    }
    case arrow::Type::INT64: return Scalar(Kind::kInteger);
    case arrow::Type::FLOAT: return Scalar(Kind::kFloat32);
    case arrow::Type::DOUBLE: return Scalar(Kind::kFloat64);
    case arrow::Type::STRING:
    case arrow::Type::LARGE_STRING: return Scalar(Kind::kString);
    case arrow::Type::BINARY:
    case arrow::Type::LARGE_BINARY: return Scalar(Kind::kBytes);
    case arrow::Type::DECIMAL128: {
      const auto& d = static_cast<const arrow::Decimal128Type&>(type);
      JsonType t = Scalar(Kind::kDecimal);
      t.precision = d.precision();
      t.scale = d.scale();
      return t;
    }
    case arrow::Type::TIMESTAMP: return Scalar(Kind::kTimestamp);
    case arrow::Type::DATE32: return Scalar(Kind::kDate);
    case arrow::Type::TIME64: return Scalar(Kind::kTime);
    case arrow::Type::STRUCT: {
      std::vector<JsonField> fields;
      for (const auto& f : type.fields()) {
        FLOE_ASSIGN_OR_RETURN(JsonType t, JsonTypeFromArrow(*f->type(), path + "." + f->name()));
        fields.push_back(JsonField{f->name(), std::move(t), f->nullable()});
      }
      return Object(std::move(fields));
    }
    case arrow::Type::LIST:
    case arrow::Type::LARGE_LIST: {
      const auto& item = type.field(0);
      FLOE_ASSIGN_OR_RETURN(JsonType t, JsonTypeFromArrow(*item->type(), path + "[]"));
      return Array(std::move(t), item->nullable());
    }
    case arrow::Type::MAP: {
      const auto& m = static_cast<const arrow::MapType&>(type);
      if (m.key_type()->id() != arrow::Type::STRING) break;
      FLOE_ASSIGN_OR_RETURN(JsonType t, JsonTypeFromArrow(*m.item_type(), path + "{}"));
      return Map(std::move(t), m.item_field()->nullable());
    }
    default: break;
  }
  return Status::Unsupported("column '" + path + "' is " + type.ToString() + ", which JSON values cannot fill");
}

}  // namespace

Result<JsonType> Merge(const JsonType& current, const JsonType& next, const InferenceOptions& options) {
  return MergeAt(current, next, Path{}, options);
}

Result<JsonType> InferredFromColumns(const arrow::Schema& columns) {
  std::vector<JsonField> fields;
  for (const auto& f : columns.fields()) {
    FLOE_ASSIGN_OR_RETURN(JsonType t, JsonTypeFromArrow(*f->type(), f->name()));
    fields.push_back(JsonField{f->name(), std::move(t), f->nullable()});
  }
  return Object(std::move(fields));
}

struct Inference::Impl {
  InferenceOptions options;
  internal::PaddedParser parser;
};

Inference::Inference(InferenceOptions options) : impl_(std::make_unique<Impl>()) { impl_->options = options; }
Inference::~Inference() = default;
Inference::Inference(Inference&&) noexcept = default;
Inference& Inference::operator=(Inference&&) noexcept = default;

const InferenceOptions& Inference::options() const { return impl_->options; }

Result<JsonType> Inference::Infer(std::string_view payload) {
  FLOE_ASSIGN_OR_RETURN(element v, impl_->parser.Parse(payload));
  if (v.type() != element_type::OBJECT) {
    return Status::InvalidArgument(std::string("$: expected object, found ") + internal::FoundName(v));
  }
  return InferAt(v, Path{}, 0, impl_->options);
}

Result<std::optional<JsonType>> Inference::FitOrWiden(const JsonType& current, std::string_view payload) {
  FLOE_ASSIGN_OR_RETURN(element v, impl_->parser.Parse(payload));
  if (v.type() != element_type::OBJECT) {
    return Status::InvalidArgument(std::string("$: expected object, found ") + internal::FoundName(v));
  }
  if (Fits(current, v, 0, impl_->options.max_depth)) return std::optional<JsonType>();
  FLOE_ASSIGN_OR_RETURN(JsonType inferred, InferAt(v, Path{}, 0, impl_->options));
  FLOE_ASSIGN_OR_RETURN(JsonType merged, MergeAt(current, inferred, Path{}, impl_->options));
  if (merged == current) return std::optional<JsonType>();
  return std::optional<JsonType>(std::move(merged));
}

}  // namespace floe::json
