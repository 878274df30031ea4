#include "floe/columnar/parquet_file_writer.h"

#include <arrow/io/interfaces.h>
#include <parquet/arrow/writer.h>
#include <parquet/file_writer.h>
#include <parquet/properties.h>

#include "floe/core/arrow_interop.h"

namespace floe::columnar {
namespace {

arrow::Compression::type ToArrow(Compression c) {
  switch (c) {
    case Compression::kZstd: return arrow::Compression::ZSTD;
    case Compression::kSnappy: return arrow::Compression::SNAPPY;
    case Compression::kNone: return arrow::Compression::UNCOMPRESSED;
  }
  return arrow::Compression::ZSTD;
}

}  // namespace

ParquetFileWriter::ParquetFileWriter(std::shared_ptr<arrow::io::OutputStream> sink,
                                     std::unique_ptr<parquet::arrow::FileWriter> writer)
    : sink_(std::move(sink)), writer_(std::move(writer)) {}

ParquetFileWriter::~ParquetFileWriter() = default;

Result<std::unique_ptr<ParquetFileWriter>> ParquetFileWriter::Open(std::shared_ptr<arrow::io::OutputStream> sink,
                                                                   std::shared_ptr<arrow::Schema> schema,
                                                                   const ParquetOptions& options) {
  parquet::WriterProperties::Builder props;
  props.compression(ToArrow(options.compression))
      ->max_row_group_length(options.max_row_group_rows)
      ->enable_statistics()
      ->created_by("floe");
  if (options.compression == Compression::kZstd) props.compression_level(options.compression_level);
  if (!options.dictionary) props.disable_dictionary();
  for (const auto& path : options.plain_columns) props.disable_dictionary(path);
  // Timestamps stay in the unit Floe chose (microseconds); never coerce to INT96.
  parquet::ArrowWriterProperties::Builder arrow_props;
  arrow_props.store_schema();
  // Columns are encoded in parallel on Arrow's CPU pool: a table's commit is one file per table
  // partition, and the poll thread alone cannot keep more than one core busy. Safe because no
  // writer runs on that pool itself (Arrow's warning: nested use may deadlock); Floe writes
  // from its own threads (pipeline/worker_pool.h, maintenance).
  arrow_props.set_use_threads(options.parallel_columns);
  FLOE_ASSIGN_OR_RETURN_ARROW(auto writer,
                              parquet::arrow::FileWriter::Open(*schema, arrow::default_memory_pool(), sink,
                                                               props.build(), arrow_props.build()));
  return std::unique_ptr<ParquetFileWriter>(new ParquetFileWriter(std::move(sink), std::move(writer)));
}

Status ParquetFileWriter::Write(const arrow::RecordBatch& batch) {
  FLOE_RETURN_IF_ARROW_ERROR(writer_->WriteRecordBatch(batch));
  rows_ += batch.num_rows();
  return Status::OK();
}

std::int64_t ParquetFileWriter::BytesWritten() const {
  auto position = sink_->Tell();
  return position.ok() ? *position : 0;
}

Result<WrittenFile> ParquetFileWriter::Close() {
  FLOE_RETURN_IF_ARROW_ERROR(writer_->Close());
  WrittenFile out;
  out.rows = rows_;
  out.metadata = writer_->metadata();
  FLOE_ASSIGN_OR_RETURN_ARROW(out.bytes, sink_->Tell());
  FLOE_RETURN_IF_ARROW_ERROR(sink_->Close());
  return out;
}

}  // namespace floe::columnar
