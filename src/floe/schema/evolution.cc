#include "floe/schema/evolution.h"

#include <algorithm>
#include <unordered_set>
#include <utility>

#include "floe/schema/field_walk_internal.h"
#include "floe/schema/fresh_ids_internal.h"

namespace floe::schema {
namespace {

std::string Quoted(const std::string& path) { return "'" + path + "'"; }

// What one merge carries along while it walks both schemas.
struct MergeState {
  int next_id = 1;                       // the id the next new field gets
  std::unordered_set<int> identifier_ids;  // the table's identifier fields
  std::vector<std::string> changes;
};

Status Incompatible(const std::string& path, const Type& table, const Type& incoming) {
  return Status::InvalidArgument("field " + Quoted(path) + ": cannot change " + table.ToString() + " to " +
                                 incoming.ToString() +
                                 ": only int -> long, float -> double and decimal precision widening are allowed");
}

Result<TypePtr> MergeType(const TypePtr& table, const TypePtr& incoming, const std::string& path, MergeState& state);

// Primitives: equal, a promotion of the table type, or a narrower incoming type that the
// table type already holds (the decoder widens those values when it resolves records).
Result<TypePtr> MergePrimitive(const TypePtr& table, const TypePtr& incoming, const std::string& path,
                               MergeState& state) {
  const TypeId t = table->id();
  const TypeId i = incoming->id();
  if (table->Equals(*incoming)) return table;
  auto promote = [&]() -> TypePtr {
    state.changes.push_back("promoted " + Quoted(path) + " " + table->ToString() + " -> " + incoming->ToString());
    return incoming;
  };
  if (t == TypeId::kInt && i == TypeId::kLong) return promote();
  if (t == TypeId::kFloat && i == TypeId::kDouble) return promote();
  if (t == TypeId::kLong && i == TypeId::kInt) return table;
  if (t == TypeId::kDouble && i == TypeId::kFloat) return table;
  if (t == TypeId::kDecimal && i == TypeId::kDecimal && table->scale() == incoming->scale()) {
    return incoming->precision() > table->precision() ? promote() : table;
  }
  return Incompatible(path, *table, *incoming);
}

bool HoldsIdentifier(const NestedField& field, const std::unordered_set<int>& ids) {
  if (ids.empty()) return false;
  bool found = ids.contains(field.id);
  if (field.type && !field.type->is_primitive()) {
    WalkFields(field.type->fields(), [&](const FieldContext& ctx) { found = found || ids.contains(ctx.field->id); });
  }
  return found;
}

// Makes a required table field optional, unless that would break an identifier field:
// those are the row key of equality deletes and must be present in every row.
Status Relax(NestedField& field, const std::string& path, const char* why, MergeState& state) {
  if (field.required && HoldsIdentifier(field, state.identifier_ids)) {
    return Status::InvalidArgument("field " + Quoted(path) + ": cannot make it optional (" + why +
                                   "): it is or holds an identifier field, which must stay required");
  }
  if (field.required) {
    field.required = false;
    state.changes.push_back("made " + Quoted(path) + " optional (" + why + ")");
  }
  return Status::OK();
}

// A field only the incoming schema has: optional, with fresh ids for it and its descendants.
NestedField NewField(const NestedField& incoming, const std::string& path, MergeState& state) {
  NestedField field = incoming;
  field.required = false;
  // Defaults are table metadata decided by whoever adds the column, not by a writer schema.
  field.initial_default_json.reset();
  field.write_default_json.reset();
  std::vector<NestedField> renumbered = ReassignIds({field}, state.next_id, nullptr);
  state.changes.push_back("added optional column " + Quoted(path) + " (" + field.type->ToString() + ")");
  return std::move(renumbered.front());
}

Result<NestedField> MergeField(const NestedField& table, const NestedField& incoming, const std::string& path,
                               MergeState& state) {
  NestedField merged = table;  // id, name, doc and defaults stay the table's
  FLOE_ASSIGN_OR_RETURN(merged.type, MergeType(table.type, incoming.type, path, state));
  if (!incoming.required) FLOE_RETURN_IF_ERROR(Relax(merged, path, "optional in the incoming schema", state));
  return merged;
}

const NestedField* FindByName(const std::vector<NestedField>& fields, const std::string& name) {
  auto it = std::find_if(fields.begin(), fields.end(), [&](const NestedField& f) { return f.name == name; });
  return it == fields.end() ? nullptr : &*it;
}

// Table fields first, in their order (merged, or relaxed when the incoming schema lacks
// them), then the incoming-only fields in the incoming order.
Result<std::vector<NestedField>> MergeStructFields(const std::vector<NestedField>& table,
                                                   const std::vector<NestedField>& incoming,
                                                   const std::string& parent, MergeState& state) {
  std::vector<NestedField> out;
  out.reserve(table.size());
  for (const auto& t : table) {
    const std::string path = JoinFieldPath(parent, t.name);
    if (const NestedField* i = FindByName(incoming, t.name)) {
      FLOE_ASSIGN_OR_RETURN(NestedField merged, MergeField(t, *i, path, state));
      out.push_back(std::move(merged));
    } else {
      NestedField kept = t;
      FLOE_RETURN_IF_ERROR(Relax(kept, path, "not in the incoming schema", state));
      out.push_back(std::move(kept));
    }
  }
  for (const auto& i : incoming) {
    if (!FindByName(table, i.name)) out.push_back(NewField(i, JoinFieldPath(parent, i.name), state));
  }
  return out;
}

// Java refuses any update of a map key (its type, its struct fields): keys identify entries,
// and files written before the change would no longer match the new keys.
Result<NestedField> MergeMapKey(const NestedField& table, const NestedField& incoming, const std::string& path,
                                MergeState& state) {
  MergeState probe = state;
  probe.changes.clear();
  FLOE_ASSIGN_OR_RETURN(NestedField merged, MergeField(table, incoming, path, probe));
  if (!probe.changes.empty()) {
    return Status::InvalidArgument("field " + Quoted(path) + ": map keys cannot change, but the incoming schema has " +
                                   incoming.type->ToString() + " for " + table.type->ToString() + " (" +
                                   probe.changes.front() + ")");
  }
  return merged;
}

std::string KindName(const Type& type) {
  switch (type.id()) {
    case TypeId::kStruct: return "struct";
    case TypeId::kList: return "list";
    case TypeId::kMap: return "map";
    default: return "primitive";
  }
}

Result<TypePtr> MergeType(const TypePtr& table, const TypePtr& incoming, const std::string& path, MergeState& state) {
  if (!table || !incoming) return Status::Internal("field " + Quoted(path) + " has no type");
  if (table->is_primitive() && incoming->is_primitive()) return MergePrimitive(table, incoming, path, state);
  if (KindName(*table) != KindName(*incoming)) return Incompatible(path, *table, *incoming);
  switch (table->id()) {
    case TypeId::kStruct: {
      FLOE_ASSIGN_OR_RETURN(auto fields, MergeStructFields(table->fields(), incoming->fields(), path, state));
      return Type::Struct(std::move(fields));
    }
    case TypeId::kList: {
      FLOE_ASSIGN_OR_RETURN(NestedField element,
                            MergeField(table->element(), incoming->element(), JoinFieldPath(path, "element"), state));
      return Type::List(std::move(element));
    }
    default: {  // map
      FLOE_ASSIGN_OR_RETURN(NestedField key,
                            MergeMapKey(table->key(), incoming->key(), JoinFieldPath(path, "key"), state));
      FLOE_ASSIGN_OR_RETURN(NestedField value,
                            MergeField(table->value(), incoming->value(), JoinFieldPath(path, "value"), state));
      return Type::Map(std::move(key), std::move(value));
    }
  }
}

}  // namespace

Result<SchemaMerge> MergeSchemas(const Schema& table, const Schema& incoming, int& last_column_id) {
  // Matching by name needs one field per name in each struct of the incoming schema.
  FLOE_RETURN_IF_ERROR(CheckUniqueNames(incoming.fields).WithContext("incoming schema"));
  MergeState state;
  state.next_id = std::max(last_column_id, table.HighestFieldId()) + 1;
  state.identifier_ids.insert(table.identifier_field_ids.begin(), table.identifier_field_ids.end());
  const int first_new_id = state.next_id;

  FLOE_ASSIGN_OR_RETURN(std::vector<NestedField> fields,
                        MergeStructFields(table.fields, incoming.fields, "", state));
  SchemaMerge out;
  if (state.changes.empty()) {
    out.schema = table;  // untouched: the same ids, the same schema id
    return out;
  }
  out.schema.schema_id = table.schema_id + 1;
  out.schema.fields = std::move(fields);
  out.schema.identifier_field_ids = table.identifier_field_ids;
  // Relax() already refuses the changes that could break identifier fields; this is the
  // spec's full rule, so a case it missed still fails here rather than in a commit.
  FLOE_RETURN_IF_ERROR(CheckIdentifierFields(out.schema).WithContext("merged schema"));
  out.changed = true;
  out.changes = std::move(state.changes);
  if (state.next_id != first_new_id) last_column_id = state.next_id - 1;
  return out;
}

}  // namespace floe::schema
