#pragma once
// Which decoder a record gets: the seam of columnar/value_decoder.h, chosen per topic from its
// `value:` / `key:` format and, for formats carried by the Schema Registry, per schema from the
// registry's schemaType. Adding a format (Protobuf, JSON Schema) means one branch here and
// one PayloadSchema implementation in its module; nothing else in the pipeline changes.
#include <memory>
#include <string>

#include "floe/columnar/value_decoder.h"
#include "floe/core/config.h"
#include "floe/core/result.h"
#include "floe/registry/client.h"

namespace floe::pipeline {

enum class PayloadRole { kValue, kKey };

// Whether records of this format carry a Schema Registry id (Confluent wire format).
bool UsesRegistry(PayloadFormat format);

// The formats `floe run` decodes today, with a clear refusal for the others (checked at start).
Status CheckDecodable(PayloadFormat format, PayloadRole role);

// A registry schema as a PayloadSchema: values become one column per field, keys one column
// named `column`. kInvalidArgument (a bad record under the error policy) when the schema's
// type is not the topic's configured format or cannot be mapped to columns.
Result<std::shared_ptr<const columnar::PayloadSchema>> RegistryPayloadSchema(PayloadFormat configured,
                                                                             const registry::RegisteredSchema& schema,
                                                                             PayloadRole role, const std::string& column);

}  // namespace floe::pipeline
