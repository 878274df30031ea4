#pragma once
// Fresh field-id assignment in the order Java's TypeUtil.assignFreshIds and pyiceberg's
// assign_fresh_schema_ids use, so a table Floe creates numbers its columns as theirs would.
// Private to the schema module.
#include <unordered_map>
#include <vector>

#include "floe/schema/types.h"

namespace floe::schema {

// Renumbers `fields` and everything under them from `next_id` (advanced past the last id
// used). Within a struct all fields are numbered before any of their children; a list's
// element, or a map's key and value, before their own children. `old_to_new`, when given,
// records each old id's first new id.
std::vector<NestedField> ReassignIds(const std::vector<NestedField>& fields, int& next_id,
                                     std::unordered_map<int, int>* old_to_new);

}  // namespace floe::schema
