#include <string>

#include "floe/schema/partition.h"
#include "floe/schema/source_rules_internal.h"

namespace floe::schema {

bool PartitionSpec::is_unpartitioned() const {
  for (const auto& f : fields) {
    if (f.transform.kind != TransformKind::kVoid) return false;
  }
  return true;
}

// Partition tuple fields are optional whatever the source: Java's partitionType() makes
// them so (void always yields null, and specs outlive the columns they came from).
Result<TypePtr> PartitionSpec::PartitionType(const Schema& schema) const {
  std::vector<NestedField> out;
  out.reserve(fields.size());
  for (const auto& pf : fields) {
    NestedField f;
    f.id = pf.field_id;
    f.name = pf.name;
    f.required = false;
    const std::string where = "partition spec " + std::to_string(spec_id) + " field '" + pf.name + "'";
    std::optional<FieldContext> source = LocateField(schema, pf.source_id);
    if (!source) {
      // A void field whose source column has since been dropped: its type cannot be known
      // and its values are null, which is what v3's "unknown" type says.
      if (pf.transform.kind == TransformKind::kVoid) {
        f.type = Type::Primitive(TypeId::kUnknown);
        out.push_back(std::move(f));
        continue;
      }
      return Status::InvalidArgument(where + ": source column id " + std::to_string(pf.source_id) +
                                     " is not in schema " + std::to_string(schema.schema_id));
    }
    Result<TypePtr> type = PartitionSourceType(*source, pf.transform);
    if (!type.ok()) return type.status().WithContext(where);
    f.type = *type;
    out.push_back(std::move(f));
  }
  return Type::Struct(std::move(out));
}

}  // namespace floe::schema
