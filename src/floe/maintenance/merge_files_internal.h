#pragma once
// The Parquet side of compaction (compaction.h): reading a data file under the table's
// current schema, and writing a group's rows into files of at most target_rows rows. One
// input file is in memory at a time, however large the group; with a sort order, one merged
// file's rows (each merged file is sorted on its own, as Iceberg's sort_order_id promises).
#include <arrow/compute/ordering.h>
#include <arrow/type_fwd.h>

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "floe/core/result.h"
#include "floe/iceberg/data_file.h"
#include "floe/schema/partition.h"
#include "floe/schema/types.h"
#include "floe/storage/file_io.h"

namespace floe::maintenance {

// A data file's rows under `target` (the table's current schema as Arrow): top-level columns
// matched by field id (by name only in files without ids), columns the file lacks (added
// since) filled with nulls, other types (promotions, large_utf8 from pyarrow writers) cast
// to the table's. kInvalidArgument when the row count differs from the manifest entry's;
// kUnsupported for a column that cannot be cast.
Result<std::shared_ptr<arrow::Table>> ReadDataFile(const iceberg::DataFile& file,
                                                   const std::shared_ptr<arrow::Schema>& target);

// Where and how merged files are written.
struct MergeOutput {
  storage::FileIO* io = nullptr;  // at the table's location
  std::string directory;          // below data/: the partition path, "" when unpartitioned
  const schema::Schema* schema = nullptr;  // the table's current schema, for column metrics
  std::shared_ptr<arrow::Schema> arrow_schema;  // the same as Arrow, with field ids
  int spec_id = 0;
  std::vector<schema::PartitionValue> partition;  // the tuple every input file has
  std::int64_t target_rows = 0;
  // Each merged file's rows sorted by these keys (empty: in input order); the files then carry
  // sort_order_id (Iceberg; Delta has no such field).
  std::vector<arrow::compute::SortKey> sort_keys;
  std::optional<int> sort_order_id;
};

// `order`'s keys over Arrow tables of `schema` (schema::ToArrowSchema's layout: nested
// columns as struct children by index). Identity transforms only: kUnsupported for others
// (bucket, day...: Floe does not evaluate transforms to sort), kInvalidArgument for a source
// column the schema does not have.
Result<std::vector<arrow::compute::SortKey>> ArrowSortKeys(const schema::SortOrder& order,
                                                           const schema::Schema& schema);

// The rows of `inputs`, in order, written as new files of `target_rows` rows (the last one
// smaller), each committed (visible) before the next is started; returned with metrics,
// spec id and partition tuple set. A failure leaves no partial file behind, only the
// complete ones written before it.
Result<std::vector<iceberg::DataFile>> MergeDataFiles(const std::vector<iceberg::DataFile>& inputs,
                                                      const MergeOutput& output);

}  // namespace floe::maintenance
