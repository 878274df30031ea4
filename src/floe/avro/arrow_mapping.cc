#include "floe/avro/arrow_mapping.h"

#include <arrow/type.h>

#include "floe/core/arrow_interop.h"

namespace floe::avro {
namespace {

// Arrow's decimal widths; above 76 digits there is no Arrow (or Iceberg) type.
constexpr int kMaxDecimal128Precision = 38;
constexpr int kMaxDecimal256Precision = 76;

struct Mapped {
  std::shared_ptr<arrow::DataType> type;
  bool nullable = false;
};

std::string Where(const std::string& path) { return path.empty() ? "schema root" : "field '" + path + "'"; }

std::string JoinPath(const std::string& path, const std::string& name) {
  return path.empty() ? name : path + "." + name;
}

Result<Mapped> Map(const Node& node, const std::string& path, const MappingOptions& options);
Result<std::shared_ptr<arrow::DataType>> MapType(const Node& node, const std::string& path,
                                                 const MappingOptions& options);

Result<std::shared_ptr<arrow::DataType>> MapDecimal(const Node& node, const std::string& path) {
  if (node.precision <= kMaxDecimal128Precision) {
    return FromArrow(arrow::Decimal128Type::Make(node.precision, node.scale));
  }
  if (node.precision <= kMaxDecimal256Precision) {
    return FromArrow(arrow::Decimal256Type::Make(node.precision, node.scale));
  }
  return Status::Unsupported(Where(path) + ": decimal precision " + std::to_string(node.precision) +
                             " is over " + std::to_string(kMaxDecimal256Precision) +
                             ", the most any table format can store");
}

Result<std::shared_ptr<arrow::DataType>> MapUnion(const Node& node, const std::string& path,
                                                  const MappingOptions& options) {
  const int null_branch = node.null_branch();
  if (node.branches.empty()) {
    return Status::InvalidArgument(Where(path) + ": an empty union has no values and cannot be stored");
  }
  if (node.branches.size() == 1 && null_branch == 0) {
    return Status::InvalidArgument(Where(path) +
                                   ": a union of only null cannot be stored: tables have no null type");
  }
  if (IsOptionalUnion(node)) return MapType(*node.branches[null_branch == 0 ? 1 : 0], path, options);
  arrow::FieldVector members;
  for (std::size_t i = 0; i < node.branches.size(); ++i) {
    if (static_cast<int>(i) == null_branch) continue;
    const std::string name = UnionMemberName(static_cast<int>(members.size()));
    FLOE_ASSIGN_OR_RETURN(Mapped m, Map(*node.branches[i], JoinPath(path, name), options));
    members.push_back(arrow::field(name, m.type, /*nullable=*/true));
  }
  return arrow::struct_(members);
}

Result<std::shared_ptr<arrow::DataType>> MapType(const Node& node, const std::string& path,
                                                 const MappingOptions& options) {
  using LT = LogicalType;
  switch (node.type) {
    case Type::kNull:
      return Status::InvalidArgument(Where(path) +
                                     ": the null type cannot be stored in a table (only as a branch of a union)");
    case Type::kBoolean: return arrow::boolean();
    case Type::kInt:
      if (node.logical_type == LT::kDate) return arrow::date32();
      // Like timestamps, and like Iceberg's `time`: millis are stored as micros (x1000).
      if (node.logical_type == LT::kTimeMillis) return arrow::time64(arrow::TimeUnit::MICRO);
      return arrow::int32();
    case Type::kLong:
      switch (node.logical_type) {
        case LT::kTimeMicros: return arrow::time64(arrow::TimeUnit::MICRO);
        // Iceberg has no millisecond timestamps: millis are stored as micros (x1000).
        case LT::kTimestampMillis:
        case LT::kTimestampMicros: return arrow::timestamp(arrow::TimeUnit::MICRO, "UTC");
        case LT::kTimestampNanos: return arrow::timestamp(arrow::TimeUnit::NANO, "UTC");
        case LT::kLocalTimestampMillis:
        case LT::kLocalTimestampMicros: return arrow::timestamp(arrow::TimeUnit::MICRO);
        case LT::kLocalTimestampNanos: return arrow::timestamp(arrow::TimeUnit::NANO);
        default: return arrow::int64();
      }
    case Type::kFloat: return arrow::float32();
    case Type::kDouble: return arrow::float64();
    case Type::kBytes:
      if (node.logical_type == LT::kDecimal) return MapDecimal(node, path);
      return arrow::binary();
    case Type::kString: return arrow::utf8();  // uuid strings too: kept as written
    case Type::kEnum: return arrow::utf8();    // the symbol, not its index: readable and stable
    case Type::kFixed:
      if (node.logical_type == LT::kDecimal) return MapDecimal(node, path);
      if (node.fixed_size == 0) {
        return Status::InvalidArgument(Where(path) + ": fixed '" + node.full_name +
                                       "' has size 0, which a table cannot store");
      }
      return FromArrow(arrow::FixedSizeBinaryType::Make(static_cast<std::int32_t>(node.fixed_size)));
    case Type::kRecord: {
      // Parquet cannot write a group without children, so an empty record has no column form.
      if (node.fields.empty() && !options.allow_empty_records) {
        return Status::InvalidArgument(Where(path) + ": record '" + node.full_name +
                                       "' has no fields, which a table cannot store");
      }
      arrow::FieldVector fields;
      for (const auto& f : node.fields) {
        FLOE_ASSIGN_OR_RETURN(Mapped m, Map(*f.node, JoinPath(path, f.name), options));
        fields.push_back(arrow::field(f.name, m.type, m.nullable));
      }
      return arrow::struct_(fields);
    }
    case Type::kArray: {
      // "element" is the Iceberg/Parquet name of a list's item field.
      FLOE_ASSIGN_OR_RETURN(Mapped m, Map(*node.items, path + "[]", options));
      return arrow::list(arrow::field("element", m.type, m.nullable));
    }
    case Type::kMap: {
      FLOE_ASSIGN_OR_RETURN(Mapped m, Map(*node.values, path + "{}", options));
      return arrow::map(arrow::utf8(), arrow::field("value", m.type, m.nullable));
    }
    case Type::kUnion: return MapUnion(node, path, options);
  }
  return Status::Internal("unhandled Avro type " + std::string(TypeName(node.type)));
}

Result<Mapped> Map(const Node& node, const std::string& path, const MappingOptions& options) {
  FLOE_ASSIGN_OR_RETURN(auto type, MapType(node, path, options));
  return Mapped{std::move(type), node.type == Type::kUnion && node.null_branch() >= 0};
}

}  // namespace

bool IsOptionalUnion(const Node& node) {
  return node.type == Type::kUnion && node.branches.size() == 2 && node.null_branch() >= 0;
}

std::string UnionMemberName(int member_index) { return "member" + std::to_string(member_index); }

Result<std::shared_ptr<arrow::DataType>> ToArrowType(const Node& node, const MappingOptions& options) {
  return MapType(node, "", options);
}

Result<std::shared_ptr<arrow::Field>> ToArrowField(const std::string& name, const Node& node,
                                                   const MappingOptions& options) {
  FLOE_ASSIGN_OR_RETURN(Mapped m, Map(node, name, options));
  return arrow::field(name, m.type, m.nullable);
}

Result<std::shared_ptr<arrow::Schema>> ToArrowSchema(const Node& record, const MappingOptions& options) {
  if (record.type != Type::kRecord) {
    return Status::InvalidArgument("a table needs a record schema at the top level, got " + record.DisplayName());
  }
  FLOE_ASSIGN_OR_RETURN(auto type, ToArrowType(record, options));
  return arrow::schema(type->fields());
}

}  // namespace floe::avro
