#pragma once
// MessageBatch: Protobuf messages -> column builders -> RecordBatch, one message at a time,
// all or nothing. Private to the module: payload_schema.h wraps it in the decoder seam.
//
// How a failed message is undone is Avro's answer (avro/record_batch_decoder.cc), for the same
// reasons: decode optimistically (validating first would parse every good message twice); on
// failure pad the builders the message left short, finish each column and append back the
// rows before it; after one rollback validate each message first until the next Flush, so a
// run of bad messages cannot make a batch quadratic.
#include <arrow/array/builder_base.h>
#include <arrow/type_fwd.h>

#include <memory>
#include <string_view>
#include <vector>

#include "floe/columnar/builder_capacity.h"
#include "floe/core/result.h"
#include "floe/proto/decode_plan_internal.h"

namespace floe::proto::internal {

class MessageBatch {
 public:
  static Result<std::unique_ptr<MessageBatch>> Make(std::shared_ptr<const Plan> plan);

  const std::shared_ptr<arrow::Schema>& schema() const { return plan_->columns; }
  // Appends one message (the bytes after the message indexes) as one row, or nothing.
  Status Append(std::string_view message);
  // Whether Append would accept the message; appends nothing.
  Status Validate(std::string_view message) const;
  // A null row: only for the struct (key) form; kUnsupported for columns.
  Status AppendNull();
  std::int64_t num_rows() const { return rows_; }
  Result<std::shared_ptr<arrow::RecordBatch>> Flush();

 private:
  explicit MessageBatch(std::shared_ptr<const Plan> plan) : plan_(std::move(plan)) {}
  Status BindField(const Field& field, arrow::ArrayBuilder* b);
  Status BindValue(const Field& field, arrow::ArrayBuilder* b);
  Status Rollback();

  std::shared_ptr<const Plan> plan_;
  std::vector<std::unique_ptr<arrow::ArrayBuilder>> columns_;
  columnar::BuilderCapacity capacity_;  // the columns sized from the last batch
  std::vector<arrow::ArrayBuilder*> builders_;  // by the plan's builder indexes
  mutable Scratch scratch_;                     // reused across messages; not shared between decoders
  std::int64_t rows_ = 0;
  bool validate_first_ = false;
};

}  // namespace floe::proto::internal
