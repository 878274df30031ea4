#pragma once
// JSON Schema (Confluent `schemaType: JSON`, drafts 4 to 2020-12 as far as columns need) → the
// JsonType its values decode as (json_type.h gives the Arrow types). docs/types.md lists the
// same rules for users.
//
// What a schema maps to:
//   type "boolean" → boolean; "integer" → integer (int64); "number" → number (float64);
//   "string" → string, with format "date-time" → timestamp[us, UTC], "date" → date32,
//   "time" → time64[us]; "uuid" → utf8 as written (like Avro uuid strings: no uuid marker,
//   which Floe reserves for 16-byte binary); contentEncoding "base64" → binary.
//   "object" with properties → struct, fields in the order the schema lists them; a property
//   is a required (non-nullable) column iff it is in `required` and its schema does not
//   allow null. Properties a record has beyond the schema are ignored.
//   "object" without properties but with an `additionalProperties` schema → map<utf8, T>.
//   "array" with an `items` schema → list.
//   `enum` whose values are strings (and null) → utf8; a string `const` → utf8.
//   Nullable: `type: ["null", T]`, or `oneOf`/`anyOf` with `{"type": "null"}` branches and
//   exactly one other branch (several branches that map to the same type count as one);
//   `allOf` with a single branch is that branch. `type: ["integer", "number"]` → number.
// Confluent Connect annotations (what JsonSchemaConverter writes):
//   `connect.type` int8/int16/int32 → int32, checked against the declared width (Iceberg
//   has no smaller ints); int64 → int64; float32 → float32; float64 → float64; bytes on a
//   string → binary (base64).
//   `title` org.apache.kafka.connect.data.Decimal (or `connect.parameters` with `scale`) →
//   decimal128(`connect.decimal.precision`, default 38; `scale`): read from a JSON number
//   for type "number", from base64 two's-complement bytes for type "string".
//   `title` org.apache.kafka.connect.data.Timestamp / Date / Time on an integer or number →
//   timestamp (epoch millis) / date (epoch days) / time (millis of the day).
// Fallback: a schema that says nothing about the value (`true`, `{}`, no type and no
//   keyword implying one), an object with neither properties nor an additionalProperties
//   schema, and an array without `items` hold any JSON: stored as utf8 JSON text (a
//   string as itself, anything else compacted).
// `$ref`: local JSON pointers (`#/definitions/…`, `#/$defs/…`, any `#/…`) and other
//   documents through the resolver (the part before `#` is passed to it, e.g. a registry
//   reference name; the document it returns is cached, and its own local refs resolve
//   inside it). Keywords beside a `$ref` are ignored (draft 7 semantics).
// Refused, naming the schema location (a JSON pointer such as `#/properties/a/oneOf`):
//   recursive schemas (kUnsupported: a column type is finite), `oneOf`/`anyOf`/type lists
//   with several non-null branches of different types, `patternProperties`, tuple `items`
//   / `prefixItems`, `allOf` of several schemas, non-string enums, `$ref` to an anchor,
//   the `false` schema and a schema of only null (kInvalidArgument), decimals over 38
//   digits or with a negative scale (kUnsupported), an external `$ref` without a resolver
//   (kUnsupported) or whose document cannot be had (the resolver's error).
#include <functional>
#include <string>
#include <string_view>

#include "floe/core/result.h"
#include "floe/json/json_type.h"

namespace floe::json {

// Fetches the document of an external `$ref` (the text before `#`): e.g. the lead backs it
// with the registry's schema references.
using RefResolver = std::function<Result<std::string>(const std::string& ref)>;

// The type a JSON Schema describes, as a field without a name: nullable iff the schema
// allows null at the top level. An unparsable schema is kInvalidArgument.
Result<JsonField> MapJsonSchema(std::string_view schema_text, const RefResolver& resolver = {});

}  // namespace floe::json
