#include "floe/columnar/builder_rollback.h"

#include <arrow/api.h>

#include "floe/core/arrow_interop.h"

namespace floe::columnar {

namespace {

// Makes a builder that a failed record left half-appended consistent again, so that it can be
// finished: every child as long as its parent needs (the padding lies past the rows kept, and
// goes with the failed record). The decoders build structs, lists and maps of leaves only;
// leaves are always consistent.
arrow::Status PadToConsistent(arrow::ArrayBuilder* b) {
  switch (b->type()->id()) {
    case arrow::Type::STRUCT: {
      auto* sb = static_cast<arrow::StructBuilder*>(b);
      for (int i = 0; i < sb->num_fields(); ++i) {
        arrow::ArrayBuilder* child = sb->field_builder(i);
        ARROW_RETURN_NOT_OK(PadToConsistent(child));
        while (child->length() < sb->length()) ARROW_RETURN_NOT_OK(child->AppendEmptyValue());
      }
      return arrow::Status::OK();
    }
    case arrow::Type::LIST:  // offsets follow the values builder: only it needs fixing
      return PadToConsistent(static_cast<arrow::ListBuilder*>(b)->value_builder());
    case arrow::Type::MAP: {
      auto* mb = static_cast<arrow::MapBuilder*>(b);
      ARROW_RETURN_NOT_OK(PadToConsistent(mb->item_builder()));
      while (mb->item_builder()->length() < mb->key_builder()->length()) {
        ARROW_RETURN_NOT_OK(mb->item_builder()->AppendEmptyValue());
      }
      return arrow::Status::OK();
    }
    default:
      if (arrow::is_nested(b->type()->id())) {
        return arrow::Status::NotImplemented("rollback of a ", b->type()->ToString(), " builder");
      }
      return arrow::Status::OK();
  }
}

}  // namespace

Status RollBackColumns(std::vector<std::unique_ptr<arrow::ArrayBuilder>>& columns, std::int64_t& rows) {
  Status first_error;
  for (auto& column : columns) {
    std::shared_ptr<arrow::ArrayData> data;
    arrow::Status st = PadToConsistent(column.get());
    if (st.ok()) st = column->FinishInternal(&data);  // also resets the builder
    if (st.ok() && rows > 0) st = column->AppendArraySlice(arrow::ArraySpan(*data), 0, rows);
    if (!st.ok() && first_error.ok()) first_error = FromArrow(st);
  }
  if (!first_error.ok()) {  // columns can no longer agree on their rows: start over, empty
    for (auto& column : columns) column->Reset();
    rows = 0;
  }
  return first_error;
}

}  // namespace floe::columnar
