#pragma once
// JSON as a payload format of the decoder seam (columnar/value_decoder.h): Confluent JSON
// Schema values and keys (schema_mapping.h), and schemaless JSON decoded against an inferred
// type (inference.h). Decoding: record_decoder.h.
#include <memory>
#include <string>
#include <string_view>

#include "floe/columnar/value_decoder.h"
#include "floe/core/result.h"
#include "floe/json/json_type.h"
#include "floe/json/schema_mapping.h"

namespace floe::json {

// Values: the schema must describe an object (or a nullable one: a null value is a tombstone,
// for the caller); one column per property. Anything else is kInvalidArgument: Floe maps an
// object's properties to table columns. External `$ref`s go through `resolver`.
Result<std::shared_ptr<const columnar::PayloadSchema>> JsonSchemaPayloadSchema(std::string_view schema_text,
                                                                               const RefResolver& resolver = {});

// Keys: a value of any schema as one nullable column `column` (objects become structs); a
// null row is a null key.
Result<std::shared_ptr<const columnar::PayloadSchema>> JsonSchemaKeyPayloadSchema(std::string_view schema_text,
                                                                                  const std::string& column,
                                                                                  const RefResolver& resolver = {});

// Schemaless values decoded against `object`, the type inferred so far (inference.h): one
// column per field that has one. Properties the type does not know are ignored, so callers
// check each record with FitOrWiden first and switch to the widened type's PayloadSchema
// when it returns one.
Result<std::shared_ptr<const columnar::PayloadSchema>> InferredPayloadSchema(const JsonType& object);

}  // namespace floe::json
