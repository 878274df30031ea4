// Test tool: compacts an Iceberg table's small data files through Floe's own code — live
// files of the current snapshot (table_scan.h), grouped by partition spec and tuple, read
// with parquet::arrow, merged into files of up to --target-rows rows (ParquetFileWriter,
// column metrics), committed as a "replace" snapshot (replace_files.h) with retry on commit
// conflicts — so integration tests can check the result with pyiceberg and DuckDB before
// the maintenance module exists. Prints {"files_before", "files_after", "snapshot_id", …}.
#include <arrow/api.h>
#include <arrow/compute/api.h>
#include <arrow/compute/initialize.h>
#include <arrow/filesystem/api.h>
#include <CLI/CLI.hpp>
#include <parquet/arrow/reader.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <thread>
#include <nlohmann/json.hpp>

#include "floe/catalog/iceberg_catalog.h"
#include "floe/columnar/parquet_file_writer.h"
#include "floe/columnar/partitioner.h"
#include "floe/core/arrow_interop.h"
#include "floe/iceberg/parquet_metrics.h"
#include "floe/iceberg/replace_files.h"
#include "floe/iceberg/table_scan.h"
#include "floe/schema/arrow_schema.h"
#include "floe/storage/file_io.h"

namespace {

using floe::Result;
using floe::Status;
using floe::iceberg::DataFile;

struct Options {
  std::string catalog_uri;
  std::string warehouse;
  std::string table;
  std::int64_t target_rows = 1 << 20;
  int max_attempts = 10;
  // Test hooks around the first commit attempt, to force a conflict from another writer.
  std::string signal_prepared;  // written once the first commit is prepared
  std::string wait_for;         // waited for (up to 120 s) before the first commit is sent
};

Status WaitForFile(const std::string& path) {
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(120);
  while (!std::filesystem::exists(path)) {
    if (std::chrono::steady_clock::now() > deadline) return Status::Unavailable("timed out waiting for " + path);
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  return Status::OK();
}

Result<floe::catalog::TableIdentifier> ParseIdentifier(const std::string& text) {
  const auto dot = text.rfind('.');
  if (dot == std::string::npos || dot == 0 || dot + 1 == text.size()) {
    return Status::InvalidArgument("--table must be <namespace>.<table>");
  }
  floe::catalog::TableIdentifier id;
  const std::string ns = text.substr(0, dot);
  std::size_t start = 0;
  for (std::size_t i = 0; i <= ns.size(); ++i) {
    if (i == ns.size() || ns[i] == '.') {
      id.ns.push_back(ns.substr(start, i - start));
      start = i + 1;
    }
  }
  id.name = text.substr(dot + 1);
  return id;
}

std::optional<int> FieldId(const arrow::Field& field) {
  if (!field.metadata()) return std::nullopt;
  auto v = field.metadata()->Get(floe::schema::kParquetFieldIdKey);
  if (!v.ok()) return std::nullopt;
  try {
    return std::stoi(*v);
  } catch (...) {
    return std::nullopt;
  }
}

// A data file's rows under the table's Arrow schema: top-level columns matched by field id
// (by name only in files without ids), columns the file lacks (added since) filled with
// nulls, other types (promotions, large_utf8 from pyarrow writers) cast to the table's.
Result<std::shared_ptr<arrow::Table>> ReadDataFile(const DataFile& file, const std::shared_ptr<arrow::Schema>& target) {
  std::string path;
  FLOE_ASSIGN_OR_RETURN_ARROW(auto fs, arrow::fs::FileSystemFromUriOrPath(file.file_path, &path));
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

struct Group {
  int spec_id = 0;
  std::vector<floe::schema::PartitionValue> partition;
  std::vector<DataFile> files;
};

// Writes `rows` as files of at most `target_rows` rows under data/<partition path>/.
Result<std::vector<DataFile>> WriteMerged(floe::storage::FileIO& io, const std::string& dir,
                                          const std::shared_ptr<arrow::Table>& rows, const Group& group,
                                          const floe::schema::Schema& schema, std::int64_t target_rows) {
  std::vector<DataFile> out;
  for (std::int64_t offset = 0; offset < rows->num_rows(); offset += target_rows) {
    auto slice = rows->Slice(offset, std::min(target_rows, rows->num_rows() - offset));
    const std::string relative = "data/" + (dir.empty() ? "" : dir + "/") + floe::iceberg::NewUuid() + ".parquet";
    FLOE_ASSIGN_OR_RETURN(auto file, io.Create(relative));
    FLOE_ASSIGN_OR_RETURN(auto writer, floe::columnar::ParquetFileWriter::Open(file->stream(), rows->schema()));
    arrow::TableBatchReader batches(*slice);
    std::shared_ptr<arrow::RecordBatch> batch;
    for (;;) {
      FLOE_RETURN_IF_ARROW_ERROR(batches.ReadNext(&batch));
      if (!batch) break;
      FLOE_RETURN_IF_ERROR(writer->Write(*batch));
    }
    FLOE_ASSIGN_OR_RETURN(auto written, writer->Close());
    FLOE_RETURN_IF_ERROR(file->Commit());
    DataFile data;
    data.file_path = io.Uri(relative);
    data.file_size_in_bytes = written.bytes;
    data.partition = group.partition;
    data.spec_id = group.spec_id;
    FLOE_RETURN_IF_ERROR(floe::iceberg::AddParquetMetrics(*written.metadata, schema, data));
    out.push_back(std::move(data));
  }
  return out;
}

Status Run(const Options& o) {
  if (o.target_rows <= 0) return Status::InvalidArgument("--target-rows must be positive");
  FLOE_RETURN_IF_ARROW_ERROR(arrow::compute::Initialize());  // Arrow 21+: kernels (Cast) on request
  FLOE_ASSIGN_OR_RETURN(auto id, ParseIdentifier(o.table));
  FLOE_ASSIGN_OR_RETURN(auto catalog, floe::catalog::IcebergCatalog::Open(o.catalog_uri, o.warehouse));
  FLOE_ASSIGN_OR_RETURN(auto table, catalog->LoadTable(id));
  const floe::iceberg::TableMetadata metadata = table.metadata;  // the plan's base (table is reloaded on retry)
  const floe::schema::Schema schema = *metadata.CurrentSchema();
  FLOE_ASSIGN_OR_RETURN(auto arrow_schema, floe::schema::ToArrowSchema(schema));
  FLOE_ASSIGN_OR_RETURN(auto io, floe::storage::FileIO::Open(metadata.location));
  FLOE_ASSIGN_OR_RETURN(auto live, floe::iceberg::LiveDataFiles(metadata));
  const std::size_t files_before = live.size();

  // Small files per (spec, partition tuple), in listing order.
  std::map<std::pair<int, std::vector<floe::schema::PartitionValue>>, Group> groups;
  for (const auto& f : live) {
    if (f.record_count >= o.target_rows) continue;
    Group& g = groups[{f.spec_id, f.partition}];
    g.spec_id = f.spec_id;
    g.partition = f.partition;
    g.files.push_back(f);
  }
  std::vector<std::string> to_delete;
  std::vector<DataFile> to_add;
  for (const auto& [key, group] : groups) {
    std::int64_t rows = 0;
    for (const auto& f : group.files) rows += f.record_count;
    const std::int64_t outputs = (rows + o.target_rows - 1) / o.target_rows;
    if (group.files.size() < 2 || outputs >= static_cast<std::int64_t>(group.files.size())) continue;
    std::vector<std::shared_ptr<arrow::Table>> parts;
    for (const auto& f : group.files) {
      FLOE_ASSIGN_OR_RETURN(auto part, ReadDataFile(f, arrow_schema));
      parts.push_back(std::move(part));
    }
    FLOE_ASSIGN_OR_RETURN_ARROW(auto merged, arrow::ConcatenateTables(parts));
    std::string dir;
    const floe::schema::PartitionSpec* spec = metadata.SpecById(group.spec_id);
    if (auto partitioner = floe::columnar::Partitioner::Make(schema, *spec, arrow_schema); partitioner.ok()) {
      if (auto path = partitioner->Path(group.partition); path.ok()) dir = *path;
    }
    FLOE_ASSIGN_OR_RETURN(auto written, WriteMerged(io, dir, merged, group, schema, o.target_rows));
    for (const auto& f : group.files) to_delete.push_back(f.file_path);
    for (auto& f : written) to_add.push_back(std::move(f));
  }

  nlohmann::json out = {{"files_before", files_before},
                        {"rewritten_files", to_delete.size()},
                        {"added_files", to_add.size()}};
  if (to_delete.empty()) {
    out["files_after"] = files_before;
    out["snapshot_id"] = metadata.current_snapshot_id ? nlohmann::json(*metadata.current_snapshot_id) : nullptr;
    out["metadata_location"] = table.metadata_location;
    out["attempts"] = 0;
    std::cout << out.dump() << std::endl;
    return Status::OK();
  }
  // Optimistic concurrency: a commit conflict rebuilds the replace on fresh metadata (the
  // merged files stay valid); a file that another commit removed meanwhile ends the run.
  for (int attempt = 1;; ++attempt) {
    FLOE_ASSIGN_OR_RETURN(auto commit, floe::iceberg::PrepareReplaceFiles(table.metadata, to_delete, to_add));
    if (attempt == 1 && !o.signal_prepared.empty()) std::ofstream(o.signal_prepared) << "prepared\n";
    if (attempt == 1 && !o.wait_for.empty()) FLOE_RETURN_IF_ERROR(WaitForFile(o.wait_for));
    auto committed = catalog->CommitTable({id, commit.requirements, commit.updates});
    if (committed.ok()) {
      FLOE_ASSIGN_OR_RETURN(auto after, floe::iceberg::LiveDataFiles(committed->metadata));
      out["files_after"] = after.size();
      out["snapshot_id"] = commit.snapshot_id;
      out["metadata_location"] = committed->metadata_location;
      out["attempts"] = attempt;
      std::cout << out.dump() << std::endl;
      return Status::OK();
    }
    if (committed.status().code() != floe::StatusCode::kConflict || attempt >= o.max_attempts) {
      return committed.status();
    }
    FLOE_ASSIGN_OR_RETURN(table, catalog->LoadTable(id));
  }
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"Compact an Iceberg table's small data files with Floe's replace-files commit (test tool)"};
  Options o;
  app.add_option("--catalog-uri", o.catalog_uri)->required();
  app.add_option("--warehouse", o.warehouse)->required();
  app.add_option("--table", o.table, "<namespace>.<table>")->required();
  app.add_option("--target-rows", o.target_rows, "rows per merged file; files with fewer rows are small");
  app.add_option("--max-attempts", o.max_attempts, "commit attempts on conflicts");
  app.add_option("--signal-prepared", o.signal_prepared, "test hook: file written once the first commit is prepared");
  app.add_option("--wait-for", o.wait_for, "test hook: file waited for before the first commit is sent");
  CLI11_PARSE(app, argc, argv);
  const Status st = Run(o);
  if (!st.ok()) {
    std::cerr << "floe_iceberg_compact: " << st.ToString() << std::endl;
    return 1;
  }
  return 0;
}
