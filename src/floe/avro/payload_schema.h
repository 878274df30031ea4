#pragma once
// Avro as a payload format of the decoder seam (columnar/value_decoder.h): Confluent Avro
// values and keys, decoded straight into Arrow builders (record_batch_decoder.h,
// datum_decoder.h) with no intermediate value tree.
#include <memory>
#include <string>

#include "floe/avro/schema.h"
#include "floe/columnar/value_decoder.h"
#include "floe/core/result.h"

namespace floe::avro {

// A record schema's fields as columns, one per field (types: docs/types.md). A schema that is
// not a record is kInvalidArgument: Floe maps a record's fields to table columns.
Result<std::shared_ptr<const columnar::PayloadSchema>> RecordPayloadSchema(const NodePtr& record);

// A datum of any schema as one nullable column `column` (records become structs): for keys,
// whose Confluent schemas are often primitives. A null row is a null key.
Result<std::shared_ptr<const columnar::PayloadSchema>> DatumPayloadSchema(const NodePtr& schema, const std::string& column);

}  // namespace floe::avro
