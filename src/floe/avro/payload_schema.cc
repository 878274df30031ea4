#include "floe/avro/payload_schema.h"

#include <arrow/api.h>

#include <optional>

#include "floe/avro/arrow_mapping.h"
#include "floe/avro/datum_decoder.h"
#include "floe/core/arrow_interop.h"

namespace floe::avro {

namespace {

// Records: the decode plan appends a whole record or rolls back (record_batch_decoder.h).
class RecordDecoder final : public columnar::ValueDecoder {
 public:
  explicit RecordDecoder(RecordBatchDecoder decoder) : decoder_(std::move(decoder)) {}
  const std::shared_ptr<arrow::Schema>& schema() const override { return decoder_.schema(); }
  Status Append(std::string_view payload) override { return decoder_.Append(payload); }
  Status Validate(std::string_view) const override {
    return Status::Unsupported("Avro record columns are validated by Append (it rolls back)");
  }
  Status AppendNull() override {
    return Status::Unsupported("an Avro record cannot be null as a whole (tombstones are handled by the caller)");
  }
  std::int64_t num_rows() const override { return decoder_.num_rows(); }
  Result<std::shared_ptr<arrow::RecordBatch>> Flush() override { return decoder_.Flush(); }

 private:
  RecordBatchDecoder decoder_;
};

// A single datum per row, validated before it is decoded so that a bad one appends nothing
// (DatumDecoder itself cannot roll back).
class DatumColumnDecoder final : public columnar::ValueDecoder {
 public:
  DatumColumnDecoder(std::shared_ptr<arrow::Schema> schema, std::unique_ptr<arrow::ArrayBuilder> builder)
      : schema_(std::move(schema)), builder_(std::move(builder)) {}
  Status Init(const NodePtr& node) {
    FLOE_ASSIGN_OR_RETURN(auto decoder, DatumDecoder::Make(node, builder_.get()));
    decoder_.emplace(std::move(decoder));
    return Status::OK();
  }
  const std::shared_ptr<arrow::Schema>& schema() const override { return schema_; }
  Status Append(std::string_view payload) override {
    FLOE_RETURN_IF_ERROR(Validate(payload));
    if (builder_->length() == 0) FLOE_RETURN_IF_ERROR(capacity_.Reserve(*builder_));
    BinaryReader in(payload);
    return decoder_->Decode(in);
  }
  Status Validate(std::string_view payload) const override {
    BinaryReader check(payload);
    FLOE_RETURN_IF_ERROR(decoder_->Validate(check));
    if (check.remaining() != 0) {
      return Status::InvalidArgument(std::to_string(check.remaining()) + " bytes after the end of the Avro datum");
    }
    return Status::OK();
  }
  Status AppendNull() override { return FromArrow(builder_->AppendNull()); }
  std::int64_t num_rows() const override { return builder_->length(); }
  Result<std::shared_ptr<arrow::RecordBatch>> Flush() override {
    const std::int64_t rows = builder_->length();
    std::shared_ptr<arrow::Array> array;
    FLOE_RETURN_IF_ARROW_ERROR(builder_->Finish(&array));
    capacity_.Learn({array});
    return arrow::RecordBatch::Make(schema_, rows, {array});
  }

 private:
  std::shared_ptr<arrow::Schema> schema_;
  std::unique_ptr<arrow::ArrayBuilder> builder_;
  std::optional<DatumDecoder> decoder_;
  columnar::BuilderCapacity capacity_;  // the column sized from the last batch
};

class RecordSchema final : public columnar::PayloadSchema {
 public:
  RecordSchema(NodePtr node, std::shared_ptr<arrow::Schema> columns) : node_(std::move(node)), columns_(std::move(columns)) {}
  const std::shared_ptr<arrow::Schema>& columns() const override { return columns_; }
  Result<std::unique_ptr<columnar::ValueDecoder>> NewDecoder() const override {
    FLOE_ASSIGN_OR_RETURN(auto decoder, RecordBatchDecoder::Make(node_));
    return std::unique_ptr<columnar::ValueDecoder>(new RecordDecoder(std::move(decoder)));
  }

 private:
  NodePtr node_;
  std::shared_ptr<arrow::Schema> columns_;
};

class DatumSchema final : public columnar::PayloadSchema {
 public:
  DatumSchema(NodePtr node, std::shared_ptr<arrow::Schema> columns) : node_(std::move(node)), columns_(std::move(columns)) {}
  const std::shared_ptr<arrow::Schema>& columns() const override { return columns_; }
  Result<std::unique_ptr<columnar::ValueDecoder>> NewDecoder() const override {
    FLOE_ASSIGN_OR_RETURN_ARROW(auto builder, arrow::MakeBuilder(columns_->field(0)->type()));
    auto decoder = std::make_unique<DatumColumnDecoder>(columns_, std::move(builder));
    FLOE_RETURN_IF_ERROR(decoder->Init(node_));
    return std::unique_ptr<columnar::ValueDecoder>(std::move(decoder));
  }

 private:
  NodePtr node_;
  std::shared_ptr<arrow::Schema> columns_;
};

}  // namespace

Result<std::shared_ptr<const columnar::PayloadSchema>> RecordPayloadSchema(const NodePtr& record) {
  if (record->type != Type::kRecord) {
    return Status::InvalidArgument("the schema is " + record->DisplayName() +
                                   ", not a record: Floe maps a record's fields to table columns");
  }
  FLOE_ASSIGN_OR_RETURN(auto columns, ToArrowSchema(*record));
  return std::shared_ptr<const columnar::PayloadSchema>(std::make_shared<RecordSchema>(record, std::move(columns)));
}

Result<std::shared_ptr<const columnar::PayloadSchema>> DatumPayloadSchema(const NodePtr& schema, const std::string& column) {
  FLOE_ASSIGN_OR_RETURN(auto field, ToArrowField(column, *schema));
  auto columns = arrow::schema({field->WithNullable(true)});  // null keys are null rows
  return std::shared_ptr<const columnar::PayloadSchema>(std::make_shared<DatumSchema>(schema, std::move(columns)));
}

}  // namespace floe::avro
