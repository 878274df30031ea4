#pragma once
// The spec's rule for partition (and sort) sources: a primitive column, possibly inside
// structs, never inside a list or map (one row would have many values). Private to the
// schema module.
#include "floe/core/result.h"
#include "floe/schema/field_walk_internal.h"
#include "floe/schema/partition.h"

namespace floe::schema {

// The partition value type of `transform` on the located column, or why it cannot be a
// source. Messages name the column by its full path.
Result<TypePtr> PartitionSourceType(const FieldContext& source, const Transform& transform);

}  // namespace floe::schema
