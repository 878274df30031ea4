// Partition specs and sort orders to and from the spec's JSON (Appendix C).
#include <string>
#include <unordered_map>
#include <unordered_set>

#include "floe/core/ascii.h"
#include "floe/schema/json.h"
#include "floe/schema/json_wording_internal.h"

namespace floe::schema {

using nlohmann::json;
namespace ja = json_access;

namespace {

// Java's first partition field id; v1 specs without ids are numbered from here.
constexpr int kFirstPartitionFieldId = 1000;

// "source-id", or v3's "source-ids" holding exactly one id: multi-argument transforms do
// not exist yet in any released spec, so more than one is Unsupported.
Result<int> ParseSourceId(const json& j, const std::string& where) {
  if (ja::Find(j, "source-id")) return ja::RequireInt(j, "source-id", In(where));
  FLOE_ASSIGN_OR_RETURN(const json* ids, ja::OptionalArray(j, "source-ids", In(where)));
  if (!ids) return ja::Missing("source-id", In(where));
  if (ids->size() != 1) {
    return Status::Unsupported(where + ": transforms of " + std::to_string(ids->size()) +
                               " source columns are not supported (\"source-ids\" must hold exactly one id)");
  }
  return ja::AsInt((*ids)[0], ja::Member(In(where), "source-ids") + "[0]", kJsonWording);
}

Result<Transform> ParseTransformMember(const json& j, const std::string& where) {
  FLOE_ASSIGN_OR_RETURN(std::string text, ja::RequireString(j, "transform", In(where)));
  Result<Transform> t = Transform::Parse(text);
  if (!t.ok()) return t.status().WithContext(where);
  return t;
}

}  // namespace

Result<PartitionSpec> PartitionSpecFromJson(const json& j) {
  FLOE_RETURN_IF_ERROR(ja::ExpectObject(j, In("partition spec")));
  PartitionSpec spec;
  FLOE_ASSIGN_OR_RETURN(spec.spec_id, ja::RequireInt(j, "spec-id", In("partition spec")));
  const std::string spec_where = "partition spec " + std::to_string(spec.spec_id);
  FLOE_ASSIGN_OR_RETURN(const json* fields, ja::RequireArray(j, "fields", In(spec_where)));
  int with_ids = 0;
  for (std::size_t i = 0; i < fields->size(); ++i) {
    const json& fj = (*fields)[i];
    std::string where = spec_where + " field " + std::to_string(i);
    FLOE_RETURN_IF_ERROR(ja::ExpectObject(fj, In(where)));
    PartitionField f;
    FLOE_ASSIGN_OR_RETURN(f.name, ja::RequireString(fj, "name", In(where)));
    if (f.name.empty()) return Status::InvalidArgument(where + ": a partition field name must not be empty");
    where += " ('" + f.name + "')";
    FLOE_ASSIGN_OR_RETURN(f.transform, ParseTransformMember(fj, where));
    FLOE_ASSIGN_OR_RETURN(f.source_id, ParseSourceId(fj, where));
    FLOE_ASSIGN_OR_RETURN(std::optional<int> field_id, ja::OptionalInt(fj, "field-id", In(where)));
    if (field_id) {
      f.field_id = *field_id;
      ++with_ids;
    } else {
      // v1 metadata did not store partition field ids; Java numbers them from 1000.
      f.field_id = kFirstPartitionFieldId + static_cast<int>(i);
    }
    spec.fields.push_back(std::move(f));
  }
  if (with_ids != 0 && with_ids != static_cast<int>(spec.fields.size())) {
    return Status::InvalidArgument(spec_where + ": " + std::to_string(spec.fields.size() - with_ids) + " of " +
                                   std::to_string(spec.fields.size()) +
                                   " fields have no \"field-id\" (either all or none may omit it)");
  }
  std::unordered_map<int, std::string> ids;
  std::unordered_set<std::string> names;
  for (const auto& f : spec.fields) {
    auto [it, inserted] = ids.emplace(f.field_id, f.name);
    if (!inserted) {
      return Status::InvalidArgument(spec_where + ": partition field id " + std::to_string(f.field_id) +
                                     " is used twice: by '" + it->second + "' and by '" + f.name + "'");
    }
    if (!names.insert(f.name).second) {
      return Status::InvalidArgument(spec_where + ": partition field name '" + f.name + "' is used twice");
    }
  }
  return spec;
}

json PartitionSpecToJson(const PartitionSpec& spec) {
  json fields = json::array();
  for (const auto& f : spec.fields) {
    fields.push_back(json{{"name", f.name},
                          {"transform", f.transform.ToString()},
                          {"source-id", f.source_id},
                          {"field-id", f.field_id}});
  }
  return json{{"spec-id", spec.spec_id}, {"fields", std::move(fields)}};
}

Result<SortOrder> SortOrderFromJson(const json& j) {
  FLOE_RETURN_IF_ERROR(ja::ExpectObject(j, In("sort order")));
  SortOrder order;
  FLOE_ASSIGN_OR_RETURN(order.order_id, ja::RequireInt(j, "order-id", In("sort order")));
  const std::string order_where = "sort order " + std::to_string(order.order_id);
  FLOE_ASSIGN_OR_RETURN(const json* fields, ja::RequireArray(j, "fields", In(order_where)));
  for (std::size_t i = 0; i < fields->size(); ++i) {
    const json& fj = (*fields)[i];
    const std::string where = order_where + " field " + std::to_string(i);
    FLOE_RETURN_IF_ERROR(ja::ExpectObject(fj, In(where)));
    SortField f;
    FLOE_ASSIGN_OR_RETURN(f.transform, ParseTransformMember(fj, where));
    FLOE_ASSIGN_OR_RETURN(f.source_id, ParseSourceId(fj, where));
    // Java accepts any letter case here; so do we.
    FLOE_ASSIGN_OR_RETURN(std::string direction, ja::RequireString(fj, "direction", In(where)));
    if (AsciiLower(direction) == "asc") {
      f.direction = SortDirection::kAsc;
    } else if (AsciiLower(direction) == "desc") {
      f.direction = SortDirection::kDesc;
    } else {
      return Status::InvalidArgument(where + ": \"direction\" must be \"asc\" or \"desc\", got \"" + direction + "\"");
    }
    FLOE_ASSIGN_OR_RETURN(std::string nulls, ja::RequireString(fj, "null-order", In(where)));
    if (AsciiLower(nulls) == "nulls-first") {
      f.null_order = NullOrder::kNullsFirst;
    } else if (AsciiLower(nulls) == "nulls-last") {
      f.null_order = NullOrder::kNullsLast;
    } else {
      return Status::InvalidArgument(where + ": \"null-order\" must be \"nulls-first\" or \"nulls-last\", got \"" +
                                     nulls + "\"");
    }
    order.fields.push_back(std::move(f));
  }
  // The spec reserves order id 0 for "unsorted", and only for it.
  if (order.order_id == 0 && !order.fields.empty()) {
    return Status::InvalidArgument("sort order 0 is reserved for the unsorted order but has " +
                                   std::to_string(order.fields.size()) + " fields");
  }
  if (order.order_id != 0 && order.fields.empty()) {
    return Status::InvalidArgument(order_where + " has no fields; the unsorted order must have id 0");
  }
  return order;
}

json SortOrderToJson(const SortOrder& order) {
  json fields = json::array();
  for (const auto& f : order.fields) {
    fields.push_back(json{{"transform", f.transform.ToString()},
                          {"source-id", f.source_id},
                          {"direction", f.direction == SortDirection::kAsc ? "asc" : "desc"},
                          {"null-order", f.null_order == NullOrder::kNullsFirst ? "nulls-first" : "nulls-last"}});
  }
  return json{{"order-id", order.order_id}, {"fields", std::move(fields)}};
}

}  // namespace floe::schema
