#include "floe/columnar/system_columns.h"

#include <arrow/api.h>

#include "floe/core/arrow_interop.h"

namespace floe::columnar {

namespace {

std::shared_ptr<arrow::DataType> HeadersType() {
  auto header = arrow::struct_({arrow::field("key", arrow::utf8(), false), arrow::field("value", arrow::binary(), true)});
  // "element" is Iceberg's list element name; Floe's table schemas use it everywhere.
  return arrow::list(arrow::field("element", header, false));
}

std::shared_ptr<arrow::DataType> TimestampType() { return arrow::timestamp(arrow::TimeUnit::MICRO, "UTC"); }

template <typename B>
B* Child(arrow::ArrayBuilder* parent, int i) {
  return static_cast<B*>(parent->child_builder(i).get());
}

Status AppendHeaders(arrow::ListBuilder& list, std::span<const HeaderView> headers) {
  FLOE_RETURN_IF_ARROW_ERROR(list.Append());
  auto* header = static_cast<arrow::StructBuilder*>(list.value_builder());
  auto* key = Child<arrow::StringBuilder>(header, 0);
  auto* value = Child<arrow::BinaryBuilder>(header, 1);
  for (const auto& h : headers) {
    FLOE_RETURN_IF_ARROW_ERROR(header->Append());
    FLOE_RETURN_IF_ARROW_ERROR(key->Append(h.key));
    FLOE_RETURN_IF_ARROW_ERROR(h.value ? value->Append(*h.value) : value->AppendNull());
  }
  return Status::OK();
}

Status AppendOptionalTimestamp(arrow::TimestampBuilder& b, std::optional<std::int64_t> ms) {
  // Kafka timestamps are milliseconds; Iceberg's timestamptz is microseconds.
  return FromArrow(ms ? b.Append(*ms * 1000) : b.AppendNull());
}

Status AppendOptionalInt(arrow::Int32Builder& b, std::optional<std::int32_t> v) {
  return FromArrow(v ? b.Append(*v) : b.AppendNull());
}

}  // namespace

arrow::FieldVector SystemColumnsBuilder::Fields(SystemColumnsLayout layout) {
  if (layout == SystemColumnsLayout::kNested) {
    auto kafka = arrow::struct_({
        arrow::field("topic", arrow::utf8(), false),
        arrow::field("partition", arrow::int32(), false),
        arrow::field("offset", arrow::int64(), false),
        arrow::field("timestamp", TimestampType(), true),
        arrow::field("timestamp_type", arrow::utf8(), false),
        arrow::field("leader_epoch", arrow::int32(), true),
        arrow::field("headers", HeadersType(), false),
        arrow::field("key", arrow::binary(), true),
    });
    return {arrow::field(std::string(kNestedSystemColumn), kafka, false)};
  }
  return {
      arrow::field("$$topic", arrow::utf8(), false),
      arrow::field("$$partition", arrow::int32(), false),
      arrow::field(std::string(kTableflowOffsetColumn), arrow::int64(), false),
      arrow::field("$$timestamp", TimestampType(), true),
      arrow::field("$$headers", HeadersType(), false),
      arrow::field("$$leader-epoch", arrow::int32(), true),
  };
}

Result<std::unique_ptr<SystemColumnsBuilder>> SystemColumnsBuilder::Make(SystemColumnsLayout layout,
                                                                         arrow::MemoryPool* pool) {
  std::unique_ptr<SystemColumnsBuilder> b(new SystemColumnsBuilder());
  b->layout_ = layout;
  for (const auto& field : Fields(layout)) {
    FLOE_ASSIGN_OR_RETURN_ARROW(auto builder, arrow::MakeBuilder(field->type(), pool));
    b->columns_.push_back(std::move(builder));
  }
  return b;
}

Status SystemColumnsBuilder::Append(const RecordMetadata& record) {
  if (rows_ == 0) FLOE_RETURN_IF_ERROR(capacity_.Reserve(columns_));
  FLOE_RETURN_IF_ERROR(layout_ == SystemColumnsLayout::kNested ? AppendNested(record) : AppendFlat(record));
  ++rows_;
  return Status::OK();
}

Status SystemColumnsBuilder::AppendNested(const RecordMetadata& r) {
  auto* kafka = static_cast<arrow::StructBuilder*>(columns_[0].get());
  FLOE_RETURN_IF_ARROW_ERROR(kafka->Append());
  FLOE_RETURN_IF_ARROW_ERROR(Child<arrow::StringBuilder>(kafka, 0)->Append(r.topic));
  FLOE_RETURN_IF_ARROW_ERROR(Child<arrow::Int32Builder>(kafka, 1)->Append(r.partition));
  FLOE_RETURN_IF_ARROW_ERROR(Child<arrow::Int64Builder>(kafka, 2)->Append(r.offset));
  FLOE_RETURN_IF_ERROR(AppendOptionalTimestamp(*Child<arrow::TimestampBuilder>(kafka, 3), r.timestamp_ms));
  FLOE_RETURN_IF_ARROW_ERROR(Child<arrow::StringBuilder>(kafka, 4)->Append(r.timestamp_type));
  FLOE_RETURN_IF_ERROR(AppendOptionalInt(*Child<arrow::Int32Builder>(kafka, 5), r.leader_epoch));
  FLOE_RETURN_IF_ERROR(AppendHeaders(*Child<arrow::ListBuilder>(kafka, 6), r.headers));
  auto* key = Child<arrow::BinaryBuilder>(kafka, 7);
  return FromArrow(r.key ? key->Append(*r.key) : key->AppendNull());
}

Status SystemColumnsBuilder::AppendFlat(const RecordMetadata& r) {
  FLOE_RETURN_IF_ARROW_ERROR(static_cast<arrow::StringBuilder*>(columns_[0].get())->Append(r.topic));
  FLOE_RETURN_IF_ARROW_ERROR(static_cast<arrow::Int32Builder*>(columns_[1].get())->Append(r.partition));
  FLOE_RETURN_IF_ARROW_ERROR(static_cast<arrow::Int64Builder*>(columns_[2].get())->Append(r.offset));
  FLOE_RETURN_IF_ERROR(AppendOptionalTimestamp(*static_cast<arrow::TimestampBuilder*>(columns_[3].get()), r.timestamp_ms));
  FLOE_RETURN_IF_ERROR(AppendHeaders(*static_cast<arrow::ListBuilder*>(columns_[4].get()), r.headers));
  return AppendOptionalInt(*static_cast<arrow::Int32Builder*>(columns_[5].get()), r.leader_epoch);
}

Result<arrow::ArrayVector> SystemColumnsBuilder::Finish() {
  arrow::ArrayVector out;
  for (auto& column : columns_) {
    std::shared_ptr<arrow::Array> array;
    FLOE_RETURN_IF_ARROW_ERROR(column->Finish(&array));
    out.push_back(std::move(array));
  }
  capacity_.Learn(out);
  rows_ = 0;
  return out;
}

}  // namespace floe::columnar
