#pragma once
// Walking a schema with each field's full path and what encloses it: the facts behind the
// spec's rules for identifier fields, partition and sort sources (no list/map ancestors,
// no optional struct ancestors for identifiers). Private to the schema module.
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "floe/core/status.h"
#include "floe/schema/types.h"

namespace floe::schema {

struct FieldContext {
  const NestedField* field = nullptr;
  // Iceberg's full name: struct names joined by '.', with "element" / "key" / "value" for
  // list and map children ("tags.element", "props.value.x"), as Java's name index spells it.
  std::string path;
  // Java's short name as well: "element" / "value" left out where they hold a struct
  // ("points.x" for "points.element.x"). Equal to `path` outside lists and maps.
  std::string short_path;
  bool in_list_or_map = false;   // some ancestor is a list or map
  bool in_optional_struct = false;  // some ancestor field is an optional struct
  // The outermost list/map ancestor's path, for messages ("inside list 'tags'").
  std::string container_path;
  std::string container_kind;  // "list" or "map", empty when none
};

// A child's full path: `parent` and `name` joined by '.', or just `name` at the top level.
std::string JoinFieldPath(const std::string& parent, const std::string& name);

// Calls `visit` for every field, parents before children.
void WalkFields(const std::vector<NestedField>& fields, const std::function<void(const FieldContext&)>& visit);

// The context of the field with this id, if there is one.
std::optional<FieldContext> LocateField(const Schema& schema, int id);

// Every field id is used once (structs, list elements, map keys and values alike).
Status CheckUniqueFieldIds(const std::vector<NestedField>& fields);
// Within each struct, field names are unique (case-sensitive, like Java).
Status CheckUniqueNames(const std::vector<NestedField>& fields, const std::string& parent_path = "");
// The spec's rules for identifier-field-ids.
Status CheckIdentifierFields(const Schema& schema);

}  // namespace floe::schema
