// RecordBatchDecoder: records -> column builders -> RecordBatch, one record at a time,
// all or nothing.
//
// How a failed record is undone. Arrow builders cannot be truncated, and a record that
// fails halfway has already appended to some columns (and, in nested columns, to some
// children). Two ways out were considered:
//  - validate every record before decoding it (DecodePlan::Validate: the same code with
//    the appends compiled out): builders are never touched by a bad record, but every
//    good record is parsed twice;
//  - decode optimistically and, on failure, rebuild the columns from what they held
//    before the record: first pad every nested builder that the failed record left
//    short (a struct child, a map value) so that Arrow can finish it (MapBuilder aborts
//    the process on keys without items), then finish each column and append back its
//    first num_rows() rows (AppendArraySlice). The padding lies past those rows, so it
//    is dropped with the rest of the failed record.
// Corrupt records are rare and decoding is Floe's hot path (validating first would cost
// about a third more per record), so Append decodes optimistically and rebuilds on
// failure. A rebuild copies the batch so far; so that a run of bad records cannot make a
// batch quadratic, after one rollback the decoder validates each record first until the
// next Flush. (Validation can pass and decoding still fail, on Arrow allocation/capacity
// errors: then it rebuilds again.)
#include <arrow/array/builder_base.h>
#include <arrow/array/builder_nested.h>
#include <arrow/array/data.h>
#include <arrow/record_batch.h>
#include <arrow/type_traits.h>
#include <arrow/type.h>

#include "floe/avro/arrow_mapping.h"
#include "floe/avro/datum_decoder.h"
#include "floe/columnar/builder_rollback.h"
#include "floe/core/arrow_interop.h"

namespace floe::avro {

Result<RecordBatchDecoder> RecordBatchDecoder::Make(std::shared_ptr<const Node> schema, arrow::MemoryPool* pool,
                                                    const MappingOptions& options) {
  if (!schema) return Status::InvalidArgument("RecordBatchDecoder needs a schema");
  RecordBatchDecoder d;
  FLOE_ASSIGN_OR_RETURN(d.schema_, ToArrowSchema(*schema, options));
  std::vector<arrow::ArrayBuilder*> raw;
  for (const auto& field : d.schema_->fields()) {
    FLOE_ASSIGN_OR_RETURN_ARROW(auto builder, arrow::MakeBuilder(field->type(), pool));
    raw.push_back(builder.get());
    d.columns_.push_back(std::move(builder));
  }
  FLOE_ASSIGN_OR_RETURN(d.plan_, DecodePlan::CompileColumns(schema, schema, raw, options));
  return d;
}

Status RecordBatchDecoder::Append(std::string_view avro_bytes) {
  BinaryReader in(avro_bytes);
  return AppendDatum(in, /*whole=*/true);
}

Status RecordBatchDecoder::Append(std::span<const std::uint8_t> avro_bytes) {
  BinaryReader in(avro_bytes);
  return AppendDatum(in, /*whole=*/true);
}

Status RecordBatchDecoder::Append(BinaryReader& in) { return AppendDatum(in, /*whole=*/false); }

namespace {

Status TrailingBytes(const BinaryReader& in) {
  return Status::InvalidArgument("the record ends at byte " + std::to_string(in.offset()) + " but the data has " +
                                 std::to_string(in.size()) + " bytes");
}

}  // namespace

Status RecordBatchDecoder::AppendDatum(BinaryReader& in, bool whole) {
  if (rows_ == 0) FLOE_RETURN_IF_ERROR(capacity_.Reserve(columns_));
  if (validate_first_) {
    BinaryReader check = in;
    FLOE_RETURN_IF_ERROR(plan_.Validate(check));
    if (whole && !check.at_end()) return TrailingBytes(check);
  }
  Status st = plan_.Decode(in);
  if (st.ok() && whole && !in.at_end()) st = TrailingBytes(in);
  if (!st.ok()) [[unlikely]] {
    const Status rolled_back = Rollback();
    if (!rolled_back.ok()) {
      return Status::Internal(st.message() + "; and the batch could not be restored (" + rolled_back.ToString() +
                              "): its rows are lost");
    }
    validate_first_ = true;
    return st;
  }
  ++rows_;
  return Status::OK();
}

Status RecordBatchDecoder::Rollback() { return columnar::RollBackColumns(columns_, rows_); }

Result<std::shared_ptr<arrow::RecordBatch>> RecordBatchDecoder::Flush() {
  auto arrays = capacity_.FinishBatch(columns_);
  const std::int64_t rows = rows_;
  rows_ = 0;
  validate_first_ = false;
  if (!arrays.ok()) return arrays.status();
  return arrow::RecordBatch::Make(schema_, rows, std::move(*arrays));
}

}  // namespace floe::avro
