#include "floe/schema/fresh_ids_internal.h"

#include "floe/schema/arrow_schema.h"

namespace floe::schema {
namespace {

TypePtr ReassignType(const TypePtr& type, int& next_id, std::unordered_map<int, int>* old_to_new);

int Take(int old_id, int& next_id, std::unordered_map<int, int>* old_to_new) {
  const int id = next_id++;
  if (old_to_new) old_to_new->emplace(old_id, id);
  return id;
}

TypePtr ReassignType(const TypePtr& type, int& next_id, std::unordered_map<int, int>* old_to_new) {
  if (!type || type->is_primitive()) return type;
  switch (type->id()) {
    case TypeId::kStruct: return Type::Struct(ReassignIds(type->fields(), next_id, old_to_new));
    case TypeId::kList: {
      NestedField element = type->element();
      element.id = Take(element.id, next_id, old_to_new);
      element.type = ReassignType(element.type, next_id, old_to_new);
      return Type::List(std::move(element));
    }
    default: {  // map
      NestedField key = type->key();
      NestedField value = type->value();
      key.id = Take(key.id, next_id, old_to_new);
      value.id = Take(value.id, next_id, old_to_new);
      key.type = ReassignType(key.type, next_id, old_to_new);
      value.type = ReassignType(value.type, next_id, old_to_new);
      return Type::Map(std::move(key), std::move(value));
    }
  }
}

}  // namespace

std::vector<NestedField> ReassignIds(const std::vector<NestedField>& fields, int& next_id,
                                     std::unordered_map<int, int>* old_to_new) {
  std::vector<NestedField> out = fields;
  for (auto& f : out) f.id = Take(f.id, next_id, old_to_new);
  for (auto& f : out) f.type = ReassignType(f.type, next_id, old_to_new);
  return out;
}

Schema AssignFreshIds(const Schema& schema) {
  Schema out;
  out.schema_id = schema.schema_id;
  std::unordered_map<int, int> old_to_new;
  int next_id = 1;
  out.fields = ReassignIds(schema.fields, next_id, &old_to_new);
  for (int id : schema.identifier_field_ids) {
    auto it = old_to_new.find(id);
    // An identifier id that named no field cannot be carried over; it was invalid anyway.
    if (it != old_to_new.end()) out.identifier_field_ids.push_back(it->second);
  }
  return out;
}

}  // namespace floe::schema
