#pragma once
// Writes Arrow record batches as one Parquet file. Field-id metadata on the Arrow schema
// (PARQUET:field_id) is carried into the Parquet schema, which is how Iceberg and Delta
// (column mapping mode id) resolve columns after renames.
#include <arrow/io/interfaces.h>
#include <arrow/record_batch.h>
#include <arrow/type_fwd.h>

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "floe/core/result.h"

namespace parquet {
class FileMetaData;
namespace arrow {
class FileWriter;
}  // namespace arrow
}  // namespace parquet

namespace floe::columnar {

enum class Compression { kZstd, kSnappy, kNone };

struct ParquetOptions {
  Compression compression = Compression::kZstd;
  // zstd level 1, not zstd's own default 3: on the bench's events (a 634k-row file) level 1
  // encoded the file in 23 % less CPU (0.49 s vs 0.64 s) and was no larger (33.4 vs 34.3 MB):
  // Parquet pages are small and already dictionary- and RLE-encoded, so level 3's deeper
  // match search finds little more. Readers decompress either at the same speed.
  int compression_level = 1;
  std::int64_t max_row_group_rows = 1 << 20;
  bool dictionary = true;
  // Parquet column paths ("device.os") written without a dictionary even when `dictionary`
  // (dictionary_choice.h picks them).
  std::vector<std::string> plain_columns;
  // Columns encoded in parallel on Arrow's CPU pool. Maintenance writes on one thread whose
  // CPU time it budgets (maintenance/scheduler.h), so it turns this off.
  bool parallel_columns = true;
};

struct WrittenFile {
  std::int64_t rows = 0;
  std::int64_t bytes = 0;
  std::shared_ptr<parquet::FileMetaData> metadata;  // footer: row groups and column statistics
};

class ParquetFileWriter {
 public:
  static Result<std::unique_ptr<ParquetFileWriter>> Open(std::shared_ptr<arrow::io::OutputStream> sink,
                                                         std::shared_ptr<arrow::Schema> schema,
                                                         const ParquetOptions& options = {});
  ~ParquetFileWriter();

  Status Write(const arrow::RecordBatch& batch);
  // Bytes in the sink so far: complete row groups (the one being buffered is not counted).
  std::int64_t BytesWritten() const;
  // Writes the footer and closes the sink. The file is complete only after this returns OK.
  Result<WrittenFile> Close();

 private:
  ParquetFileWriter(std::shared_ptr<arrow::io::OutputStream> sink, std::unique_ptr<parquet::arrow::FileWriter> writer);
  std::shared_ptr<arrow::io::OutputStream> sink_;
  std::unique_ptr<parquet::arrow::FileWriter> writer_;
  std::int64_t rows_ = 0;
};

}  // namespace floe::columnar
