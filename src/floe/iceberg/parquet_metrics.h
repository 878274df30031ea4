#pragma once
// Column metrics for manifests, read from a Parquet footer: sizes, value and null counts,
// and lower/upper bounds in Iceberg's single-value binary serialization (spec Appendix D),
// keyed by the field ids the file carries. Engines prune files with these, so they must be
// exact or absent — never approximate in the wrong direction.
#include <memory>

#include "floe/core/result.h"
#include "floe/iceberg/data_file.h"
#include "floe/schema/types.h"

namespace parquet {
class FileMetaData;
}

namespace floe::iceberg {

struct MetricsOptions {
  int truncate_length = 16;  // Iceberg's default metrics mode: truncate(16)
};

// Fills record_count, split_offsets and the metric maps of `file` from `metadata`.
Status AddParquetMetrics(const parquet::FileMetaData& metadata, const schema::Schema& table_schema,
                         DataFile& file, const MetricsOptions& options = {});

// Truncation that keeps bounds valid: a truncated lower bound is a prefix (still <= every
// value); an upper bound is truncated then its last code point incremented (still >=), or
// dropped (nullopt) when no such value exists.
std::string TruncateLowerBound(const std::string& value, int length, bool utf8);
std::optional<std::string> TruncateUpperBound(const std::string& value, int length, bool utf8);

}  // namespace floe::iceberg
