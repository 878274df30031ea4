#pragma once
// How an Avro type is stored as an Arrow type: the rules users see in docs/types.md.
// The decoders build exactly these types, so any change here is a change to every table.
#include <arrow/type_fwd.h>

#include <memory>
#include <string>

#include "floe/avro/schema.h"
#include "floe/core/result.h"

namespace floe::avro {

struct MappingOptions {
  // A record without fields becomes an Arrow struct without children instead of an
  // error. Off for table data (Parquet cannot store an empty group); on for reading
  // metadata files such as the Iceberg manifests of unpartitioned tables, whose
  // `partition` record has no fields (ContainerFileReader::ReadAll).
  bool allow_empty_records = false;
};

// The Arrow type of a value of this schema. A union of null and one type maps to that
// type (its nullability is a property of the field: see ToArrowField). Types a table
// cannot hold (null, recursive, empty records, zero-size fixed, decimals over 76
// digits) are kInvalidArgument/kUnsupported errors naming the field path.
Result<std::shared_ptr<arrow::DataType>> ToArrowType(const Node& node, const MappingOptions& options = {});

// A field of that type, nullable iff the node is a union with a null branch.
Result<std::shared_ptr<arrow::Field>> ToArrowField(const std::string& name, const Node& node,
                                                   const MappingOptions& options = {});

// One field per record field, for a top-level record (the columns of a table).
Result<std::shared_ptr<arrow::Schema>> ToArrowSchema(const Node& record, const MappingOptions& options = {});

// A union of exactly null and one other type, in either order: stored as that type.
bool IsOptionalUnion(const Node& node);

// Any other union is stored as a struct with one nullable member per non-null branch,
// named by the branch's position among the non-null branches: ["null","int","string"]
// gives struct<member0: int32, member1: utf8>, nullable because of the null branch.
std::string UnionMemberName(int member_index);

}  // namespace floe::avro
