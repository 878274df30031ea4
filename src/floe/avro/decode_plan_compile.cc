// DecodePlan::Compile: schema + builders -> steps. See decode_plan.h for why.
#include <arrow/array/builder_binary.h>
#include <arrow/array/builder_decimal.h>
#include <arrow/array/builder_nested.h>
#include <arrow/array/builder_primitive.h>
#include <arrow/type.h>
#include <arrow/util/utf8.h>

#include "floe/avro/arrow_mapping.h"
#include "floe/avro/decode_plan.h"

namespace floe::avro {

class DecodePlan::Compiler {
 public:
  explicit Compiler(DecodePlan& plan) : plan_(plan) {}

  Result<std::uint32_t> Compile(const Node& writer, const Node& reader, arrow::ArrayBuilder* b,
                                const std::string& path) {
    // The seam for schema resolution: until it exists, both sides are one node.
    if (&writer != &reader) {
      return Status::Unsupported(Where(path) + ": writer -> reader schema resolution is not implemented yet");
    }
    const Node& n = reader;
    using LT = LogicalType;
    switch (n.type) {
      case Type::kNull:
        return Status::InvalidArgument(Where(path) + ": the null type cannot be stored in a table");
      case Type::kBoolean: return Leaf<arrow::BooleanBuilder>(Op::kBoolean, b, path);
      case Type::kInt:
        if (n.logical_type == LT::kDate) return Leaf<arrow::Date32Builder>(Op::kDate, b, path);
        if (n.logical_type == LT::kTimeMillis) return Leaf<arrow::Time64Builder>(Op::kTimeMillis, b, path);
        return Leaf<arrow::Int32Builder>(Op::kInt, b, path);
      case Type::kLong:
        switch (n.logical_type) {
          case LT::kTimeMicros: return Leaf<arrow::Time64Builder>(Op::kTimeMicros, b, path);
          case LT::kTimestampMillis:
          case LT::kLocalTimestampMillis: return Leaf<arrow::TimestampBuilder>(Op::kTimestampMillis, b, path);
          case LT::kTimestampMicros:
          case LT::kTimestampNanos:
          case LT::kLocalTimestampMicros:
          case LT::kLocalTimestampNanos: return Leaf<arrow::TimestampBuilder>(Op::kTimestamp, b, path);
          default: return Leaf<arrow::Int64Builder>(Op::kLong, b, path);
        }
      case Type::kFloat: return Leaf<arrow::FloatBuilder>(Op::kFloat, b, path);
      case Type::kDouble: return Leaf<arrow::DoubleBuilder>(Op::kDouble, b, path);
      case Type::kString: return Leaf<arrow::StringBuilder>(Op::kString, b, path);
      case Type::kBytes:
        if (n.logical_type == LT::kDecimal) return Decimal(n, b, path);
        return Leaf<arrow::BinaryBuilder>(Op::kBytes, b, path);
      case Type::kFixed: {
        if (n.logical_type == LT::kDecimal) return Decimal(n, b, path);
        FLOE_ASSIGN_OR_RETURN(std::uint32_t s, Leaf<arrow::FixedSizeBinaryBuilder>(Op::kFixed, b, path));
        plan_.steps_[s].fixed_size = static_cast<std::int32_t>(n.fixed_size);
        return s;
      }
      case Type::kEnum: {
        FLOE_ASSIGN_OR_RETURN(std::uint32_t s, Leaf<arrow::StringBuilder>(Op::kEnum, b, path));
        plan_.steps_[s].symbols = &n.symbols;
        return s;
      }
      case Type::kRecord: {
        FLOE_ASSIGN_OR_RETURN(auto* sb, As<arrow::StructBuilder>(b, path));
        if (static_cast<std::size_t>(sb->num_fields()) != n.fields.size()) return Mismatch(b, path);
        std::vector<std::uint32_t> kids;
        for (std::size_t i = 0; i < n.fields.size(); ++i) {
          const Node& f = *n.fields[i].node;
          FLOE_ASSIGN_OR_RETURN(auto k, Compile(f, f, sb->field_builder(static_cast<int>(i)),
                                                Join(path, n.fields[i].name)));
          kids.push_back(k);
        }
        return Parent(Op::kRecord, sb, path, kids);
      }
      case Type::kArray: {
        FLOE_ASSIGN_OR_RETURN(auto* lb, As<arrow::ListBuilder>(b, path));
        FLOE_ASSIGN_OR_RETURN(auto k, Compile(*n.items, *n.items, lb->value_builder(), path + "[]"));
        return Parent(Op::kArray, lb, path, {k});
      }
      case Type::kMap: {
        FLOE_ASSIGN_OR_RETURN(auto* mb, As<arrow::MapBuilder>(b, path));
        FLOE_ASSIGN_OR_RETURN(auto key, Leaf<arrow::StringBuilder>(Op::kString, mb->key_builder(), path + " (map key)"));
        FLOE_ASSIGN_OR_RETURN(auto value, Compile(*n.values, *n.values, mb->item_builder(), path + "{}"));
        return Parent(Op::kMap, mb, path, {key, value});
      }
      case Type::kUnion: return Union(n, b, path);
    }
    return Status::Internal(Where(path) + ": unhandled Avro type");
  }

