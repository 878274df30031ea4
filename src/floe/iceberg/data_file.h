#pragma once
// A data file as manifests describe it (spec: "Manifests", data_file struct): location,
// size, row count, partition tuple and per-column metrics keyed by field id.
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include "floe/schema/literal.h"
#include <vector>

namespace floe::iceberg {

using schema::Literal;
using schema::PartitionValue;

struct DataFile {
  std::string file_path;  // absolute URI
  std::string file_format = "PARQUET";
  std::vector<PartitionValue> partition;  // one per field of the partition spec, in order
  int spec_id = 0;
  std::int64_t record_count = 0;
  std::int64_t file_size_in_bytes = 0;
  std::map<int, std::int64_t> column_sizes;
  std::map<int, std::int64_t> value_counts;
  std::map<int, std::int64_t> null_value_counts;
  std::map<int, std::int64_t> nan_value_counts;
  std::map<int, std::string> lower_bounds;  // single-value binary serialization
  std::map<int, std::string> upper_bounds;
  std::vector<std::int64_t> split_offsets;  // row group start offsets
  std::optional<int> sort_order_id;
};

}  // namespace floe::iceberg
