#pragma once
// Writing one table commit's buffered batches as Parquet data files, the same way for every
// table format: conformed to the table's current schema (field ids), split by the table's
// partition spec, and packed per table partition — the rows of all the commit's Kafka
// partitions that share partition values go into the same files, a new file once one reaches
// target_file_size — so a commit writes about data / target_file_size files per table
// partition however many Kafka partitions it covers (1,000 partitions committing every second
// must not make 1,000 files a second). Files go under <table root>/data/<partition path>/,
// named <kafka partition>-<first offset>-<uuid>.parquet after their first rows (readable,
// unique across writers). Each file is complete (footer written, renamed into place) before it
// is returned.
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "floe/columnar/parquet_file_writer.h"
#include "floe/core/result.h"
#include "floe/sink/table_sink.h"
#include "floe/schema/literal.h"
#include "floe/schema/partition.h"
#include "floe/storage/file_io.h"

namespace floe::sink {

struct WrittenDataFile {
  std::string relative_path;  // from the table root
  std::vector<schema::PartitionValue> partition;
  columnar::WrittenFile written;
  // Indexes into the commit's flushes of those with rows in this file: the file may be
  // committed only together with all of them (fencing one means writing the others again).
  std::vector<std::size_t> flushes;
};

struct DataFileOptions {
  columnar::ParquetOptions parquet;
  // A file is closed and the next one begun once its bytes on storage reach this (checked
  // after each batch; Parquet row groups of up to max_row_group_rows rows are written whole).
  std::int64_t target_file_size = 128LL << 20;
};

// Writes the rows of flushes[i] for every i in `which`.
Result<std::vector<WrittenDataFile>> WriteDataFiles(storage::FileIO& table_root, const schema::Schema& schema,
                                                    const schema::PartitionSpec& spec,
                                                    const std::vector<PartitionFlush>& flushes,
                                                    const std::vector<std::size_t>& which,
                                                    const DataFileOptions& options);

// Whether every file holding rows of a flush in `taken` holds rows of taken flushes only:
// then the files of `taken` can be committed as they are.
bool FilesSeparate(const std::vector<WrittenDataFile>& files, const std::vector<std::size_t>& taken);
// Whether `file` holds rows of a flush in `taken` (FilesSeparate: of those only).
bool TakesFile(const WrittenDataFile& file, const std::vector<std::size_t>& taken);
// The files of the flushes in `taken`, with their flush indexes made positions in `taken`:
// for committing the same files with the flushes `taken` picks out.
std::vector<WrittenDataFile> FilesFor(const std::vector<WrittenDataFile>& files, const std::vector<std::size_t>& taken);

}  // namespace floe::sink
