#include "floe/schema/source_rules_internal.h"

#include <string>

#include "floe/schema/type_names_internal.h"

namespace floe::schema {

Result<TypePtr> PartitionSourceType(const FieldContext& source, const Transform& transform) {
  const NestedField& f = *source.field;
  const std::string column = "column '" + source.path + "'";
  // void keeps a dropped partition field in old specs; Java skips the source checks for
  // it, since its values are always null.
  if (transform.kind != TransformKind::kVoid) {
    if (source.in_list_or_map) {
      return Status::InvalidArgument(column + " is inside " + source.container_kind + " '" + source.container_path +
                                     "'; a partition source may be nested in structs only");
    }
    if (f.type->id() == TypeId::kStruct) {
      return Status::InvalidArgument(column + " is a struct; partition by one of its fields ('" + source.path +
                                     ".<field>')");
    }
    if (!f.type->is_primitive()) {
      return Status::InvalidArgument(column + " is a " + PrimitiveTypeString(*f.type) +
                                     "; a partition source must be a primitive column");
    }
  }
  Result<TypePtr> type = transform.ResultType(*f.type);
  if (!type.ok()) return type.status().WithContext(column);
  return type;
}

}  // namespace floe::schema
