#include "floe/maintenance/bin_pack_internal.h"

#include <algorithm>
#include <numeric>

namespace floe::maintenance {

Status CheckCompactionOptions(const CompactionOptions& options) {
  if (options.target_file_size <= 0) return Status::InvalidArgument("target file size must be positive");
  if (options.target_rows < 0) return Status::InvalidArgument("target rows must not be negative");
  if (options.max_commit_attempts < 1) return Status::InvalidArgument("max commit attempts must be at least 1");
  return Status::OK();
}

bool IsSmallFile(std::int64_t bytes, std::int64_t rows, const CompactionOptions& options) {
  if (bytes >= options.target_file_size) return false;
  return options.target_rows <= 0 || rows < options.target_rows;
}

std::vector<std::size_t> FilesToMergeNow(const std::vector<std::int64_t>& sizes, const CompactionOptions& options) {
  std::vector<std::size_t> order(sizes.size());
  std::iota(order.begin(), order.end(), std::size_t{0});
  if (options.size_ratio <= 0) return order;
  std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) { return sizes[a] < sizes[b]; });
  std::size_t taken = 0;
  double gathered = 0;
  for (; taken < order.size(); ++taken) {
    const double size = static_cast<double>(std::max<std::int64_t>(sizes[order[taken]], 1));
    if (taken > 0 && size > options.size_ratio * gathered) break;
    gathered += size;
  }
  order.resize(taken);
  std::sort(order.begin(), order.end());
  return order;
}

std::int64_t RowsPerMergedFile(std::int64_t bytes, std::int64_t rows, const CompactionOptions& options) {
  std::int64_t per_file = rows;
  if (bytes > 0 && rows > 0) {
    // Bytes per row of the inputs: small files carry a footer and compress worse each, so a
    // merged file of this many rows comes out at or under the target.
    const double bytes_per_row = static_cast<double>(bytes) / static_cast<double>(rows);
    per_file = static_cast<std::int64_t>(static_cast<double>(options.target_file_size) / bytes_per_row);
  }
  if (options.target_rows > 0) per_file = std::min(per_file, options.target_rows);
  return std::max<std::int64_t>(per_file, 1);
}

std::int64_t MergedFileCount(std::int64_t rows, std::int64_t rows_per_file) {
  return (rows + rows_per_file - 1) / rows_per_file;
}

bool WorthMerging(std::size_t files, std::int64_t rows, std::int64_t rows_per_file) {
  return files >= 2 && MergedFileCount(rows, rows_per_file) < static_cast<std::int64_t>(files);
}

}  // namespace floe::maintenance
