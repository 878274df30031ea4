#include "floe/json/record_decoder.h"

#include <arrow/array/builder_nested.h>
#include <arrow/array/data.h>
#include <arrow/record_batch.h>
#include <arrow/type.h>
#include <arrow/type_traits.h>

#include <vector>

#include "floe/columnar/builder_capacity.h"
#include "floe/columnar/builder_rollback.h"
#include "floe/core/arrow_interop.h"
#include "floe/json/decode_plan_internal.h"

namespace floe::json {

struct JsonRecordDecoder::Impl {
  std::shared_ptr<arrow::Schema> schema;
  std::vector<std::unique_ptr<arrow::ArrayBuilder>> columns;
  internal::PlanNode plan;
  bool datum = false;  // keys: the plan is the single column's; values: the top-level object's
  columnar::BuilderCapacity capacity;  // the columns sized from the last batch
  std::int64_t rows = 0;
  bool validate_first = false;
  // Parsing is the only state Validate needs, and it leaves the columns alone.
  mutable internal::PaddedParser parser;

  Result<simdjson::dom::element> Parse(std::string_view payload) const { return parser.Parse(payload); }

  template <bool kAppend>
  Status Run(simdjson::dom::element value) const {
    const internal::Path root;
    if (datum) return internal::Run<kAppend>(plan, value, root);
    if (value.type() != simdjson::dom::element_type::OBJECT) {
      return Status::InvalidArgument(std::string("$: expected object, found ") + internal::FoundName(value));
    }
    return internal::RunMembers<kAppend>(plan, value.get_object().value_unsafe(), root);
  }

  Status Rollback() { return columnar::RollBackColumns(columns, rows); }
};

JsonRecordDecoder::JsonRecordDecoder(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}
JsonRecordDecoder::~JsonRecordDecoder() = default;

Result<std::unique_ptr<JsonRecordDecoder>> JsonRecordDecoder::ForColumns(const JsonType& object,
                                                                         arrow::MemoryPool* pool) {
  auto impl = std::make_unique<Impl>();
  FLOE_ASSIGN_OR_RETURN(impl->schema, ToArrowSchema(object));
  std::vector<arrow::ArrayBuilder*> raw;
  for (const auto& field : impl->schema->fields()) {
    FLOE_ASSIGN_OR_RETURN_ARROW(auto builder, arrow::MakeBuilder(field->type(), pool));
    raw.push_back(builder.get());
    impl->columns.push_back(std::move(builder));
  }
  FLOE_ASSIGN_OR_RETURN(impl->plan, internal::CompileColumns(object, raw));
  return std::unique_ptr<JsonRecordDecoder>(new JsonRecordDecoder(std::move(impl)));
}

Result<std::unique_ptr<JsonRecordDecoder>> JsonRecordDecoder::ForDatum(const JsonField& field,
                                                                       const std::string& column,
                                                                       arrow::MemoryPool* pool) {
  if (!HasColumn(field.type)) return Status::InvalidArgument("a JSON key of type null has no column");
  auto impl = std::make_unique<Impl>();
  impl->datum = true;
  FLOE_ASSIGN_OR_RETURN(auto type, ToArrowType(field.type));
  impl->schema = arrow::schema({arrow::field(column, type, /*nullable=*/true)});  // null keys are null rows
  FLOE_ASSIGN_OR_RETURN_ARROW(auto builder, arrow::MakeBuilder(type, pool));
  FLOE_ASSIGN_OR_RETURN(impl->plan, internal::Compile(field, builder.get()));
  impl->columns.push_back(std::move(builder));
  return std::unique_ptr<JsonRecordDecoder>(new JsonRecordDecoder(std::move(impl)));
}

const std::shared_ptr<arrow::Schema>& JsonRecordDecoder::schema() const { return impl_->schema; }

std::int64_t JsonRecordDecoder::num_rows() const { return impl_->rows; }

Status JsonRecordDecoder::Validate(std::string_view payload) const {
  FLOE_ASSIGN_OR_RETURN(auto value, impl_->Parse(payload));
  return impl_->Run<false>(value);
}

Status JsonRecordDecoder::Append(std::string_view payload) {
  // Parse errors come before any append: only a value that does not match needs undoing.
  FLOE_ASSIGN_OR_RETURN(auto value, impl_->Parse(payload));
  if (impl_->rows == 0) FLOE_RETURN_IF_ERROR(impl_->capacity.Reserve(impl_->columns));
  if (impl_->validate_first) FLOE_RETURN_IF_ERROR(impl_->Run<false>(value));
  Status st = impl_->Run<true>(value);
  if (!st.ok()) [[unlikely]] {
    const Status rolled_back = impl_->Rollback();
    if (!rolled_back.ok()) {
      return Status::Internal(st.message() + "; and the batch could not be restored (" + rolled_back.ToString() +
                              "): its rows are lost");
    }
    impl_->validate_first = true;
    return st;
  }
  ++impl_->rows;
  return Status::OK();
}

Status JsonRecordDecoder::AppendNull() {
  if (!impl_->datum) {
    return Status::Unsupported("a JSON value cannot be null as a whole (tombstones are handled by the caller)");
  }
  FLOE_RETURN_IF_ARROW_ERROR(impl_->columns.front()->AppendNull());
  ++impl_->rows;
  return Status::OK();
}

Result<std::shared_ptr<arrow::RecordBatch>> JsonRecordDecoder::Flush() {
  auto arrays = impl_->capacity.FinishBatch(impl_->columns);
  const std::int64_t rows = impl_->rows;
  impl_->rows = 0;
  impl_->validate_first = false;
  if (!arrays.ok()) return arrays.status();
  return arrow::RecordBatch::Make(impl_->schema, rows, std::move(*arrays));
}

}  // namespace floe::json