 private:
  static std::string Where(const std::string& path) { return path.empty() ? "schema root" : "field '" + path + "'"; }
  static std::string Join(const std::string& path, const std::string& name) {
    return path.empty() ? name : path + "." + name;
  }

  static Status Mismatch(arrow::ArrayBuilder* b, const std::string& path) {
    return Status::InvalidArgument(Where(path) + ": the builder of type " + b->type()->ToString() +
                                   " does not fit the Avro schema (build it from ToArrowType)");
  }

  // The one dynamic_cast per builder: every Run() after this static_casts.
  template <typename B>
  Result<B*> As(arrow::ArrayBuilder* b, const std::string& path) {
    auto* typed = dynamic_cast<B*>(b);
    if (typed == nullptr) return Mismatch(b, path);
    return typed;
  }

  std::uint32_t NewStep(Op op, arrow::ArrayBuilder* b, const std::string& path) {
    Step s;
    s.op = op;
    s.builder = b;
    s.path = static_cast<std::uint32_t>(plan_.paths_.size());
    plan_.paths_.push_back(path);
    plan_.steps_.push_back(s);
    return static_cast<std::uint32_t>(plan_.steps_.size() - 1);
  }

  template <typename B>
  Result<std::uint32_t> Leaf(Op op, arrow::ArrayBuilder* b, const std::string& path) {
    FLOE_ASSIGN_OR_RETURN(B * typed, As<B>(b, path));
    return NewStep(op, typed, path);
  }

  // Children are compiled first, so their indices go into children_ contiguously.
  std::uint32_t Parent(Op op, arrow::ArrayBuilder* b, const std::string& path, const std::vector<std::uint32_t>& kids) {
    const std::uint32_t s = NewStep(op, b, path);
    plan_.steps_[s].first_child = static_cast<std::uint32_t>(plan_.children_.size());
    plan_.steps_[s].child_count = static_cast<std::uint32_t>(kids.size());
    plan_.children_.insert(plan_.children_.end(), kids.begin(), kids.end());
    return s;
  }

  Result<std::uint32_t> Decimal(const Node& n, arrow::ArrayBuilder* b, const std::string& path) {
    std::uint32_t s = 0;
    if (n.precision <= 38) {
      FLOE_ASSIGN_OR_RETURN(s, Leaf<arrow::Decimal128Builder>(Op::kDecimal128, b, path));
    } else {
      FLOE_ASSIGN_OR_RETURN(s, Leaf<arrow::Decimal256Builder>(Op::kDecimal256, b, path));
    }
    plan_.steps_[s].precision = n.precision;
    plan_.steps_[s].fixed_size = n.type == Type::kFixed ? static_cast<std::int32_t>(n.fixed_size) : 0;
    return s;
  }

