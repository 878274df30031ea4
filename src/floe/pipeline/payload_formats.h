#pragma once
// Which decoder a record gets: the seam of columnar/value_decoder.h, chosen per topic from its
// `value:` / `key:` format and, for formats carried by the Schema Registry, per schema from the
// registry's schemaType (`auto` takes whatever the schema is; a named format requires its own
// type). Adding a format means one branch here and one PayloadSchema implementation in its
// module; nothing else in the pipeline changes.
#include <memory>
#include <string>
#include <string_view>

#include "floe/columnar/value_decoder.h"
#include "floe/core/config.h"
#include "floe/core/result.h"
#include "floe/registry/client.h"

namespace floe::pipeline {

enum class PayloadRole { kValue, kKey };

// The formats `floe run` decodes today, with a clear refusal for the others (checked at start).
Status CheckDecodable(PayloadFormat format, PayloadRole role);

// Keys without a registry (`key: string | bytes | json`): one column `column`, of utf8, binary
// or JSON text (any JSON value, a string as itself, anything else as its compact text).
Result<std::shared_ptr<const columnar::PayloadSchema>> UnframedKeyPayloadSchema(PayloadFormat format,
                                                                                const std::string& column);

// What one record's bytes after the schema id decode as.
struct SelectedSchema {
  // Tells apart the writer schemas of one registry id (Protobuf: the message index path,
  // e.g. "1.0"); empty for formats with one schema per id.
  std::string variant;
  std::shared_ptr<const columnar::PayloadSchema> schema;
  std::string_view payload;  // the bytes to decode
};

// A registry schema parsed once: picks the PayloadSchema of each record (values become one
// column per field, keys one column named `column`).
class RegistrySchema {
 public:
  virtual ~RegistrySchema() = default;
  // kInvalidArgument: the record's framing does not fit the schema (a bad record).
  virtual Result<SelectedSchema> Select(std::string_view after_schema_id) = 0;
};

// kInvalidArgument (a bad record under the error policy) when the schema's type is not the
// topic's configured format or cannot be mapped to columns; kUnavailable when a reference
// cannot be fetched yet. `message`: the topic's `message:` (Protobuf values).
Result<std::unique_ptr<RegistrySchema>> ParseRegistrySchema(PayloadFormat configured,
                                                            const registry::RegisteredSchema& schema, PayloadRole role,
                                                            const std::string& column, registry::Client& client,
                                                            const std::string& message = {});

}  // namespace floe::pipeline
