#pragma once
// Which columns a Parquet file writes without a dictionary. Dictionary encoding pays off on
// low-cardinality columns only: on near-unique ones (ids, timestamps, measurements) Parquet
// builds the dictionary, finds it too big and falls back to plain encoding, having spent the
// time — about 8 % of floe run's CPU in the benchmark's profile (bench/README.md). The choice
// is made per file from the rows it starts with: a leaf column (top level or inside structs;
// list elements keep the default) whose sampled values are mostly distinct, and every
// floating-point column, is written plain. A column with too few non-null values in the sample
// to tell keeps the dictionary.
#include <arrow/type_fwd.h>

#include <cstdint>
#include <string>
#include <vector>

namespace floe::columnar {

struct DictionaryChoice {
  std::int64_t sample_rows = 4096;
  double max_distinct_ratio = 0.5;  // more distinct values per non-null value than this: plain
  std::int64_t min_values = 64;     // fewer non-null values in the sample: keep the default
};

// Parquet column paths ("device.os") of the columns of `sample` to write without a dictionary.
std::vector<std::string> PlainEncodedColumns(const arrow::RecordBatch& sample, const DictionaryChoice& choice = {});

}  // namespace floe::columnar
