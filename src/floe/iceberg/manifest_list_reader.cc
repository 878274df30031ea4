// Reading manifest lists written by any engine: decode the file with its own writer schema
// into Arrow, then pick columns by name (v1 files lack some v2 columns; Java's v1 writer
// also used "added_data_files_count"-style names).
#include <arrow/api.h>

#include "floe/avro/container_file.h"
#include "floe/core/arrow_interop.h"
#include "floe/iceberg/manifest_internal.h"
#include "floe/storage/file_io.h"

namespace floe::iceberg {
namespace {

std::shared_ptr<arrow::Array> Column(const arrow::RecordBatch& batch, std::initializer_list<const char*> names) {
  for (const char* n : names) {
    if (auto c = batch.GetColumnByName(n)) return c;
  }
  return nullptr;
}

template <typename ArrowArray, typename T>
Status Read(const std::shared_ptr<arrow::Array>& column, std::int64_t row, T& out, const char* name, bool required) {
  if (!column) {
    if (required) return Status::InvalidArgument(std::string("manifest list has no column ") + name);
    return Status::OK();
  }
  auto typed = std::dynamic_pointer_cast<ArrowArray>(column);
  if (!typed) return Status::InvalidArgument(std::string("manifest list column ") + name + " has type " + column->type()->ToString());
  if (typed->IsNull(row)) return Status::OK();
  if constexpr (std::is_same_v<T, std::string>) {
    out = std::string(typed->GetView(row));
  } else {
    out = static_cast<T>(typed->Value(row));
  }
  return Status::OK();
}

Result<std::vector<FieldSummary>> ReadSummaries(const std::shared_ptr<arrow::Array>& column, std::int64_t row) {
  std::vector<FieldSummary> out;
  if (!column || column->IsNull(row)) return out;
  auto list = std::dynamic_pointer_cast<arrow::ListArray>(column);
  if (!list) return Status::InvalidArgument("manifest list column partitions is not a list");
  auto items = std::dynamic_pointer_cast<arrow::StructArray>(list->values());
  if (!items) return Status::InvalidArgument("manifest list partitions are not records");
  auto contains_null = items->GetFieldByName("contains_null");
  auto contains_nan = items->GetFieldByName("contains_nan");
  auto lower = items->GetFieldByName("lower_bound");
  auto upper = items->GetFieldByName("upper_bound");
  for (std::int64_t i = list->value_offset(row); i < list->value_offset(row) + list->value_length(row); ++i) {
    FieldSummary s;
    FLOE_RETURN_IF_ERROR((Read<arrow::BooleanArray>(contains_null, i, s.contains_null, "contains_null", true)));
    if (contains_nan && !contains_nan->IsNull(i)) {
      bool nan = false;
      FLOE_RETURN_IF_ERROR((Read<arrow::BooleanArray>(contains_nan, i, nan, "contains_nan", false)));
      s.contains_nan = nan;
    }
    if (lower && !lower->IsNull(i)) {
      std::string v;
      FLOE_RETURN_IF_ERROR((Read<arrow::BinaryArray>(lower, i, v, "lower_bound", false)));
      s.lower_bound = v;
    }
    if (upper && !upper->IsNull(i)) {
      std::string v;
      FLOE_RETURN_IF_ERROR((Read<arrow::BinaryArray>(upper, i, v, "upper_bound", false)));
      s.upper_bound = v;
    }
    out.push_back(std::move(s));
  }
  return out;
}

}  // namespace

Result<std::vector<ManifestFile>> ReadManifestList(const std::string& uri) {
  std::string path;
  FLOE_ASSIGN_OR_RETURN(auto fs, storage::FileSystemForUri(uri, &path));
  FLOE_ASSIGN_OR_RETURN_ARROW(auto input, fs->OpenInputFile(path));
  return ReadManifestList(std::move(input));
}

Result<std::vector<ManifestFile>> ReadManifestList(std::shared_ptr<arrow::io::RandomAccessFile> file) {
  FLOE_ASSIGN_OR_RETURN(auto reader, avro::ContainerFileReader::Open(std::move(file)));
  FLOE_ASSIGN_OR_RETURN(auto batch, reader->ReadAll());
  std::vector<ManifestFile> out;
  const auto path_col = Column(*batch, {"manifest_path"});
  const auto length_col = Column(*batch, {"manifest_length"});
  const auto spec_col = Column(*batch, {"partition_spec_id"});
  const auto content_col = Column(*batch, {"content"});
  const auto seq_col = Column(*batch, {"sequence_number"});
  const auto min_seq_col = Column(*batch, {"min_sequence_number"});
  const auto snap_col = Column(*batch, {"added_snapshot_id"});
  const auto added_files = Column(*batch, {"added_files_count", "added_data_files_count"});
  const auto existing_files = Column(*batch, {"existing_files_count", "existing_data_files_count"});
  const auto deleted_files = Column(*batch, {"deleted_files_count", "deleted_data_files_count"});
  const auto added_rows = Column(*batch, {"added_rows_count"});
  const auto existing_rows = Column(*batch, {"existing_rows_count"});
  const auto deleted_rows = Column(*batch, {"deleted_rows_count"});
  const auto partitions = Column(*batch, {"partitions"});
  const auto key_metadata = Column(*batch, {"key_metadata"});
  for (std::int64_t r = 0; r < batch->num_rows(); ++r) {
    ManifestFile m;
    FLOE_RETURN_IF_ERROR((Read<arrow::StringArray>(path_col, r, m.manifest_path, "manifest_path", true)));
    FLOE_RETURN_IF_ERROR((Read<arrow::Int64Array>(length_col, r, m.manifest_length, "manifest_length", true)));
    FLOE_RETURN_IF_ERROR((Read<arrow::Int32Array>(spec_col, r, m.partition_spec_id, "partition_spec_id", true)));
    FLOE_RETURN_IF_ERROR((Read<arrow::Int32Array>(content_col, r, m.content, "content", false)));
    FLOE_RETURN_IF_ERROR((Read<arrow::Int64Array>(seq_col, r, m.sequence_number, "sequence_number", false)));
    FLOE_RETURN_IF_ERROR((Read<arrow::Int64Array>(min_seq_col, r, m.min_sequence_number, "min_sequence_number", false)));
    FLOE_RETURN_IF_ERROR((Read<arrow::Int64Array>(snap_col, r, m.added_snapshot_id, "added_snapshot_id", true)));
    FLOE_RETURN_IF_ERROR((Read<arrow::Int32Array>(added_files, r, m.added_files_count, "added_files_count", false)));
    FLOE_RETURN_IF_ERROR((Read<arrow::Int32Array>(existing_files, r, m.existing_files_count, "existing_files_count", false)));
    FLOE_RETURN_IF_ERROR((Read<arrow::Int32Array>(deleted_files, r, m.deleted_files_count, "deleted_files_count", false)));
    FLOE_RETURN_IF_ERROR((Read<arrow::Int64Array>(added_rows, r, m.added_rows_count, "added_rows_count", false)));
    FLOE_RETURN_IF_ERROR((Read<arrow::Int64Array>(existing_rows, r, m.existing_rows_count, "existing_rows_count", false)));
    FLOE_RETURN_IF_ERROR((Read<arrow::Int64Array>(deleted_rows, r, m.deleted_rows_count, "deleted_rows_count", false)));
    FLOE_ASSIGN_OR_RETURN(m.partitions, ReadSummaries(partitions, r));
    // Kept so that a snapshot carrying this manifest over lists it with its key again.
    if (key_metadata && !key_metadata->IsNull(r)) {
      std::string key;
      FLOE_RETURN_IF_ERROR((Read<arrow::BinaryArray>(key_metadata, r, key, "key_metadata", false)));
      m.key_metadata = std::move(key);
    }
    out.push_back(std::move(m));
  }
  return out;
}

}  // namespace floe::iceberg
