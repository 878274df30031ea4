#pragma once
// Decoding Avro binary datums straight into Arrow builders (docs/architecture.md: no intermediate
// value tree). The Arrow types are those of arrow_mapping.h; see docs/types.md.
#include <arrow/array/builder_base.h>  // RecordBatchDecoder owns builders
#include <arrow/memory_pool.h>
#include <arrow/type_fwd.h>

#include <cstdint>
#include <memory>
#include <span>
#include <string_view>
#include <vector>

#include "floe/avro/arrow_mapping.h"
#include "floe/avro/binary_reader.h"
#include "floe/avro/decode_plan.h"
#include "floe/avro/schema.h"
#include "floe/columnar/builder_capacity.h"
#include "floe/core/result.h"

namespace floe::avro {

// Decodes datums of one schema into one builder (of type ToArrowType(*schema)). The
// builder is the caller's and must outlive the decoder; nested builders are resolved once
// in Make.
class DatumDecoder {
 public:
  static Result<DatumDecoder> Make(std::shared_ptr<const Node> schema, arrow::ArrayBuilder* builder);
  // The seam for writer -> reader schema resolution (records written with an older or
  // newer schema than the table's). Not implemented yet: writer must be reader, anything
  // else is kUnsupported.
  static Result<DatumDecoder> Make(std::shared_ptr<const Node> writer, std::shared_ptr<const Node> reader,
                                   arrow::ArrayBuilder* builder);

  // Reads one datum from `in` (leaving `in` after it) and appends one value. On error the
  // builder may hold part of the value: use RecordBatchDecoder, or Validate first, when
  // that matters.
  Status Decode(BinaryReader& in) { return plan_.Decode(in); }
  // Reads and checks one datum exactly as Decode would, appending nothing.
  Status Validate(BinaryReader& in) const { return plan_.Validate(in); }

 private:
  explicit DatumDecoder(DecodePlan plan) : plan_(std::move(plan)) {}
  DecodePlan plan_;
};

// Decodes records of a top-level record schema into one column per field and hands them
// out as RecordBatches. Appends are all-or-nothing: a record that fails to decode leaves
// the batch exactly as it was (see Append).
class RecordBatchDecoder {
 public:
  static Result<RecordBatchDecoder> Make(std::shared_ptr<const Node> schema,
                                         arrow::MemoryPool* pool = arrow::default_memory_pool(),
                                         const MappingOptions& options = {});

  RecordBatchDecoder(RecordBatchDecoder&&) = default;
  RecordBatchDecoder& operator=(RecordBatchDecoder&&) = default;

  // The batch schema: ToArrowSchema(*schema, options).
  const std::shared_ptr<arrow::Schema>& schema() const { return schema_; }
  // Rows appended since the last Flush.
  std::int64_t num_rows() const { return rows_; }

  // Decodes one datum, which must be exactly `avro_bytes` (trailing bytes are an error).
  Status Append(std::string_view avro_bytes);
  Status Append(std::span<const std::uint8_t> avro_bytes);
  // Decodes one datum from where `in` is, leaving `in` after it: for datums that follow
  // each other with no length in between (Avro container file blocks). On error the
  // batch is as it was and `in` is somewhere inside the bad datum.
  Status Append(BinaryReader& in);

  // The rows since the last Flush (possibly none); the decoder starts a new batch.
  Result<std::shared_ptr<arrow::RecordBatch>> Flush();

 private:
  RecordBatchDecoder() = default;
  Status AppendDatum(BinaryReader& in, bool whole);
  Status Rollback();

  std::shared_ptr<arrow::Schema> schema_;
  // unique_ptrs keep the builders where the plan points when the decoder moves.
  std::vector<std::unique_ptr<arrow::ArrayBuilder>> columns_;
  DecodePlan plan_;
  columnar::BuilderCapacity capacity_;  // the columns sized from the last batch
  std::int64_t rows_ = 0;
  bool validate_first_ = false;
};

}  // namespace floe::avro
