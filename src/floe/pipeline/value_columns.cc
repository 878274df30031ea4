#include "floe/pipeline/value_columns.h"

#include <arrow/api.h>
#include <arrow/util/utf8.h>

#include <optional>

#include "floe/avro/datum_decoder.h"
#include "floe/core/arrow_interop.h"

namespace floe::pipeline {

namespace {

class AvroColumns final : public ValueColumns {
 public:
  explicit AvroColumns(avro::RecordBatchDecoder decoder) : decoder_(std::move(decoder)) {}
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
  avro::RecordBatchDecoder decoder_;
};

// string and bytes payloads: one column holding the payload as it is.
template <typename Builder>
class RawColumns final : public ValueColumns {
 public:
  RawColumns(std::shared_ptr<arrow::Schema> schema, bool check_utf8)
      : schema_(std::move(schema)), check_utf8_(check_utf8) {}
  const std::shared_ptr<arrow::Schema>& schema() const override { return schema_; }
  Status Append(std::string_view payload) override {
    FLOE_RETURN_IF_ERROR(Validate(payload));
    return FromArrow(builder_.Append(payload));
  }
  Status Validate(std::string_view payload) const override {
    if (check_utf8_ && !arrow::util::ValidateUTF8(payload)) {
      return Status::InvalidArgument("not valid UTF-8 (the format is 'string'; use 'bytes' for binary data)");
    }
    return Status::OK();
  }
  Status AppendNull() override { return FromArrow(builder_.AppendNull()); }
  std::int64_t num_rows() const override { return builder_.length(); }
  Result<std::shared_ptr<arrow::RecordBatch>> Flush() override {
    const std::int64_t rows = builder_.length();
    std::shared_ptr<arrow::Array> array;
    FLOE_RETURN_IF_ARROW_ERROR(builder_.Finish(&array));
    return arrow::RecordBatch::Make(schema_, rows, {array});
  }

 private:
  std::shared_ptr<arrow::Schema> schema_;
  bool check_utf8_;
  Builder builder_;
};

// A single Avro datum per row, validated before it is decoded so that a bad one appends
// nothing (DatumDecoder itself cannot roll back).
class AvroDatumColumn final : public ValueColumns {
 public:
  AvroDatumColumn(std::shared_ptr<arrow::Schema> schema, std::unique_ptr<arrow::ArrayBuilder> builder)
      : schema_(std::move(schema)), builder_(std::move(builder)) {}
  Status Init(const avro::NodePtr& node) {
    FLOE_ASSIGN_OR_RETURN(auto decoder, avro::DatumDecoder::Make(node, builder_.get()));
    decoder_.emplace(std::move(decoder));
    return Status::OK();
  }
  const std::shared_ptr<arrow::Schema>& schema() const override { return schema_; }
  Status Append(std::string_view payload) override {
    FLOE_RETURN_IF_ERROR(Validate(payload));
    avro::BinaryReader in(payload);
    return decoder_->Decode(in);
  }
  Status Validate(std::string_view payload) const override {
    avro::BinaryReader check(payload);
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
    return arrow::RecordBatch::Make(schema_, rows, {array});
  }

 private:
  std::shared_ptr<arrow::Schema> schema_;
  std::unique_ptr<arrow::ArrayBuilder> builder_;
  std::optional<avro::DatumDecoder> decoder_;
};

}  // namespace

Result<std::unique_ptr<ValueColumns>> MakeAvroDatumColumn(const avro::NodePtr& schema, const std::string& name) {
  FLOE_ASSIGN_OR_RETURN(auto type, avro::ToArrowType(*schema));
  FLOE_ASSIGN_OR_RETURN_ARROW(auto builder, arrow::MakeBuilder(type));
  auto column = std::make_unique<AvroDatumColumn>(arrow::schema({arrow::field(name, type, true)}), std::move(builder));
  FLOE_RETURN_IF_ERROR(column->Init(schema));
  return std::unique_ptr<ValueColumns>(std::move(column));
}

Result<std::unique_ptr<ValueColumns>> MakeAvroColumns(const avro::NodePtr& record_schema) {
  if (record_schema->type != avro::Type::kRecord) {
    return Status::Unsupported("the value schema is " + record_schema->DisplayName() +
                               ", not a record: Floe maps a record's fields to columns");
  }
  FLOE_ASSIGN_OR_RETURN(auto decoder, avro::RecordBatchDecoder::Make(record_schema));
  return std::unique_ptr<ValueColumns>(new AvroColumns(std::move(decoder)));
}

Result<std::unique_ptr<ValueColumns>> MakeRawColumns(PayloadFormat format, const std::string& name) {
  arrow::util::InitializeUTF8();
  if (format == PayloadFormat::kString) {
    auto schema = arrow::schema({arrow::field(name, arrow::utf8(), true)});
    return std::unique_ptr<ValueColumns>(new RawColumns<arrow::StringBuilder>(schema, true));
  }
  if (format == PayloadFormat::kBytes) {
    auto schema = arrow::schema({arrow::field(name, arrow::binary(), true)});
    return std::unique_ptr<ValueColumns>(new RawColumns<arrow::BinaryBuilder>(schema, false));
  }
  return Status::Unsupported("no raw columns for format '" + std::string(PayloadFormatName(format)) + "'");
}

}  // namespace floe::pipeline
