// Floe config partition expressions: "col", "identity(col)", "day(_kafka.timestamp)",
// "bucket[16](id)", "truncate[4](name)", "void(x)". The transform part is the spec's
// transform string, so what users write is what the table metadata will say. And sort
// expressions ("amount desc nulls last"), which resolve columns the same way.
#include <cctype>
#include <sstream>
#include <string>
#include <vector>

#include "floe/core/edit_distance.h"
#include "floe/schema/field_walk_internal.h"
#include "floe/schema/partition.h"
#include "floe/schema/source_rules_internal.h"

namespace floe::schema {
namespace {

std::string_view Trim(std::string_view s) {
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.front()))) s.remove_prefix(1);
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back()))) s.remove_suffix(1);
  return s;
}

// The column by its full name, or by Java's short name that leaves out "element"/"value"
// levels; the first match in schema order wins (full names are unique in a valid schema).
std::optional<FieldContext> Resolve(const Schema& schema, std::string_view column) {
  std::optional<FieldContext> full, shortened;
  WalkFields(schema.fields, [&](const FieldContext& ctx) {
    if (!full && ctx.path == column) full = ctx;
    if (!shortened && ctx.short_path == column) shortened = ctx;
  });
  return full ? full : shortened;
}

std::string NoSuchColumn(const Schema& schema, std::string_view column) {
  std::vector<std::string> names;
  WalkFields(schema.fields, [&](const FieldContext& ctx) {
    if (!ctx.in_list_or_map) names.push_back(ctx.path);
  });
  std::string message = "no column '" + std::string(column) + "' in the schema";
  if (auto near = ClosestMatch(column, names)) message += " (did you mean '" + *near + "'?)";
  return message;
}

// pyiceberg's (and Java's UpdatePartitionSpec's) default names, with the dots of nested
// columns made underscores so that the name is a plain identifier in every engine.
std::string DefaultName(const Transform& t, const std::string& column) {
  std::string base = column;
  for (char& c : base) {
    if (c == '.') c = '_';
  }
  switch (t.kind) {
    case TransformKind::kIdentity: return base;
    case TransformKind::kBucket: return base + "_bucket_" + std::to_string(t.param);
    case TransformKind::kTruncate: return base + "_trunc_" + std::to_string(t.param);
    case TransformKind::kYear: return base + "_year";
    case TransformKind::kMonth: return base + "_month";
    case TransformKind::kDay: return base + "_day";
    case TransformKind::kHour: return base + "_hour";
    case TransformKind::kVoid: return base + "_null";
  }
  return base;
}

Result<PartitionField> Parse(std::string_view text, const Schema& schema, int field_id) {
  if (text.empty()) return Status::InvalidArgument("it is empty");
  std::string_view transform_text = "identity";
  std::string_view column = text;
  if (auto open = text.find('('); open != std::string_view::npos) {
    if (text.back() != ')') {
      return Status::InvalidArgument("expected transform(column), as in day(ts) or bucket[16](id)");
    }
    transform_text = Trim(text.substr(0, open));
    column = Trim(text.substr(open + 1, text.size() - open - 2));
    if (transform_text.empty()) return Status::InvalidArgument("no transform before '('");
    if (column.empty()) return Status::InvalidArgument("no column between the parentheses");
  }
  Result<Transform> transform = Transform::Parse(transform_text);
  // In a config an unknown transform is a mistake, not a newer spec's feature.
  if (!transform.ok()) return Status::InvalidArgument(transform.status().message());

  std::optional<FieldContext> source = Resolve(schema, column);
  if (!source) return Status::InvalidArgument(NoSuchColumn(schema, column));
  FLOE_ASSIGN_OR_RETURN(TypePtr result_type, PartitionSourceType(*source, *transform));
  (void)result_type;  // only its validity matters here

  PartitionField field;
  field.source_id = source->field->id;
  field.field_id = field_id;
  field.transform = *transform;
  field.name = DefaultName(*transform, source->path);
  // As Java requires: a partition name may equal a column name only for identity of that
  // very column, or readers could not tell the partition value from the column.
  if (const NestedField* clash = schema.FindByName(field.name);
      clash && !(transform->kind == TransformKind::kIdentity && clash->id == field.source_id)) {
    return Status::InvalidArgument("its partition field name '" + field.name +
                                   "' is already the name of a column of the schema");
  }
  return field;
}

// "col [asc|desc] [nulls first|nulls last]": the words after the column, lower-cased.
struct SortWords {
  std::string column;
  std::vector<std::string> rest;
};

SortWords SplitSortExpression(std::string_view expr) {
  std::istringstream in{std::string(expr)};
  SortWords out;
  in >> out.column;
  for (std::string word; in >> word;) {
    for (char& c : word) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    out.rest.push_back(word);
  }
  return out;
}

Result<SortField> ParseSortField(std::string_view text, const Schema& schema) {
  const SortWords words = SplitSortExpression(text);
  if (words.column.empty()) return Status::InvalidArgument("it is empty");
  SortField field;
  std::size_t i = 0;
  if (i < words.rest.size() && (words.rest[i] == "asc" || words.rest[i] == "desc")) {
    field.direction = words.rest[i++] == "desc" ? SortDirection::kDesc : SortDirection::kAsc;
  }
  field.null_order = field.direction == SortDirection::kAsc ? NullOrder::kNullsFirst : NullOrder::kNullsLast;
  if (i + 1 < words.rest.size() && words.rest[i] == "nulls" &&
      (words.rest[i + 1] == "first" || words.rest[i + 1] == "last")) {
    field.null_order = words.rest[i + 1] == "first" ? NullOrder::kNullsFirst : NullOrder::kNullsLast;
    i += 2;
  }
  if (i != words.rest.size()) {
    return Status::InvalidArgument("expected a column, then asc or desc, then nulls first or nulls last");
  }
  std::optional<FieldContext> source = Resolve(schema, words.column);
  if (!source) return Status::InvalidArgument(NoSuchColumn(schema, words.column));
  if (source->in_list_or_map) {
    return Status::InvalidArgument("'" + source->path + "' is inside " + source->container_kind + " '" +
                                   source->container_path + "': rows cannot be sorted by it");
  }
  if (!source->field->type || !source->field->type->is_primitive()) {
    return Status::InvalidArgument("'" + source->path + "' is not a primitive column");
  }
  field.source_id = source->field->id;
  return field;
}

}  // namespace

Result<SortOrder> ParseSortOrder(const std::vector<std::string>& exprs, const Schema& schema, int order_id) {
  SortOrder order;
  order.order_id = order_id;
  for (const auto& expr : exprs) {
    auto field = ParseSortField(Trim(expr), schema);
    if (!field.ok()) return field.status().WithContext("sort expression '" + std::string(Trim(expr)) + "'");
    order.fields.push_back(*field);
  }
  return order;
}

Result<PartitionField> ParsePartitionExpression(std::string_view expr, const Schema& schema, int field_id) {
  const std::string_view text = Trim(expr);
  Result<PartitionField> field = Parse(text, schema, field_id);
  if (!field.ok()) return field.status().WithContext("partition expression '" + std::string(text) + "'");
  return field;
}

}  // namespace floe::schema
