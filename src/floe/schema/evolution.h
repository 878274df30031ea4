#pragma once
// Schema evolution (docs/architecture.md, "Schema evolution"): merging a producer's new schema into a
// table's current schema by the compatible changes Floe applies on its own. Anything else
// is an error the pipeline turns into a suspended topic for an operator to resolve.
#include <string>
#include <vector>

#include "floe/core/result.h"
#include "floe/schema/types.h"

namespace floe::schema {

struct SchemaMerge {
  // The table schema after the merge. Unchanged: a copy of the table schema, same
  // schema_id and ids. Changed: schema_id is table.schema_id + 1, a placeholder: the caller
  // must give it an id no other schema of the table uses (highest existing + 1).
  Schema schema;
  bool changed = false;
  // One line per change, for logs and the status API, in field order:
  //   "added optional column 'address.zip' (string)"
  //   "promoted 'qty' int -> long"
  //   "made 'note' optional (not in the incoming schema)"
  //   "made 'note' optional (optional in the incoming schema)"
  std::vector<std::string> changes;
};

// Merges `incoming` (a writer schema converted to a table schema; its field ids are
// ignored) into `table`. Fields are matched by exact, case-sensitive name, recursively
// through structs, list elements and map keys/values. Paths in messages are Iceberg's full
// names ("points.element.x", "props.value").
//  - A field only in `incoming` is appended at the end of its struct as a new OPTIONAL
//    field with fresh ids (from last_column_id + 1: the field, then its descendants in
//    Java's assignFreshIds order); its descendants keep their own requiredness, its doc is
//    kept, defaults are not taken.
//  - A table field missing from `incoming` stays, made optional if it was required.
//  - Table int / float / decimal(P,S) with incoming long / double / decimal(P',S), P' > P,
//    promotes the table field. The narrower direction (incoming int for a table long,
//    float for double, smaller precision with equal scale) is compatible and changes nothing.
//  - Incoming optional relaxes a required table field; incoming required for an optional
//    table field changes nothing.
//  - Map keys cannot change at all (as in Java): a merge that would change one is an error.
//  - Identifier fields must stay required: a merge that would make one (or a struct holding
//    one) optional is an error.
//  - Anything else (other type changes, a scale change, struct vs primitive, list vs map, …)
//    is kInvalidArgument naming the field and both types: "field 'price': cannot change
//    decimal(10,2) to decimal(10,3): only int -> long, float -> double and decimal
//    precision widening are allowed".
// Docs, defaults and identifier fields of existing fields are the table's.
// `last_column_id` is the table metadata's last-column-id; the highest id in `table` is
// used instead when it is larger. It is advanced past the new ids only when fields were
// added, and left alone when the merge fails.
Result<SchemaMerge> MergeSchemas(const Schema& table, const Schema& incoming, int& last_column_id);

}  // namespace floe::schema