  Result<std::uint32_t> Union(const Node& n, arrow::ArrayBuilder* b, const std::string& path) {
    const int null_branch = n.null_branch();
    std::uint32_t s = 0;
    if (IsOptionalUnion(n)) {
      const Node& value = *n.branches[null_branch == 0 ? 1 : 0];
      FLOE_ASSIGN_OR_RETURN(auto k, Compile(value, value, b, path));
      s = Parent(Op::kOptional, b, path, {k});
    } else {
      if (n.branches.empty() || (n.branches.size() == 1 && null_branch == 0)) {
        return Status::InvalidArgument(Where(path) + ": a union without a non-null branch cannot be stored");
      }
      FLOE_ASSIGN_OR_RETURN(auto* sb, As<arrow::StructBuilder>(b, path));
      const std::size_t members = n.branches.size() - (null_branch >= 0 ? 1 : 0);
      if (static_cast<std::size_t>(sb->num_fields()) != members) return Mismatch(b, path);
      std::vector<std::uint32_t> kids;
      for (std::size_t i = 0; i < n.branches.size(); ++i) {
        if (static_cast<int>(i) == null_branch) continue;
        const int m = static_cast<int>(kids.size());
        const Node& branch = *n.branches[i];
        FLOE_ASSIGN_OR_RETURN(auto k, Compile(branch, branch, sb->field_builder(m), Join(path, UnionMemberName(m))));
        kids.push_back(k);
      }
      s = Parent(Op::kUnionStruct, sb, path, kids);
    }
    plan_.steps_[s].null_branch = null_branch;
    plan_.steps_[s].branch_count = static_cast<std::int32_t>(n.branches.size());
    return s;
  }

  DecodePlan& plan_;
};

Result<DecodePlan> DecodePlan::Compile(const NodePtr& writer, const NodePtr& reader, arrow::ArrayBuilder* builder,
                                       const MappingOptions& options) {
  if (!writer || !reader || builder == nullptr) return Status::InvalidArgument("DecodePlan needs schemas and a builder");
  FLOE_ASSIGN_OR_RETURN(auto expected, ToArrowType(*reader, options));
  if (!builder->type()->Equals(*expected)) {
    return Status::InvalidArgument("builder type " + builder->type()->ToString() + " is not the type " +
                                   expected->ToString() + " of the Avro schema");
  }
  arrow::util::InitializeUTF8();
  DecodePlan plan;
  plan.writer_ = writer;
  plan.reader_ = reader;
  Compiler compiler(plan);
  FLOE_ASSIGN_OR_RETURN(plan.root_, compiler.Compile(*writer, *reader, builder, ""));
  return plan;
}

Result<DecodePlan> DecodePlan::CompileColumns(const NodePtr& writer, const NodePtr& reader,
                                              std::span<arrow::ArrayBuilder* const> columns,
                                              const MappingOptions& options) {
  if (!writer || !reader) return Status::InvalidArgument("DecodePlan needs schemas");
  FLOE_ASSIGN_OR_RETURN(auto schema, ToArrowSchema(*reader, options));
  if (static_cast<std::size_t>(schema->num_fields()) != columns.size()) {
    return Status::InvalidArgument("the record has " + std::to_string(schema->num_fields()) + " fields but " +
                                   std::to_string(columns.size()) + " column builders were given");
  }
  for (std::size_t i = 0; i < columns.size(); ++i) {
    if (columns[i] == nullptr || !columns[i]->type()->Equals(*schema->field(static_cast<int>(i))->type())) {
      return Status::InvalidArgument("column builder " + std::to_string(i) + " does not have the type " +
                                     schema->field(static_cast<int>(i))->type()->ToString() + " of field '" +
                                     schema->field(static_cast<int>(i))->name() + "'");
    }
  }
  if (writer.get() != reader.get()) {
    return Status::Unsupported("writer -> reader schema resolution is not implemented yet");
  }
  arrow::util::InitializeUTF8();
  DecodePlan plan;
  plan.writer_ = writer;
  plan.reader_ = reader;
  Compiler compiler(plan);
  std::vector<std::uint32_t> kids;
  for (std::size_t i = 0; i < columns.size(); ++i) {
    const Field& f = reader->fields[i];
    FLOE_ASSIGN_OR_RETURN(auto k, compiler.Compile(*f.node, *f.node, columns[i], f.name));
    kids.push_back(k);
  }
  Step root;
  root.op = Op::kColumns;
  root.first_child = static_cast<std::uint32_t>(plan.children_.size());
  root.child_count = static_cast<std::uint32_t>(kids.size());
  root.path = static_cast<std::uint32_t>(plan.paths_.size());
  plan.paths_.emplace_back();
  plan.children_.insert(plan.children_.end(), kids.begin(), kids.end());
  plan.steps_.push_back(root);
  plan.root_ = static_cast<std::uint32_t>(plan.steps_.size() - 1);
  return plan;
}

}  // namespace floe::avro
