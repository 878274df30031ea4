#pragma once
// Writing one partition's buffered batches as Parquet data files, the same way for every
// table format: conformed to the table's current schema (field ids), split by the table's
// partition spec, one file per partition value under <table root>/data/<partition path>/,
// named <kafka partition>-<first offset>-<uuid>.parquet (readable, unique across writers).
// Each file is complete (footer written, renamed into place) before it is returned.
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
};

Result<std::vector<WrittenDataFile>> WriteDataFiles(storage::FileIO& table_root, const schema::Schema& schema,
                                                    const schema::PartitionSpec& spec, const PartitionFlush& flush,
                                                    const columnar::ParquetOptions& parquet);

}  // namespace floe::sink
