#pragma once
// Walking over a datum of any schema without decoding it: to find where a datum ends (in a
// container file block, datums follow each other with no length in between) and to check
// that bytes are one well-formed datum of a schema before they are written to a file.
//
// Unlike the decoders, this handles every Avro schema, also the ones a table cannot
// store (null, empty records, fixed(0)): metadata files have them.
#include <cstddef>

#include "floe/avro/binary_reader.h"
#include "floe/avro/schema.h"
#include "floe/core/status.h"

namespace floe::avro {

// Reads one datum of `schema` from `in`, leaving `in` after it. Checks what the binary
// encoding requires: varints, lengths within the data, boolean bytes, union branch and
// enum indices that exist, and array/map blocks whose byte size (when given) matches
// their items. String contents are not checked for UTF-8 (the decoders do that). Errors
// name the field and the byte, like the decoders'.
Status SkipDatum(const Node& schema, BinaryReader& in);

// True when every datum of the schema is zero bytes long: null, fixed(0), and records
// of only such fields. Every other schema takes at least one byte per datum.
bool IsAlwaysEmpty(const Node& schema);

}  // namespace floe::avro
