#include "floe/schema/field_walk_internal.h"

#include <unordered_map>
#include <unordered_set>

namespace floe::schema {

std::string JoinFieldPath(const std::string& parent, const std::string& name) {
  return parent.empty() ? name : parent + "." + name;
}

namespace {

void VisitChildren(const Type& type, const FieldContext& holder, const std::string& short_prefix,
                   const std::function<void(const FieldContext&)>& visit);

// Visits `fields`, the children of a `kind` (struct, list or map) described by `base`.
// `short_prefix` is what the children's short names start with.
void VisitFields(const std::vector<NestedField>& fields, TypeId kind, const FieldContext& base,
                 const std::string& short_prefix, const std::function<void(const FieldContext&)>& visit) {
  for (const auto& f : fields) {
    FieldContext ctx = base;
    ctx.field = &f;
    ctx.path = JoinFieldPath(base.path, f.name);
    ctx.short_path = JoinFieldPath(short_prefix, f.name);
    visit(ctx);
    if (!f.type) continue;
    // A struct held by a list element or map value is named without that level too.
    const bool skip_level = kind != TypeId::kStruct && f.name != "key" && f.type->id() == TypeId::kStruct;
    VisitChildren(*f.type, ctx, skip_level ? short_prefix : ctx.short_path, visit);
  }
}

// Visits the children of `type`, held by the field `holder`.
void VisitChildren(const Type& type, const FieldContext& holder, const std::string& short_prefix,
                   const std::function<void(const FieldContext&)>& visit) {
  if (type.is_primitive()) return;
  FieldContext base = holder;
  if (type.id() == TypeId::kStruct) {
    if (!holder.field->required) base.in_optional_struct = true;
  } else if (!base.in_list_or_map) {
    base.in_list_or_map = true;
    base.container_path = holder.path;
    base.container_kind = type.id() == TypeId::kList ? "list" : "map";
  }
  VisitFields(type.fields(), type.id(), base, short_prefix, visit);
}

}  // namespace

void WalkFields(const std::vector<NestedField>& fields, const std::function<void(const FieldContext&)>& visit) {
  VisitFields(fields, TypeId::kStruct, FieldContext{}, "", visit);
}

std::optional<FieldContext> LocateField(const Schema& schema, int id) {
  std::optional<FieldContext> found;
  WalkFields(schema.fields, [&](const FieldContext& ctx) {
    if (!found && ctx.field->id == id) found = ctx;
  });
  return found;
}

Status CheckUniqueFieldIds(const std::vector<NestedField>& fields) {
  std::unordered_map<int, std::string> seen;
  Status status;
  WalkFields(fields, [&](const FieldContext& ctx) {
    if (!status.ok()) return;
    auto [it, inserted] = seen.emplace(ctx.field->id, ctx.path);
    if (!inserted) {
      status = Status::InvalidArgument("field id " + std::to_string(ctx.field->id) + " is used twice: by '" +
                                       it->second + "' and by '" + ctx.path + "'");
    }
  });
  return status;
}

namespace {

Status CheckNamesInType(const Type& type, const std::string& path);

Status CheckNamesInStruct(const std::vector<NestedField>& fields, const std::string& path) {
  std::unordered_set<std::string> names;
  for (const auto& f : fields) {
    if (!names.insert(f.name).second) {
      return Status::InvalidArgument("field name '" + f.name + "' appears twice in " +
                                     (path.empty() ? std::string("the schema") : "'" + path + "'"));
    }
  }
  for (const auto& f : fields) {
    if (f.type) FLOE_RETURN_IF_ERROR(CheckNamesInType(*f.type, JoinFieldPath(path, f.name)));
  }
  return Status::OK();
}

Status CheckNamesInType(const Type& type, const std::string& path) {
  if (type.id() == TypeId::kStruct) return CheckNamesInStruct(type.fields(), path);
  if (type.is_primitive()) return Status::OK();
  for (const auto& child : type.fields()) {  // list element, map key and value
    if (child.type) FLOE_RETURN_IF_ERROR(CheckNamesInType(*child.type, JoinFieldPath(path, child.name)));
  }
  return Status::OK();
}

}  // namespace

Status CheckUniqueNames(const std::vector<NestedField>& fields, const std::string& parent_path) {
  return CheckNamesInStruct(fields, parent_path);
}

// Identifier fields are the row's key for equality deletes and upserts, so the spec wants
// each to be present in every row (required, with required parents, not repeated inside
// a list or map) and comparable by value exactly (primitive, not float or double).
Status CheckIdentifierFields(const Schema& schema) {
  std::unordered_set<int> seen;
  for (int id : schema.identifier_field_ids) {
    const std::string which = "identifier field id " + std::to_string(id);
    if (!seen.insert(id).second) return Status::InvalidArgument(which + " is listed twice");
    std::optional<FieldContext> ctx = LocateField(schema, id);
    if (!ctx) return Status::InvalidArgument(which + " is not a field of the schema");
    const NestedField& f = *ctx->field;
    const std::string named = which + " ('" + ctx->path + "')";
    if (!f.type || !f.type->is_primitive()) {
      return Status::InvalidArgument(named + " must be a primitive type, not " + (f.type ? f.type->ToString() : "?"));
    }
    if (f.type->id() == TypeId::kFloat || f.type->id() == TypeId::kDouble) {
      return Status::InvalidArgument(named + " must not be a float or double");
    }
    if (!f.required) return Status::InvalidArgument(named + " must be required");
    if (ctx->in_list_or_map) {
      return Status::InvalidArgument(named + " must not be inside " + ctx->container_kind + " '" +
                                     ctx->container_path + "'");
    }
    if (ctx->in_optional_struct) return Status::InvalidArgument(named + " must not be inside an optional struct");
  }
  return Status::OK();
}

}  // namespace floe::schema
