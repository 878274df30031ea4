#pragma once
// Schemaless JSON (`value: json`): the columns are inferred from the records themselves.
//
// Design. The inferred schema is a JsonType (json_type.h), the same model JSON Schema maps
// to, so one decoder (record_decoder.h) serves both. The pipeline keeps the current type per
// topic and, for each record, asks FitOrWiden: nothing means the record decodes into the
// current columns; a type means the record needs a wider one, and the caller switches writer
// schemas (flush, EnsureColumns with the new columns, InferredPayloadSchema of the new type)
// before decoding it. The current type survives restarts as the table's schema:
// InferredFromColumns reads it back.
//
// Inferring one value:
//   object → object, its properties in the record's order, every one nullable (a record
//   may leave any property out); array → array of the merge of its elements' types;
//   integer → integer (int64); a number with a fraction or exponent, or an integer beyond
//   int64 → number (float64); string → string; boolean → boolean; null → null, a type still
//   open: it has no column (json_type.h) until a record gives it one. So do `{}` and `[]`.
//   Nesting deeper than `max_depth` is refused.
// Merging a new type into the current one (Merge):
//   null + T → T; same → same; integer + number → number; object + object → the current
//   fields in their order, merged, then the new ones appended (nullable); array + array →
//   merged elements; JSON text + anything → JSON text. Columns read back from a table keep
//   their type when a value of the JSON kind they are read from arrives: a timestamp
//   column takes strings, an int32 column integers, a float32 or decimal column numbers, a
//   map column objects; the decoder then checks each value (format, range) and refuses a
//   bad one as a bad record.
//   Anything else is a conflict: kInvalidArgument naming the path ("$.a.b: a string where
//   the column is object"), or, with conflicts_as_text (`json_conflicts: as_text`), the
//   column becomes JSON text: utf8 holding a string as itself and any other value as its
//   JSON text. A string column stays utf8 then, so only the decoder changes; other
//   columns change type, which the table may refuse (its evolution rules apply).
// Note for tables: Iceberg cannot promote long to double, so an integer column that later
// sees a fraction widens here but is refused by table evolution (error mode).
#include <arrow/type_fwd.h>

#include <memory>
#include <optional>
#include <string_view>

#include "floe/core/result.h"
#include "floe/json/json_type.h"

namespace floe::json {

struct InferenceOptions {
  bool conflicts_as_text = false;  // json_conflicts: as_text
  int max_depth = 64;              // nesting of objects and arrays in one record
};

// The merge of two inferred types (above). Pure: no parsing.
Result<JsonType> Merge(const JsonType& current, const JsonType& next, const InferenceOptions& options = {});

// A table's columns (an Arrow schema as the sink reports it) as the type inferred so far.
// Types JSON cannot produce or read (e.g. fixed-size binary) are kUnsupported.
Result<JsonType> InferredFromColumns(const arrow::Schema& columns);

// Infers record types and checks records against the current type. Holds one parser: one per
// partition, like decoders.
class Inference {
 public:
  explicit Inference(InferenceOptions options = {});
  ~Inference();
  Inference(Inference&&) noexcept;
  Inference& operator=(Inference&&) noexcept;

  // The type of one record, which must be a JSON object. Invalid JSON is kInvalidArgument.
  Result<JsonType> Infer(std::string_view payload);

  // nullopt when the record decodes into `current`'s columns as they are; otherwise the
  // widened type Merge(current, Infer(payload)), whose columns may be the same (a value
  // kept as text) or more. A record that cannot be merged is the conflict error. Checking
  // a record that fits allocates nothing: only records that widen are inferred.
  Result<std::optional<JsonType>> FitOrWiden(const JsonType& current, std::string_view payload);

  const InferenceOptions& options() const;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace floe::json
