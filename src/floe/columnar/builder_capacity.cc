#include "floe/columnar/builder_capacity.h"

#include <arrow/api.h>

#include <algorithm>

#include "floe/core/arrow_interop.h"

namespace floe::columnar {

namespace {

using Size = BuilderCapacity::Size;

std::int64_t ValueBytes(const arrow::ArrayData& a) {
  if (a.length == 0) return 0;
  switch (a.type->id()) {
    case arrow::Type::STRING:
    case arrow::Type::BINARY: {
      const auto* offsets = a.GetValues<std::int32_t>(1);
      return offsets == nullptr ? 0 : offsets[a.length] - offsets[0];
    }
    case arrow::Type::LARGE_STRING:
    case arrow::Type::LARGE_BINARY: {
      const auto* offsets = a.GetValues<std::int64_t>(1);
      return offsets == nullptr ? 0 : offsets[a.length] - offsets[0];
    }
    default:
      return 0;
  }
}

// The children walked are the ones the decoders build (structs, lists and maps of leaves,
// builder_rollback.cc); other nested kinds are sized at their top only. Collect and Apply walk
// the same types in the same order, so the sizes line up with the builders.
void Collect(const arrow::ArrayData& a, std::vector<Size>& out) {
  out.push_back({a.length, ValueBytes(a)});
  switch (a.type->id()) {
    case arrow::Type::STRUCT:
      for (const auto& child : a.child_data) Collect(*child, out);
      return;
    case arrow::Type::LIST:
      if (a.child_data.size() == 1) Collect(*a.child_data[0], out);
      return;
    case arrow::Type::MAP:  // a list of key/item structs: the key and item builders are sized
      if (a.child_data.size() == 1 && a.child_data[0]->child_data.size() == 2) {
        Collect(*a.child_data[0]->child_data[0], out);
        Collect(*a.child_data[0]->child_data[1], out);
      }
      return;
    default:
      return;
  }
}

arrow::Status Apply(arrow::ArrayBuilder& b, const std::vector<Size>& sizes, std::size_t& next) {
  if (next >= sizes.size()) return arrow::Status::OK();
  const Size s = sizes[next++];
  ARROW_RETURN_NOT_OK(b.Reserve(std::max<std::int64_t>(0, s.length - b.length())));
  switch (b.type()->id()) {
    case arrow::Type::STRING:
    case arrow::Type::BINARY:
      return static_cast<arrow::BinaryBuilder&>(b).ReserveData(s.value_bytes);
    case arrow::Type::LARGE_STRING:
    case arrow::Type::LARGE_BINARY:
      return static_cast<arrow::LargeBinaryBuilder&>(b).ReserveData(s.value_bytes);
    case arrow::Type::STRUCT: {
      auto& sb = static_cast<arrow::StructBuilder&>(b);
      for (int i = 0; i < sb.num_fields(); ++i) ARROW_RETURN_NOT_OK(Apply(*sb.field_builder(i), sizes, next));
      return arrow::Status::OK();
    }
    case arrow::Type::LIST:
      return Apply(*static_cast<arrow::ListBuilder&>(b).value_builder(), sizes, next);
    case arrow::Type::MAP: {
      auto& mb = static_cast<arrow::MapBuilder&>(b);
      ARROW_RETURN_NOT_OK(Apply(*mb.key_builder(), sizes, next));
      return Apply(*mb.item_builder(), sizes, next);
    }
    default:
      return arrow::Status::OK();
  }
}

}  // namespace

void BuilderCapacity::Learn(const std::vector<std::shared_ptr<arrow::Array>>& finished) {
  columns_.assign(finished.size(), {});
  for (std::size_t i = 0; i < finished.size(); ++i) {
    if (finished[i]) Collect(*finished[i]->data(), columns_[i]);
  }
}

Status BuilderCapacity::Reserve(const std::vector<std::unique_ptr<arrow::ArrayBuilder>>& columns) const {
  if (columns_.size() != columns.size()) return Status::OK();  // nothing learned (yet)
  for (std::size_t i = 0; i < columns.size(); ++i) {
    std::size_t next = 0;
    FLOE_RETURN_IF_ARROW_ERROR(Apply(*columns[i], columns_[i], next));
  }
  return Status::OK();
}

Result<std::vector<std::shared_ptr<arrow::Array>>> BuilderCapacity::FinishBatch(
    const std::vector<std::unique_ptr<arrow::ArrayBuilder>>& columns) {
  std::vector<std::shared_ptr<arrow::Array>> arrays;
  arrays.reserve(columns.size());
  for (const auto& column : columns) {
    std::shared_ptr<arrow::Array> array;
    const arrow::Status st = column->Finish(&array);
    if (!st.ok()) {
      for (const auto& c : columns) c->Reset();
      return FromArrow(st).WithContext("flushing a batch (its rows are lost)");
    }
    arrays.push_back(std::move(array));
  }
  Learn(arrays);
  return arrays;
}

Status BuilderCapacity::Reserve(arrow::ArrayBuilder& column) const {
  if (columns_.size() != 1) return Status::OK();
  std::size_t next = 0;
  FLOE_RETURN_IF_ARROW_ERROR(Apply(column, columns_[0], next));
  return Status::OK();
}

}  // namespace floe::columnar
