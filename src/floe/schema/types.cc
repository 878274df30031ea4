#include "floe/schema/types.h"

#include <algorithm>
#include <array>
#include <cassert>
#include <utility>

#include "floe/schema/type_names_internal.h"

namespace floe::schema {

TypePtr Type::Primitive(TypeId id) {
  // Primitive types have no parameters, so one shared instance per id is enough: schemas
  // with thousands of columns then share their leaf types instead of allocating each.
  // Never destroyed, so no static-destruction-order question for schemas held in statics.
  static const auto* const kShared = [] {
    auto* all = new std::array<TypePtr, kTypeIdCount>();
    for (int i = 0; i < kTypeIdCount; ++i) {
      auto* t = new Type();
      t->id_ = static_cast<TypeId>(i);
      (*all)[static_cast<std::size_t>(i)] = TypePtr(t);
    }
    return all;
  }();
  assert(id != TypeId::kDecimal && id != TypeId::kFixed && "use Type::Decimal / Type::Fixed");
  assert(id != TypeId::kStruct && id != TypeId::kList && id != TypeId::kMap && "use the nested factories");
  return (*kShared)[static_cast<std::size_t>(id)];
}

TypePtr Type::Decimal(int precision, int scale) {
  auto* t = new Type();
  t->id_ = TypeId::kDecimal;
  t->precision_ = precision;
  t->scale_ = scale;
  return TypePtr(t);
}

TypePtr Type::Fixed(int length) {
  auto* t = new Type();
  t->id_ = TypeId::kFixed;
  t->length_ = length;
  return TypePtr(t);
}

TypePtr Type::Struct(std::vector<NestedField> fields) {
  auto* t = new Type();
  t->id_ = TypeId::kStruct;
  t->fields_ = std::move(fields);
  return TypePtr(t);
}

TypePtr Type::List(NestedField element) {
  // The names are fixed by the spec (and by Parquet's 3-level list layout); callers only
  // choose the id, the type and whether the element is required.
  element.name = "element";
  auto* t = new Type();
  t->id_ = TypeId::kList;
  t->fields_.push_back(std::move(element));
  return TypePtr(t);
}

TypePtr Type::Map(NestedField key, NestedField value) {
  key.name = "key";
  key.required = true;  // the spec: map keys are always required
  value.name = "value";
  auto* t = new Type();
  t->id_ = TypeId::kMap;
  t->fields_.push_back(std::move(key));
  t->fields_.push_back(std::move(value));
  return TypePtr(t);
}

namespace {

void AppendNested(const Type& type, std::string& out);

void AppendField(const NestedField& f, std::string& out) {
  out += f.name;
  out += f.required ? ": required " : ": ";
  if (f.type) {
    AppendNested(*f.type, out);
  } else {
    out += "?";
  }
}

void AppendNested(const Type& type, std::string& out) {
  switch (type.id()) {
    case TypeId::kStruct: {
      out += "struct<";
      bool first = true;
      for (const auto& f : type.fields()) {
        if (!first) out += ", ";
        first = false;
        AppendField(f, out);
      }
      out += ">";
      return;
    }
    case TypeId::kList:
      out += "list<";
      AppendNested(*type.element().type, out);
      out += ">";
      return;
    case TypeId::kMap:
      out += "map<";
      AppendNested(*type.key().type, out);
      out += ", ";
      AppendNested(*type.value().type, out);
      out += ">";
      return;
    default:
      out += PrimitiveTypeString(type);
  }
}

bool FieldsEqual(const std::vector<NestedField>& a, const std::vector<NestedField>& b) {
  if (a.size() != b.size()) return false;
  for (std::size_t i = 0; i < a.size(); ++i) {
    const NestedField& x = a[i];
    const NestedField& y = b[i];
    if (x.id != y.id || x.name != y.name || x.required != y.required || x.doc != y.doc ||
        x.initial_default_json != y.initial_default_json || x.write_default_json != y.write_default_json) {
      return false;
    }
    if (!x.type || !y.type) {
      if (x.type != y.type) return false;
      continue;
    }
    if (!x.type->Equals(*y.type)) return false;
  }
  return true;
}

}  // namespace

std::string Type::ToString() const {
  std::string out;
  AppendNested(*this, out);
  return out;
}

// Everything a field carries counts, docs and defaults included: two schemas that differ
// only in a doc string are still different metadata to write.
bool Type::Equals(const Type& other) const {
  if (this == &other) return true;
  if (id_ != other.id_) return false;
  switch (id_) {
    case TypeId::kDecimal: return precision_ == other.precision_ && scale_ == other.scale_;
    case TypeId::kFixed: return length_ == other.length_;
    case TypeId::kStruct:
    case TypeId::kList:
    case TypeId::kMap: return FieldsEqual(fields_, other.fields_);
    default: return true;
  }
}

// --- Schema ----------------------------------------------------------------------------------

namespace {

const NestedField* FindIn(const std::vector<NestedField>& fields, int id) {
  for (const auto& f : fields) {
    if (f.id == id) return &f;
    if (f.type && !f.type->is_primitive()) {
      if (const NestedField* found = FindIn(f.type->fields(), id)) return found;
    }
  }
  return nullptr;
}

// Names may themselves contain dots ("a.b" is a legal column name), so at each level every
// field whose name is a prefix of the rest of the path is tried, not just the text up to
// the next dot.
const NestedField* FindPath(const std::vector<NestedField>& fields, std::string_view path) {
  for (const auto& f : fields) {
    if (path == f.name) return &f;
  }
  for (const auto& f : fields) {
    if (path.size() > f.name.size() && path.substr(0, f.name.size()) == f.name && path[f.name.size()] == '.' &&
        f.type && f.type->id() == TypeId::kStruct) {
      if (const NestedField* found = FindPath(f.type->fields(), path.substr(f.name.size() + 1))) return found;
    }
  }
  return nullptr;
}

int HighestIn(const std::vector<NestedField>& fields) {
  int highest = 0;
  for (const auto& f : fields) {
    highest = std::max(highest, f.id);
    if (f.type && !f.type->is_primitive()) highest = std::max(highest, HighestIn(f.type->fields()));
  }
  return highest;
}

}  // namespace

const NestedField* Schema::FindById(int id) const { return FindIn(fields, id); }

const NestedField* Schema::FindByName(const std::string& dotted_name) const { return FindPath(fields, dotted_name); }

int Schema::HighestFieldId() const { return HighestIn(fields); }

TypePtr Schema::AsStruct() const { return Type::Struct(fields); }

}  // namespace floe::schema
