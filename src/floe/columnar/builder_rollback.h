#pragma once
// Undoing a half-appended record: every decoder (avro/, proto/, json/) appends a record straight
// into Arrow builders and must leave them as they were when the record turns out bad. Arrow
// builders cannot drop their last values, so the columns are finished (after padding nested
// children to a consistent length) and their first `rows` rows appended back.
#include <arrow/array/builder_base.h>

#include <cstdint>
#include <memory>
#include <vector>

#include "floe/core/status.h"

namespace floe::columnar {

// Restores `columns` to their first `rows` rows. If that fails (memory), the columns can no
// longer agree on their rows: every builder is reset, `rows` becomes 0 (those rows are lost)
// and the error is returned.
Status RollBackColumns(std::vector<std::unique_ptr<arrow::ArrayBuilder>>& columns, std::int64_t& rows);

}  // namespace floe::columnar
