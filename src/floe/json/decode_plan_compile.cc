#include <arrow/array/builder_nested.h>
#include <arrow/type.h>

#include "floe/json/decode_plan_internal.h"

namespace floe::json::internal {
namespace {

constexpr std::size_t kIndexedObjectSize = 8;  // see RunMembers: smaller objects are scanned

Status CheckBuilder(const JsonType& type, arrow::ArrayBuilder* builder, const std::string& path) {
  if (!builder) return Status::OK();
  auto expected = ToArrowType(type);
  if (!expected.ok()) return expected.status();
  if (!builder->type()->Equals(**expected)) {
    return Status::Internal("the builder of '" + path + "' is " + builder->type()->ToString() + ", not " +
                            (*expected)->ToString());
  }
  return Status::OK();
}

Result<PlanNode> CompileNode(const JsonType& type, bool nullable, arrow::ArrayBuilder* builder,
                             const std::string& path);

// Object properties onto the builders of the fields that have a column, in order.
Status CompileMembers(PlanNode& node, const JsonType& type, bool with_builders,
                      const std::vector<arrow::ArrayBuilder*>& builders, const std::string& path) {
  std::size_t next_builder = 0;
  node.children.reserve(type.children.size());
  for (const JsonField& f : type.children) {
    arrow::ArrayBuilder* child_builder = nullptr;
    if (HasColumn(f.type) && with_builders) {
      if (next_builder >= builders.size()) return Status::Internal("too few builders for the columns of '" + path + "'");
      child_builder = builders[next_builder++];
    }
    FLOE_ASSIGN_OR_RETURN(PlanNode child, CompileNode(f.type, f.nullable, child_builder, path + "." + f.name));
    node.children.push_back(std::move(child));
    node.names.push_back(f.name);
  }
  if (next_builder != builders.size()) {
    return Status::Internal("more builders than columns for '" + path + "'");
  }
  if (node.names.size() > kIndexedObjectSize) {
    for (std::size_t i = 0; i < node.names.size(); ++i) node.index.emplace(node.names[i], i);
  }
  node.slots.resize(node.children.size());
  node.found.resize(node.children.size());
  return Status::OK();
}

Result<PlanNode> CompileNode(const JsonType& type, bool nullable, arrow::ArrayBuilder* builder,
                             const std::string& path) {
  FLOE_RETURN_IF_ERROR(CheckBuilder(type, builder, path));
  PlanNode node;
  node.kind = type.kind;
  node.bits = type.bits;
  node.precision = type.precision;
  node.scale = type.scale;
  node.nullable = nullable;
  node.builder = builder;
  switch (type.kind) {
    case Kind::kObject: {
      std::vector<arrow::ArrayBuilder*> children;
      if (builder) {
        auto* sb = static_cast<arrow::StructBuilder*>(builder);
        for (int i = 0; i < sb->num_fields(); ++i) children.push_back(sb->field_builder(i));
      }
      FLOE_RETURN_IF_ERROR(CompileMembers(node, type, builder != nullptr, children, path));
      break;
    }
    case Kind::kArray: {
      arrow::ArrayBuilder* values = builder ? static_cast<arrow::ListBuilder*>(builder)->value_builder() : nullptr;
      FLOE_ASSIGN_OR_RETURN(PlanNode item, CompileNode(type.item().type, type.item().nullable, values, path + "[]"));
      node.children.push_back(std::move(item));
      break;
    }
    case Kind::kMap: {
      arrow::ArrayBuilder* values = nullptr;
      if (builder) {
        auto* mb = static_cast<arrow::MapBuilder*>(builder);
        node.key_builder = mb->key_builder();
        values = mb->item_builder();
      }
      FLOE_ASSIGN_OR_RETURN(PlanNode item, CompileNode(type.item().type, type.item().nullable, values, path + "{}"));
      node.children.push_back(std::move(item));
      break;
    }
    default: break;
  }
  return node;
}

}  // namespace

Result<PlanNode> Compile(const JsonField& field, arrow::ArrayBuilder* builder) {
  return CompileNode(field.type, field.nullable, builder, field.name.empty() ? "$" : field.name);
}

Result<PlanNode> CompileColumns(const JsonType& object, const std::vector<arrow::ArrayBuilder*>& columns) {
  if (object.kind != Kind::kObject) return Status::InvalidArgument("the top level of a value must be an object");
  PlanNode node;
  node.kind = Kind::kObject;
  node.nullable = false;
  FLOE_RETURN_IF_ERROR(CompileMembers(node, object, /*with_builders=*/true, columns, "$"));
  return node;
}

}  // namespace floe::json::internal
