#pragma once
// Sizing a batch's column builders from the batch before it (issue 17). Every segment of a
// partition starts with empty builders, which grow by doubling: each growth copies what the
// column holds into fresh pages that the kernel faults in and zeroes. On the bench topic that
// was 7.5 % of `floe run`'s CPU (perf, 2026-12-07: jemalloc's large realloc, its memcpy and
// the page faults under it). Reserved up front to what the same builders held at their last
// Finish, builders of a steady stream grow rarely.
//
// A reservation takes address space, not memory: pages are touched, and count in RSS, only
// as rows are written into them. A batch that ends short of it gives the rest back when it
// is finished (Arrow shrinks finished buffers to fit).
#include <arrow/array/builder_base.h>
#include <arrow/type_fwd.h>

#include <cstdint>
#include <memory>
#include <vector>

#include "floe/core/result.h"

namespace floe::columnar {

class BuilderCapacity {
 public:
  // Remembers what `finished` holds (one array per column, as the builders just finished
  // them), child by child: lengths, and the bytes of string and binary values.
  void Learn(const std::vector<std::shared_ptr<arrow::Array>>& finished);
  // Reserves that much in `columns` (the same columns, still empty: call before a batch's first
  // row). Nothing until something was learned. Fails only when the memory cannot be reserved.
  Status Reserve(const std::vector<std::unique_ptr<arrow::ArrayBuilder>>& columns) const;
  Status Reserve(arrow::ArrayBuilder& column) const;
  // Finishes a batch's columns (the decoders' Flush) and learns their sizes. If a column cannot
  // be finished (memory), others are already handed out and the batch cannot be completed:
  // every builder is reset and the error says that its rows are lost.
  Result<std::vector<std::shared_ptr<arrow::Array>>> FinishBatch(
      const std::vector<std::unique_ptr<arrow::ArrayBuilder>>& columns);

  // Pre-order over one column's builders: the column, then its children.
  struct Size {
    std::int64_t length = 0;
    std::int64_t value_bytes = 0;  // string and binary builders: the bytes of their values
  };
  const std::vector<std::vector<Size>>& learned() const { return columns_; }

 private:
  std::vector<std::vector<Size>> columns_;
};

}  // namespace floe::columnar
