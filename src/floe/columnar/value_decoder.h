#pragma once
// The decoder seam: every payload format (Avro today; Protobuf and JSON next; raw string and
// bytes) plugs into the pipeline through these two interfaces, and the pipeline never learns
// a format's internals.
//
// - PayloadSchema: one writer schema of one format, parsed once (from the Schema Registry or
//   fixed, like `value: string`): the Arrow columns its records decode into, and decoders.
// - ValueDecoder: payloads of that schema appended as rows, all or nothing per record, so a
//   record that does not decode leaves the columns as they were and the error policy decides
//   what happens to it (docs/errors.md). Errors say which rule the payload broke; the caller
//   adds where the record is (topic/partition@offset).
//
// Values decode to one column per field of a record schema; keys (and raw payloads) to a
// single column holding the whole datum.
#include <arrow/type_fwd.h>

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>

#include "floe/core/result.h"

namespace floe::columnar {

class ValueDecoder {
 public:
  virtual ~ValueDecoder() = default;
  virtual const std::shared_ptr<arrow::Schema>& schema() const = 0;
  // Appends one payload as one row, or nothing (and an error).
  virtual Status Append(std::string_view payload) = 0;
  // Whether Append would accept the payload, appending nothing (keys are checked before the
  // value is appended, so that a record goes in whole or not at all).
  virtual Status Validate(std::string_view payload) const = 0;
  // A null row (a null key). Formats whose columns cannot be null as a whole answer kUnsupported.
  virtual Status AppendNull() = 0;
  virtual std::int64_t num_rows() const = 0;
  // The rows since the last Flush; the decoder starts over.
  virtual Result<std::shared_ptr<arrow::RecordBatch>> Flush() = 0;
};

class PayloadSchema {
 public:
  virtual ~PayloadSchema() = default;
  // The columns a decoder of this schema produces (field names, Arrow types, nullability).
  virtual const std::shared_ptr<arrow::Schema>& columns() const = 0;
  // A decoder with empty columns. Each partition has its own: decoders are not shared.
  virtual Result<std::unique_ptr<ValueDecoder>> NewDecoder() const = 0;
};

enum class RawFormat { kString, kBytes };

// A payload kept as it is, in one column `column`: utf8 for kString (the bytes must be valid
// UTF-8), binary for kBytes.
std::shared_ptr<const PayloadSchema> RawPayloadSchema(RawFormat format, const std::string& column);

}  // namespace floe::columnar
