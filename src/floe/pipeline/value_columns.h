#pragma once
// Columns decoded from one payload format: the value (or the key) of each record goes in
// with Append, all or nothing, and comes out as a RecordBatch of the format's own columns
// (for Avro, the writer schema's fields; for string/bytes, one column). A record that does
// not decode leaves the columns as they were, so the caller's error policy decides what
// happens to it (docs/errors.md).
#include <arrow/type_fwd.h>

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>

#include "floe/avro/schema.h"
#include "floe/core/config.h"
#include "floe/core/result.h"

namespace floe::pipeline {

class ValueColumns {
 public:
  virtual ~ValueColumns() = default;
  virtual const std::shared_ptr<arrow::Schema>& schema() const = 0;
  virtual Status Append(std::string_view payload) = 0;
  // Checks that Append would accept the payload, appending nothing (for the key, which is
  // checked before the value is appended so that a record goes in whole or not at all).
  virtual Status Validate(std::string_view payload) const = 0;
  // A null row (a null key). Formats whose columns cannot be null as a whole answer kUnsupported.
  virtual Status AppendNull() = 0;
  virtual std::int64_t num_rows() const = 0;
  // The rows since the last Flush; the columns start over.
  virtual Result<std::shared_ptr<arrow::RecordBatch>> Flush() = 0;
};

// An Avro record schema's fields, decoded straight into Arrow builders (avro/datum_decoder.h).
Result<std::unique_ptr<ValueColumns>> MakeAvroColumns(const avro::NodePtr& record_schema);
// One column `name`: utf8 for kString (the bytes must be valid UTF-8), binary for kBytes.
Result<std::unique_ptr<ValueColumns>> MakeRawColumns(PayloadFormat format, const std::string& name);
// One column `name` holding an Avro datum of any schema (records become structs): for keys,
// whose Confluent schemas are often primitives. A null row is a null key.
Result<std::unique_ptr<ValueColumns>> MakeAvroDatumColumn(const avro::NodePtr& schema, const std::string& name);

}  // namespace floe::pipeline
