// string and bytes payloads (columnar/value_decoder.h): one column holding the payload as it is.
#include <arrow/api.h>
#include <arrow/util/utf8.h>

#include "floe/columnar/builder_capacity.h"
#include "floe/columnar/value_decoder.h"
#include "floe/core/arrow_interop.h"

namespace floe::columnar {

namespace {

template <typename Builder>
class RawDecoder final : public ValueDecoder {
 public:
  RawDecoder(std::shared_ptr<arrow::Schema> schema, bool check_utf8) : schema_(std::move(schema)), check_utf8_(check_utf8) {}
  const std::shared_ptr<arrow::Schema>& schema() const override { return schema_; }
  Status Append(std::string_view payload) override {
    FLOE_RETURN_IF_ERROR(Validate(payload));
    if (builder_.length() == 0) FLOE_RETURN_IF_ERROR(capacity_.Reserve(builder_));
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
    capacity_.Learn({array});
    return arrow::RecordBatch::Make(schema_, rows, {array});
  }

 private:
  std::shared_ptr<arrow::Schema> schema_;
  bool check_utf8_;
  Builder builder_;
  BuilderCapacity capacity_;  // the column sized from the last batch
};

class RawSchema final : public PayloadSchema {
 public:
  RawSchema(RawFormat format, const std::string& column)
      : format_(format),
        columns_(arrow::schema({arrow::field(column, format == RawFormat::kString ? arrow::utf8() : arrow::binary(), true)})) {}
  const std::shared_ptr<arrow::Schema>& columns() const override { return columns_; }
  Result<std::unique_ptr<ValueDecoder>> NewDecoder() const override {
    if (format_ == RawFormat::kString) return std::unique_ptr<ValueDecoder>(new RawDecoder<arrow::StringBuilder>(columns_, true));
    return std::unique_ptr<ValueDecoder>(new RawDecoder<arrow::BinaryBuilder>(columns_, false));
  }

 private:
  RawFormat format_;
  std::shared_ptr<arrow::Schema> columns_;
};

}  // namespace

std::shared_ptr<const PayloadSchema> RawPayloadSchema(RawFormat format, const std::string& column) {
  arrow::util::InitializeUTF8();
  return std::make_shared<RawSchema>(format, column);
}

}  // namespace floe::columnar
