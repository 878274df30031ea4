#pragma once
// JSON payloads decoded straight into Arrow builders (docs/architecture.md: no value tree
// between the bytes and the columns), for JSON Schema and schemaless JSON alike: both give a
// JsonType (json_type.h), and this decoder follows it.
//
// What holds for every payload:
// - It is parsed whole with simdjson (DOM, one parser reused per decoder): invalid JSON,
//   invalid UTF-8, trailing bytes after the value, numbers beyond 64-bit integers or
//   doubles are refused before any value is looked at.
// - A payload that does not match the type appends nothing and is kInvalidArgument naming
//   the JSON path and the rule: "$.amount: expected number, found string",
//   "$.id: the required property is missing", "$.n: 300 is out of range for int8",
//   "$.ts: 'yesterday' is not an RFC 3339 date-time", "$.items[2]: expected integer,
//   found null".
// - Properties the type does not list are ignored (schemaless callers check for new ones
//   first: inference.h). A listed property given twice in one object is refused rather
//   than guessed; map keys are taken as they come.
// - null is accepted where the field is nullable, and a missing property is null; both are
//   refused for required fields. An open (kNull) field accepts only null, and an object or
//   array of them only nulls inside.
// - Integers: only JSON integers (no fraction or exponent: 1.0 is refused for an integer
//   column rather than guessed), checked against the column's declared width. Numbers
//   (float64) accept integers too; float32 refuses values beyond its range.
// - Decimals: an integer is exact at any precision; a number with a fraction is read as a
//   double, exact up to 15 significant digits, refused beyond (scalar_parse_internal.h);
//   more fraction digits than the scale, or more digits than the precision, are refused
//   (never rounded).
// - Text forms: RFC 3339 date-times become UTC microseconds (sub-microsecond digits are
//   dropped); dates and times as in scalar_parse_internal.h; base64 as RFC 4648.
// - JSON text columns hold a string as itself and any other value as compact JSON
//   (simdjson's minified form: numbers as parsed, e.g. 1e2 → 100.0).
//
// All or nothing, like the Avro decoder: a record is decoded optimistically and, when it
// fails halfway, the columns are rebuilt from the rows before it; after one such rollback
// each record is checked first (same walk, appends compiled out) until the next Flush, so
// that a run of bad records never makes a batch quadratic.
#include <arrow/memory_pool.h>
#include <arrow/type_fwd.h>

#include <memory>
#include <string>

#include "floe/columnar/value_decoder.h"
#include "floe/core/result.h"
#include "floe/json/json_type.h"

namespace floe::json {

class JsonRecordDecoder final : public columnar::ValueDecoder {
 public:
  // Values: the payload must be an object; one column per field of `object` that has a
  // column (ToArrowSchema(object)). AppendNull is kUnsupported.
  static Result<std::unique_ptr<JsonRecordDecoder>> ForColumns(const JsonType& object,
                                                               arrow::MemoryPool* pool = arrow::default_memory_pool());
  // Keys: the whole payload in one nullable column `column` of the field's type (a null row
  // is a null key; the JSON value null only if the field is nullable).
  static Result<std::unique_ptr<JsonRecordDecoder>> ForDatum(const JsonField& field, const std::string& column,
                                                             arrow::MemoryPool* pool = arrow::default_memory_pool());
  ~JsonRecordDecoder() override;

  const std::shared_ptr<arrow::Schema>& schema() const override;
  Status Append(std::string_view payload) override;
  Status Validate(std::string_view payload) const override;
  Status AppendNull() override;
  std::int64_t num_rows() const override;
  Result<std::shared_ptr<arrow::RecordBatch>> Flush() override;

 private:
  struct Impl;
  explicit JsonRecordDecoder(std::unique_ptr<Impl> impl);
  std::unique_ptr<Impl> impl_;
};

}  // namespace floe::json
