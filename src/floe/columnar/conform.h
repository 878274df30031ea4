#pragma once
// Conforming a decoded batch to the table's current Arrow schema. Records are decoded with
// their producer's (writer) schema, which after schema evolution can be older or narrower
// than the table's (docs/architecture.md, "Schema evolution"); files are always written as the
// table's current schema, so every batch passes through here on its way to a FileWriter.
#include <arrow/type_fwd.h>

#include <memory>

#include "floe/core/result.h"

namespace floe::columnar {

// Returns `batch` as a batch of `target` (normally schema::ToArrowSchema of the table
// schema, field ids in PARQUET:field_id metadata), with exactly `target` as its schema and
// as the types of its columns, nested fields included.
//  - Columns and struct children are matched by name (case-sensitive), list elements and
//    map keys/values by position, recursively; the output follows the target's order.
//  - A target field the batch lacks becomes an all-null array. That is an error when the
//    field is not nullable and some row needs a value (rows under a null parent do not).
//  - Equal types are reused without copying data, only re-labelled with the target's
//    fields (names, nullability, metadata). Nested arrays get new array headers; their
//    validity bitmap, or list offsets, are copied only for a sliced input whose offset
//    makes that necessary.
//  - A primitive of another Arrow type is cast (arrow::compute, safe casts) when it is a
//    promotion (int32 -> int64, float -> double, decimal precision widening, same scale) or
//    another Arrow encoding of the same Iceberg type, as schema::FromArrowSchema maps them
//    (int8/int16 -> int32, large_utf8/utf8_view -> utf8, timestamp[ms] -> timestamp[us],
//    dictionary -> its values, …). large_list, fixed_size_list and list_view become list.
//  - A batch column the target does not have, a column name the batch has twice, or a type
//    that cannot be converted is kInvalidArgument naming the column path (Iceberg style:
//    "points.element.x", "props.value") and both Arrow types.
//  - Nulls in a column whose target field is not nullable are kInvalidArgument too; nulls
//    under a null struct or list parent are not counted, and are dropped from the output
//    (their slots become valid, keeping meaningless values): Arrow's Parquet writer refuses
//    a non-nullable leaf with any null, even where no value is read. All-null columns made
//    for missing fields follow the same rule below their top level.
//  - Fast path: when the batch schema equals `target` but for metadata and list/map child
//    names, and no non-nullable field holds a null, the columns are only re-labelled (no
//    walk over the values; null counts are read, which may count validity bits once).
// Sliced batches (offset != 0), struct arrays with their own validity and zero-row batches
// are handled; the output arrays may have offset 0 where the input had another.
Result<std::shared_ptr<arrow::RecordBatch>> ConformBatch(const arrow::RecordBatch& batch,
                                                         const std::shared_ptr<arrow::Schema>& target);

}  // namespace floe::columnar
