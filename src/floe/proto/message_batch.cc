#include "floe/proto/message_batch_internal.h"

#include <arrow/array/builder_base.h>
#include <arrow/array/builder_nested.h>
#include <arrow/array/data.h>
#include <arrow/record_batch.h>
#include <arrow/type.h>
#include <arrow/type_traits.h>

#include "floe/columnar/builder_rollback.h"
#include "floe/core/arrow_interop.h"

namespace floe::proto::internal {

namespace {

// The builder class each kind's values go to, checked once so the decoder can static_cast.
arrow::Type::type TypeIdOf(Kind kind) {
  switch (kind) {
    case Kind::kInt32: case Kind::kSInt32: case Kind::kSFixed32: return arrow::Type::INT32;
    case Kind::kInt64: case Kind::kSInt64: case Kind::kSFixed64: case Kind::kUInt32: case Kind::kFixed32:
    case Kind::kDuration: return arrow::Type::INT64;
    case Kind::kUInt64: case Kind::kFixed64: case Kind::kDecimal: return arrow::Type::DECIMAL128;
    case Kind::kBool: return arrow::Type::BOOL;
    case Kind::kFloat: return arrow::Type::FLOAT;
    case Kind::kDouble: return arrow::Type::DOUBLE;
    case Kind::kString: case Kind::kEnum: return arrow::Type::STRING;
    case Kind::kBytes: return arrow::Type::BINARY;
    case Kind::kTimestamp: return arrow::Type::TIMESTAMP;
    case Kind::kDate: return arrow::Type::DATE32;
    case Kind::kMessage: return arrow::Type::STRUCT;
    case Kind::kWrapper: return arrow::Type::NA;  // decided by the wrapped kind
  }
  return arrow::Type::NA;
}

Status Mismatch(const Field& field, const arrow::ArrayBuilder* b) {
  return Status::Internal("field '" + field.path + "': builder of type " + b->type()->ToString() +
                          " does not fit the Protobuf decode plan");
}

}  // namespace

Result<std::unique_ptr<MessageBatch>> MessageBatch::Make(std::shared_ptr<const Plan> plan) {
  if (!plan) return Status::InvalidArgument("MessageBatch needs a plan");
  std::unique_ptr<MessageBatch> batch(new MessageBatch(std::move(plan)));
  const Plan& p = *batch->plan_;
  for (const auto& field : p.columns->fields()) {
    FLOE_ASSIGN_OR_RETURN_ARROW(auto builder, arrow::MakeBuilder(field->type()));
    batch->columns_.push_back(std::move(builder));
  }
  batch->builders_.assign(p.builder_count, nullptr);
  const MessagePlan& root = p.messages[0];
  if (p.root_is_struct) {
    auto* sb = dynamic_cast<arrow::StructBuilder*>(batch->columns_[0].get());
    if (sb == nullptr || static_cast<std::size_t>(sb->num_fields()) != root.fields.size() || root.builder < 0) {
      return Status::Internal("the key column does not fit the Protobuf decode plan");
    }
    batch->builders_[static_cast<std::size_t>(root.builder)] = sb;
    for (std::size_t i = 0; i < root.fields.size(); ++i) {
      FLOE_RETURN_IF_ERROR(batch->BindField(root.fields[i], sb->field_builder(static_cast<int>(i))));
    }
  } else {
    if (batch->columns_.size() != root.fields.size()) return Status::Internal("columns do not fit the decode plan");
    for (std::size_t i = 0; i < root.fields.size(); ++i) {
      FLOE_RETURN_IF_ERROR(batch->BindField(root.fields[i], batch->columns_[i].get()));
    }
  }
  return batch;
}

Status MessageBatch::BindField(const Field& field, arrow::ArrayBuilder* b) {
  builders_[field.builder] = b;
  switch (field.shape) {
    case Shape::kRepeated: {
      auto* lb = dynamic_cast<arrow::ListBuilder*>(b);
      if (lb == nullptr) return Mismatch(field, b);
      builders_[field.item] = lb->value_builder();
      return BindValue(field, lb->value_builder());
    }
    case Shape::kMap: {
      auto* mb = dynamic_cast<arrow::MapBuilder*>(b);
      if (mb == nullptr) return Mismatch(field, b);
      const MessagePlan& entry = plan_->messages[field.message];
      FLOE_RETURN_IF_ERROR(BindField(entry.fields[0], mb->key_builder()));
      return BindField(entry.fields[1], mb->item_builder());
    }
    default: return BindValue(field, b);
  }
}

Status MessageBatch::BindValue(const Field& field, arrow::ArrayBuilder* b) {
  const Kind kind = field.kind == Kind::kWrapper ? field.wrapped : field.kind;
  if (b->type()->id() != TypeIdOf(kind)) return Mismatch(field, b);
  if (field.kind != Kind::kMessage) return Status::OK();
  auto* sb = dynamic_cast<arrow::StructBuilder*>(b);
  const MessagePlan& m = plan_->messages[field.message];
  if (sb == nullptr || static_cast<std::size_t>(sb->num_fields()) != m.fields.size()) return Mismatch(field, b);
  builders_[static_cast<std::size_t>(m.builder)] = sb;
  for (std::size_t i = 0; i < m.fields.size(); ++i) {
    FLOE_RETURN_IF_ERROR(BindField(m.fields[i], sb->field_builder(static_cast<int>(i))));
  }
  return Status::OK();
}

Status MessageBatch::Validate(std::string_view message) const { return internal::Validate(*plan_, scratch_, message); }

Status MessageBatch::Append(std::string_view message) {
  if (rows_ == 0) FLOE_RETURN_IF_ERROR(capacity_.Reserve(columns_));
  if (validate_first_) FLOE_RETURN_IF_ERROR(internal::Validate(*plan_, scratch_, message));
  const Status st = Decode(*plan_, builders_, scratch_, message);
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

Status MessageBatch::AppendNull() {
  if (!plan_->root_is_struct) {
    return Status::Unsupported("a Protobuf message's columns cannot be null as a whole (tombstones are handled by the caller)");
  }
  FLOE_RETURN_IF_ARROW_ERROR(columns_[0]->AppendNull());
  ++rows_;
  return Status::OK();
}

Status MessageBatch::Rollback() { return columnar::RollBackColumns(columns_, rows_); }

Result<std::shared_ptr<arrow::RecordBatch>> MessageBatch::Flush() {
  auto arrays = capacity_.FinishBatch(columns_);
  const std::int64_t rows = rows_;
  rows_ = 0;
  validate_first_ = false;
  if (!arrays.ok()) return arrays.status();
  return arrow::RecordBatch::Make(plan_->columns, rows, std::move(*arrays));
}

}  // namespace floe::proto::internal
