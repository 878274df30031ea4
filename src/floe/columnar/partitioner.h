#pragma once
// Splits record batches by partition tuple: for each row, the spec's transforms applied to
// its source columns (Iceberg semantics; Delta's identity partitions are the special case).
// Rows keep their order inside each group, so offsets stay ascending within a file.
#include <arrow/type_fwd.h>

#include <memory>
#include <string>
#include <vector>

#include "floe/core/result.h"
#include "floe/schema/literal.h"
#include "floe/schema/partition.h"
#include "floe/schema/types.h"

namespace floe::columnar {

struct PartitionGroup {
  std::vector<schema::PartitionValue> values;  // one per spec field
  std::shared_ptr<arrow::RecordBatch> rows;
};

class Partitioner {
 public:
  // `batch_schema` is the Arrow schema of the batches to split (columns matched by field id).
  static Result<Partitioner> Make(const schema::Schema& schema, const schema::PartitionSpec& spec,
                                  std::shared_ptr<arrow::Schema> batch_schema);

  Result<std::vector<PartitionGroup>> Split(const std::shared_ptr<arrow::RecordBatch>& batch) const;
  // Iceberg's (and Hive's) directory form: "ts_day=2026-03-02/bucket=3".
  Result<std::string> Path(const std::vector<schema::PartitionValue>& values) const;

 private:
  struct Field {
    schema::PartitionField partition;
    std::vector<int> column_path;  // child indexes from the batch's top level to the source column
    schema::TypePtr source_type;
    schema::TypePtr result_type;
  };
  std::vector<Field> fields_;
  std::shared_ptr<arrow::Schema> batch_schema_;
};

}  // namespace floe::columnar
