#include "floe/sink/data_files.h"

#include <arrow/api.h>

#include <algorithm>
#include <map>
#include <memory>

#include "floe/columnar/conform.h"
#include "floe/columnar/dictionary_choice.h"
#include "floe/columnar/partitioner.h"
#include "floe/core/arrow_interop.h"
#include "floe/core/uuid.h"
#include "floe/schema/arrow_schema.h"

namespace floe::sink {

namespace {

bool Contains(const std::vector<std::size_t>& indexes, std::size_t i) {
  return std::find(indexes.begin(), indexes.end(), i) != indexes.end();
}

// The file being filled for one table partition.
struct OpenFile {
  std::unique_ptr<storage::PendingFile> file;
  std::unique_ptr<columnar::ParquetFileWriter> writer;
  WrittenDataFile out;
};

class PackedWriter {
 public:
  PackedWriter(storage::FileIO& table_root, const DataFileOptions& options) : root_(table_root), options_(options) {}

  // Appends `group` (rows of flushes[flush], all with the same partition values).
  Status Append(const columnar::PartitionGroup& group, const std::string& dir, const PartitionFlush& flush,
                std::size_t flush_index) {
    auto& open = open_[dir];
    if (!open) {
      open = std::make_unique<OpenFile>();
      const std::string first = flush.expected ? std::to_string(*flush.expected) : "0";
      open->out.relative_path = "data/" + (dir.empty() ? "" : dir + "/") + std::to_string(flush.partition) + "-" +
                                first + "-" + NewUuid() + ".parquet";
      open->out.partition = group.values;
      FLOE_ASSIGN_OR_RETURN(open->file, root_.Create(open->out.relative_path));
      columnar::ParquetOptions parquet = options_.parquet;
      if (parquet.dictionary) parquet.plain_columns = columnar::PlainEncodedColumns(*group.rows);
      FLOE_ASSIGN_OR_RETURN(open->writer,
                            columnar::ParquetFileWriter::Open(open->file->stream(), group.rows->schema(), parquet));
    }
    FLOE_RETURN_IF_ERROR(open->writer->Write(*group.rows));
    if (!Contains(open->out.flushes, flush_index)) open->out.flushes.push_back(flush_index);
    if (open->writer->BytesWritten() >= options_.target_file_size) return Close(dir);
    return Status::OK();
  }

  Result<std::vector<WrittenDataFile>> Finish() {
    while (!open_.empty()) FLOE_RETURN_IF_ERROR(Close(open_.begin()->first));
    return std::move(files_);
  }

 private:
  Status Close(const std::string& dir) {
    auto node = open_.extract(dir);
    OpenFile& open = *node.mapped();
    FLOE_ASSIGN_OR_RETURN(open.out.written, open.writer->Close());
    FLOE_RETURN_IF_ERROR(open.file->Commit());
    std::sort(open.out.flushes.begin(), open.out.flushes.end());
    files_.push_back(std::move(open.out));
    return Status::OK();
  }

  storage::FileIO& root_;
  const DataFileOptions& options_;
  std::map<std::string, std::unique_ptr<OpenFile>> open_;  // by partition path
  std::vector<WrittenDataFile> files_;
};

}  // namespace

Result<std::vector<WrittenDataFile>> WriteDataFiles(storage::FileIO& table_root, const schema::Schema& schema,
                                                    const schema::PartitionSpec& spec,
                                                    const std::vector<PartitionFlush>& flushes,
                                                    const std::vector<std::size_t>& which,
                                                    const DataFileOptions& options) {
  FLOE_ASSIGN_OR_RETURN(auto target, schema::ToArrowSchema(schema));
  FLOE_ASSIGN_OR_RETURN(auto partitioner, columnar::Partitioner::Make(schema, spec, target));
  PackedWriter packed(table_root, options);
  // Flush by flush, batch by batch: rows of one Kafka partition stay in offset order within
  // each file, and no batch is copied into one big one first.
  for (std::size_t i : which) {
    const PartitionFlush& flush = flushes[i];
    const std::string where = flush.topic + "/" + std::to_string(flush.partition);
    for (const auto& batch : flush.batches) {
      if (batch->num_rows() == 0) continue;
      auto conformed = columnar::ConformBatch(*batch, target);
      if (!conformed.ok()) return conformed.status().WithContext(where);
      FLOE_ASSIGN_OR_RETURN(auto groups, partitioner.Split(*conformed));
      for (const auto& group : groups) {
        FLOE_ASSIGN_OR_RETURN(auto dir, partitioner.Path(group.values));
        FLOE_RETURN_IF_ERROR(packed.Append(group, dir, flush, i));
      }
    }
  }
  return packed.Finish();
}

bool FilesSeparate(const std::vector<WrittenDataFile>& files, const std::vector<std::size_t>& taken) {
  for (const auto& file : files) {
    const bool any = std::any_of(file.flushes.begin(), file.flushes.end(), [&](std::size_t i) { return Contains(taken, i); });
    const bool all = std::all_of(file.flushes.begin(), file.flushes.end(), [&](std::size_t i) { return Contains(taken, i); });
    if (any && !all) return false;
  }
  return true;
}

bool TakesFile(const WrittenDataFile& file, const std::vector<std::size_t>& taken) {
  return std::any_of(file.flushes.begin(), file.flushes.end(), [&](std::size_t i) { return Contains(taken, i); });
}

std::vector<WrittenDataFile> FilesFor(const std::vector<WrittenDataFile>& files, const std::vector<std::size_t>& taken) {
  std::vector<WrittenDataFile> out;
  for (const auto& file : files) {
    if (!TakesFile(file, taken)) continue;
    WrittenDataFile copy = file;
    copy.flushes.clear();
    for (std::size_t i : file.flushes) {
      auto at = std::find(taken.begin(), taken.end(), i);
      if (at != taken.end()) copy.flushes.push_back(static_cast<std::size_t>(at - taken.begin()));
    }
    out.push_back(std::move(copy));
  }
  return out;
}

}  // namespace floe::sink
