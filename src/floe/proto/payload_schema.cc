#include "floe/proto/payload_schema.h"

#include <google/protobuf/descriptor.h>

#include "floe/proto/decode_plan_internal.h"
#include "floe/proto/message_batch_internal.h"
#include "floe/proto/wire_format.h"

namespace floe::proto {

namespace {

class MessageDecoder final : public columnar::ValueDecoder {
 public:
  explicit MessageDecoder(std::unique_ptr<internal::MessageBatch> batch) : batch_(std::move(batch)) {}
  const std::shared_ptr<arrow::Schema>& schema() const override { return batch_->schema(); }
  Status Append(std::string_view payload) override { return batch_->Append(payload); }
  Status Validate(std::string_view payload) const override { return batch_->Validate(payload); }
  Status AppendNull() override { return batch_->AppendNull(); }
  std::int64_t num_rows() const override { return batch_->num_rows(); }
  Result<std::shared_ptr<arrow::RecordBatch>> Flush() override { return batch_->Flush(); }

 private:
  std::unique_ptr<internal::MessageBatch> batch_;
};

class MessageSchema final : public columnar::PayloadSchema {
 public:
  MessageSchema(std::shared_ptr<const ProtoSchema> schema, std::shared_ptr<const internal::Plan> plan)
      : schema_(std::move(schema)), plan_(std::move(plan)) {}
  const std::shared_ptr<arrow::Schema>& columns() const override { return plan_->columns; }
  Result<std::unique_ptr<columnar::ValueDecoder>> NewDecoder() const override {
    FLOE_ASSIGN_OR_RETURN(auto batch, internal::MessageBatch::Make(plan_));
    return std::unique_ptr<columnar::ValueDecoder>(new MessageDecoder(std::move(batch)));
  }

 private:
  std::shared_ptr<const ProtoSchema> schema_;  // owns the descriptors the plan was compiled from
  std::shared_ptr<const internal::Plan> plan_;
};

Result<std::shared_ptr<const columnar::PayloadSchema>> Make(std::shared_ptr<const ProtoSchema> schema,
                                                           const google::protobuf::Descriptor* message,
                                                           const std::string& column) {
  if (!schema || message == nullptr) return Status::InvalidArgument("a Protobuf payload schema needs a schema and a message");
  if (message->file()->pool() != schema->file()->pool()) {
    return Status::InvalidArgument("message '" + message->full_name() + "' is not from this schema's descriptor pool");
  }
  FLOE_ASSIGN_OR_RETURN(auto plan, internal::CompilePlan(*message, column));
  return std::shared_ptr<const columnar::PayloadSchema>(std::make_shared<MessageSchema>(std::move(schema), std::move(plan)));
}

}  // namespace

Result<SelectedMessage> SelectMessage(const ProtoSchema& schema, std::string_view payload,
                                      std::string_view configured_name) {
  FLOE_ASSIGN_OR_RETURN(MessageIndexes framing, ParseMessageIndexes(payload));
  FLOE_ASSIGN_OR_RETURN(const google::protobuf::Descriptor* message, schema.MessageFor(framing.indexes, configured_name));
  return SelectedMessage{message, framing.message};
}

Result<std::shared_ptr<const columnar::PayloadSchema>> MessagePayloadSchema(std::shared_ptr<const ProtoSchema> schema,
                                                                            const google::protobuf::Descriptor* message) {
  return Make(std::move(schema), message, {});
}

Result<std::shared_ptr<const columnar::PayloadSchema>> FieldPayloadSchema(std::shared_ptr<const ProtoSchema> schema,
                                                                          const google::protobuf::Descriptor* message,
                                                                          const std::string& column) {
  if (column.empty()) return Status::InvalidArgument("the key column needs a name");
  return Make(std::move(schema), message, column);
}

}  // namespace floe::proto
