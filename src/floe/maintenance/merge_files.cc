#include "floe/maintenance/merge_files_internal.h"

#include <arrow/api.h>
#include <arrow/compute/api.h>
#include <arrow/compute/initialize.h>
#include <arrow/filesystem/api.h>
#include <parquet/arrow/reader.h>

#include <algorithm>
#include <map>
#include <mutex>
#include <optional>

#include "floe/columnar/parquet_file_writer.h"
#include "floe/core/arrow_interop.h"
#include "floe/core/uuid.h"
#include "floe/iceberg/parquet_metrics.h"
#include "floe/schema/arrow_schema.h"
#include "floe/storage/file_io.h"

namespace floe::maintenance {
namespace {

std::optional<int> FieldId(const arrow::Field& field) {
  if (!field.metadata()) return std::nullopt;
  auto v = field.metadata()->Get(schema::kParquetFieldIdKey);
  if (!v.ok()) return std::nullopt;
  try {
    return std::stoi(*v);
  } catch (...) {
    return std::nullopt;
  }
}

// Arrow 21+ registers compute kernels (Cast) only on request.
Status InitializeCompute() {
  static std::once_flag once;
  static arrow::Status status;
  std::call_once(once, [] { status = arrow::compute::Initialize(); });
  return FromArrow(status);
}

// One merged file being filled.
struct OpenOutput {
  std::string relative;
  std::unique_ptr<storage::PendingFile> file;
  std::unique_ptr<columnar::ParquetFileWriter> writer;
  std::int64_t rows = 0;
  std::vector<std::shared_ptr<arrow::Table>> held;  // sorted output: its rows, sorted when it is full
};

// The path of indices to the field with this id, among `fields` and their struct children.
bool FindFieldPath(const std::vector<schema::NestedField>& fields, int id, std::vector<int>& path) {
  for (std::size_t i = 0; i < fields.size(); ++i) {
    path.push_back(static_cast<int>(i));
    if (fields[i].id == id) return true;
    if (fields[i].type && fields[i].type->id() == schema::TypeId::kStruct &&
        FindFieldPath(fields[i].type->fields(), id, path)) {
      return true;
    }
    path.pop_back();
  }
  return false;
}

Result<OpenOutput> OpenNext(const MergeOutput& output) {
  OpenOutput out;
  out.relative = "data/" + (output.directory.empty() ? "" : output.directory + "/") + NewUuid() + ".parquet";
  FLOE_ASSIGN_OR_RETURN(out.file, output.io->Create(out.relative));
  columnar::ParquetOptions options;
  options.parallel_columns = false;  // one thread, whose CPU time the scheduler budgets
  FLOE_ASSIGN_OR_RETURN(out.writer,
                        columnar::ParquetFileWriter::Open(out.file->stream(), output.arrow_schema, options));
  return out;
}

Status WriteRows(columnar::ParquetFileWriter& writer, const arrow::Table& rows) {
  arrow::TableBatchReader batches(rows);
  std::shared_ptr<arrow::RecordBatch> batch;
  for (;;) {
    FLOE_RETURN_IF_ARROW_ERROR(batches.ReadNext(&batch));
    if (!batch) return Status::OK();
    FLOE_RETURN_IF_ERROR(writer.Write(*batch));
  }
}

// Sorted output: the held rows, sorted by the keys, into the writer.
Status WriteHeldSorted(OpenOutput& out, const MergeOutput& output) {
  if (out.held.empty()) return Status::OK();
  FLOE_ASSIGN_OR_RETURN_ARROW(auto rows, arrow::ConcatenateTables(out.held));
  out.held.clear();
  FLOE_ASSIGN_OR_RETURN_ARROW(auto indices,
                              arrow::compute::SortIndices(arrow::Datum(rows), arrow::compute::SortOptions(output.sort_keys)));
  FLOE_ASSIGN_OR_RETURN_ARROW(auto sorted, arrow::compute::Take(arrow::Datum(rows), arrow::Datum(indices)));
  return WriteRows(*out.writer, *sorted.table());
}

Result<iceberg::DataFile> Finish(OpenOutput& out, const MergeOutput& output) {
  FLOE_RETURN_IF_ERROR(WriteHeldSorted(out, output));
  FLOE_ASSIGN_OR_RETURN(auto written, out.writer->Close());
  FLOE_RETURN_IF_ERROR(out.file->Commit());
  iceberg::DataFile data;
  data.file_path = output.io->Uri(out.relative);
  data.file_size_in_bytes = written.bytes;
  data.partition = output.partition;
  data.spec_id = output.spec_id;
  if (!output.sort_keys.empty()) data.sort_order_id = output.sort_order_id;
  FLOE_RETURN_IF_ERROR(iceberg::AddParquetMetrics(*written.metadata, *output.schema, data));
  return data;
}

}  // namespace

Result<std::shared_ptr<arrow::Table>> ReadDataFile(const iceberg::DataFile& file,
                                                   const std::shared_ptr<arrow::Schema>& target) {
  FLOE_RETURN_IF_ERROR(InitializeCompute());
  std::string path;
  FLOE_ASSIGN_OR_RETURN(auto fs, storage::FileSystemForUri(file.file_path, &path));
  FLOE_ASSIGN_OR_RETURN_ARROW(auto input, fs->OpenInputFile(path));
  FLOE_ASSIGN_OR_RETURN_ARROW(auto reader, parquet::arrow::OpenFile(input, arrow::default_memory_pool()));
  std::shared_ptr<arrow::Table> table;
  FLOE_ASSIGN_OR_RETURN_ARROW(table, reader->ReadTable());
  if (table->num_rows() != file.record_count) {
    return Status::InvalidArgument(file.file_path + " has " + std::to_string(table->num_rows()) +
                                   " rows, its manifest entry says " + std::to_string(file.record_count));
  }
  std::map<int, int> by_id;
  for (int i = 0; i < table->schema()->num_fields(); ++i) {
    if (auto id = FieldId(*table->schema()->field(i))) by_id[*id] = i;
  }
  std::vector<std::shared_ptr<arrow::ChunkedArray>> columns;
  for (const auto& field : target->fields()) {
    int index = -1;
    if (auto id = FieldId(*field); id && by_id.count(*id)) {
      index = by_id[*id];
    } else if (by_id.empty()) {
      index = table->schema()->GetFieldIndex(field->name());
    }
    if (index < 0) {
      FLOE_ASSIGN_OR_RETURN_ARROW(auto nulls, arrow::MakeArrayOfNull(field->type(), table->num_rows()));
      columns.push_back(std::make_shared<arrow::ChunkedArray>(nulls));
      continue;
    }
    auto column = table->column(index);
    if (!column->type()->Equals(*field->type(), /*check_metadata=*/false)) {
      if (auto viewed = column->View(field->type()); viewed.ok()) {  // same layout: names, metadata
        column = *viewed;
      } else {
        auto cast = arrow::compute::Cast(arrow::Datum(column), field->type());
        if (!cast.ok()) {
          return Status::Unsupported(file.file_path + ": column '" + field->name() + "' is " +
                                     column->type()->ToString() + ", the table has " + field->type()->ToString() +
                                     ": " + cast.status().ToString());
        }
        column = cast->chunked_array();
      }
    }
    columns.push_back(column);
  }
  return arrow::Table::Make(target, columns, table->num_rows());
}

Result<std::vector<iceberg::DataFile>> MergeDataFiles(const std::vector<iceberg::DataFile>& inputs,
                                                      const MergeOutput& output) {
  if (output.target_rows <= 0) return Status::InvalidArgument("merged files need a positive row target");
  std::vector<iceberg::DataFile> merged;
  std::optional<OpenOutput> current;
  for (const auto& input : inputs) {
    FLOE_ASSIGN_OR_RETURN(auto rows, ReadDataFile(input, output.arrow_schema));
    // An input is split where an output fills up, so every output but the last is full.
    for (std::int64_t offset = 0; offset < rows->num_rows();) {
      if (!current) {
        FLOE_ASSIGN_OR_RETURN(auto next, OpenNext(output));
        current.emplace(std::move(next));
      }
      const std::int64_t n = std::min(output.target_rows - current->rows, rows->num_rows() - offset);
      if (output.sort_keys.empty()) {
        FLOE_RETURN_IF_ERROR(WriteRows(*current->writer, *rows->Slice(offset, n)));
      } else {
        current->held.push_back(rows->Slice(offset, n));
      }
      current->rows += n;
      offset += n;
      if (current->rows == output.target_rows) {
        FLOE_ASSIGN_OR_RETURN(auto data, Finish(*current, output));
        merged.push_back(std::move(data));
        current.reset();
      }
    }
  }
  if (current) {
    FLOE_ASSIGN_OR_RETURN(auto data, Finish(*current, output));
    merged.push_back(std::move(data));
  }
  return merged;
}

Result<std::vector<arrow::compute::SortKey>> ArrowSortKeys(const schema::SortOrder& order,
                                                           const schema::Schema& schema) {
  std::vector<arrow::compute::SortKey> keys;
  for (const auto& field : order.fields) {
    if (field.transform.kind != schema::TransformKind::kIdentity) {
      return Status::Unsupported("sort order " + std::to_string(order.order_id) + " sorts by " +
                                 field.transform.ToString() + "(field " + std::to_string(field.source_id) +
                                 "): Floe sorts by columns (identity) only");
    }
    std::vector<int> path;
    if (!FindFieldPath(schema.fields, field.source_id, path)) {
      return Status::InvalidArgument("sort order " + std::to_string(order.order_id) + " sorts by field " +
                                     std::to_string(field.source_id) + ", which the schema does not have");
    }
    keys.emplace_back(arrow::FieldRef(arrow::FieldPath(path)),
                      field.direction == schema::SortDirection::kDesc ? arrow::compute::SortOrder::Descending
                                                                     : arrow::compute::SortOrder::Ascending,
                      field.null_order == schema::NullOrder::kNullsFirst ? arrow::compute::NullPlacement::AtStart
                                                                         : arrow::compute::NullPlacement::AtEnd);
  }
  return keys;
}

}  // namespace floe::maintenance
