#include "floe/sink/data_files.h"

#include <arrow/api.h>

#include "floe/columnar/conform.h"
#include "floe/columnar/partitioner.h"
#include "floe/core/arrow_interop.h"
#include "floe/core/uuid.h"
#include "floe/schema/arrow_schema.h"

namespace floe::sink {

Result<std::vector<WrittenDataFile>> WriteDataFiles(storage::FileIO& table_root, const schema::Schema& schema,
                                                    const schema::PartitionSpec& spec, const PartitionFlush& flush,
                                                    const columnar::ParquetOptions& parquet) {
  const std::string where = flush.topic + "/" + std::to_string(flush.partition);
  FLOE_ASSIGN_OR_RETURN(auto target, schema::ToArrowSchema(schema));
  std::vector<std::shared_ptr<arrow::RecordBatch>> conformed;
  for (const auto& batch : flush.batches) {
    if (batch->num_rows() == 0) continue;
    auto c = columnar::ConformBatch(*batch, target);
    if (!c.ok()) return c.status().WithContext(where);
    conformed.push_back(*c);
  }
  std::vector<WrittenDataFile> files;
  if (conformed.empty()) return files;
  FLOE_ASSIGN_OR_RETURN_ARROW(auto rows, arrow::ConcatenateRecordBatches(conformed));
  FLOE_ASSIGN_OR_RETURN(auto partitioner, columnar::Partitioner::Make(schema, spec, target));
  FLOE_ASSIGN_OR_RETURN(auto groups, partitioner.Split(rows));
  const std::string first = flush.expected ? std::to_string(*flush.expected) : "0";
  for (const auto& group : groups) {
    FLOE_ASSIGN_OR_RETURN(auto dir, partitioner.Path(group.values));
    WrittenDataFile out;
    out.relative_path = "data/" + (dir.empty() ? "" : dir + "/") + std::to_string(flush.partition) + "-" + first + "-" +
                        NewUuid() + ".parquet";
    out.partition = group.values;
    FLOE_ASSIGN_OR_RETURN(auto file, table_root.Create(out.relative_path));
    FLOE_ASSIGN_OR_RETURN(auto writer, columnar::ParquetFileWriter::Open(file->stream(), group.rows->schema(), parquet));
    FLOE_RETURN_IF_ERROR(writer->Write(*group.rows));
    FLOE_ASSIGN_OR_RETURN(out.written, writer->Close());
    FLOE_RETURN_IF_ERROR(file->Commit());
    files.push_back(std::move(out));
  }
  return files;
}

}  // namespace floe::sink
