// Test tool: appends the rows of a Parquet file to a Delta table through Floe's own writer
// path — table creation, identity partitioning, Parquet files with field ids, stats from the
// footer, txn actions, put-if-absent commit with retry on conflict, checkpoints — so
// integration tests can check Floe-written Delta tables with delta-rs and DuckDB before the
// pipeline writes them. New input columns evolve the schema (a new metaData action).
// --signal-prepared/--wait-for line up two runs on one base version to force a conflict.
// --config takes a floe.yaml's storage: section, for tables on S3.
#include <arrow/api.h>
#include <arrow/io/api.h>
#include <CLI/CLI.hpp>
#include <nlohmann/json.hpp>
#include <parquet/arrow/reader.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <random>
#include <thread>

#include "floe/columnar/conform.h"
#include "floe/columnar/parquet_file_writer.h"
#include "floe/columnar/partitioner.h"
#include "floe/core/arrow_interop.h"
#include "floe/core/config.h"
#include "floe/core/logging.h"
#include "floe/delta/delta_log.h"
#include "floe/delta/partition_values.h"
#include "floe/delta/stats.h"
#include "floe/schema/arrow_schema.h"
#include "floe/schema/evolution.h"
#include "floe/storage/file_io.h"
#include "floe/storage/object_stores.h"

namespace {

using floe::Result;
using floe::Status;

struct Options {
  std::string location;
  std::string input;
  std::vector<std::string> partition_by;
  std::vector<std::string> txns;  // appId=version
  std::string column_mapping;     // at creation: none | name | id (default: Floe's, name)
  std::int64_t rows_per_file = 1 << 20;
  int checkpoint_interval = 10;
  int max_attempts = 10;
  std::string signal_prepared;
  std::string wait_for;
  std::string config;  // floe.yaml whose storage: section configures object stores
  bool state_only = false;  // print the replayed table state instead of appending
};

Status WaitForFile(const std::string& path) {
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(120);
  while (!std::filesystem::exists(path)) {
    if (std::chrono::steady_clock::now() > deadline) return Status::Unavailable("--wait-for " + path + ": timed out");
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  return Status::OK();
}

Result<std::shared_ptr<arrow::Table>> ReadInput(const std::string& path) {
  FLOE_ASSIGN_OR_RETURN_ARROW(auto file, arrow::io::ReadableFile::Open(path));
  FLOE_ASSIGN_OR_RETURN_ARROW(auto reader, parquet::arrow::OpenFile(file, arrow::default_memory_pool()));
  return floe::FromArrow(reader->ReadTable());
}

std::string RandomName() {
  static std::mt19937_64 rng{std::random_device{}()};
  char buf[40];
  std::snprintf(buf, sizeof buf, "%016llx%016llx", static_cast<unsigned long long>(rng()),
                static_cast<unsigned long long>(rng()));
  return buf;
}

// The table schema for this input: the input's at creation, else the table's with the
// input's new columns merged in (nullopt: the table already fits).
Result<std::optional<floe::schema::Schema>> SchemaChange(const floe::delta::TableState& state,
                                                         const arrow::Schema& input) {
  FLOE_ASSIGN_OR_RETURN(auto incoming, floe::schema::FromArrowSchema(input));
  if (state.version < 0) return std::optional<floe::schema::Schema>(floe::schema::AssignFreshIds(incoming));
  int last_id = state.schema.HighestFieldId();
  if (auto it = state.configuration.find("delta.columnMapping.maxColumnId"); it != state.configuration.end()) {
    last_id = std::max(last_id, std::atoi(it->second.c_str()));
  }
  FLOE_ASSIGN_OR_RETURN(auto merge, floe::schema::MergeSchemas(state.schema, incoming, last_id));
  if (!merge.changed) return std::optional<floe::schema::Schema>();
  return std::optional<floe::schema::Schema>(merge.schema);
}

Result<std::vector<floe::delta::AddFile>> WriteFiles(floe::storage::FileIO& io, const arrow::Table& input,
                                                     const floe::schema::Schema& schema,
                                                     const std::vector<std::string>& partition_columns,
                                                     std::int64_t rows_per_file) {
  FLOE_ASSIGN_OR_RETURN(auto arrow_schema, floe::schema::ToArrowSchema(schema));
  floe::schema::PartitionSpec spec;
  std::vector<const floe::schema::NestedField*> sources;
  for (std::size_t i = 0; i < partition_columns.size(); ++i) {
    FLOE_ASSIGN_OR_RETURN(auto field, floe::schema::ParsePartitionExpression(partition_columns[i], schema,
                                                                              1000 + static_cast<int>(i)));
    if (field.transform.ToString() != "identity") {
      return Status::InvalidArgument("Delta partitions are identity columns: '" + partition_columns[i] + "'");
    }
    sources.push_back(schema.FindById(field.source_id));
    spec.fields.push_back(field);
  }
  FLOE_ASSIGN_OR_RETURN(auto partitioner, floe::columnar::Partitioner::Make(schema, spec, arrow_schema));
  std::vector<floe::delta::AddFile> adds;
  arrow::TableBatchReader batches(input);
  batches.set_chunksize(rows_per_file);
  std::shared_ptr<arrow::RecordBatch> batch;
  for (;;) {
    FLOE_RETURN_IF_ARROW_ERROR(batches.ReadNext(&batch));
    if (!batch) break;
    FLOE_ASSIGN_OR_RETURN(auto conformed, floe::columnar::ConformBatch(*batch, arrow_schema));
    FLOE_ASSIGN_OR_RETURN(auto groups, partitioner.Split(conformed));
    for (const auto& g : groups) {
      FLOE_ASSIGN_OR_RETURN(auto dir, partitioner.Path(g.values));
      floe::delta::AddFile add;
      add.path = "data/" + (dir.empty() ? "" : dir + "/") + RandomName() + ".parquet";
      for (std::size_t i = 0; i < g.values.size(); ++i) {
        FLOE_ASSIGN_OR_RETURN(add.partition_values[sources[i]->name],
                              floe::delta::PartitionValueString(g.values[i], *sources[i]->type));
      }
      FLOE_ASSIGN_OR_RETURN(auto file, io.Create(add.path));
      FLOE_ASSIGN_OR_RETURN(auto writer, floe::columnar::ParquetFileWriter::Open(file->stream(), arrow_schema));
      FLOE_RETURN_IF_ERROR(writer->Write(*g.rows));
      FLOE_ASSIGN_OR_RETURN(auto written, writer->Close());
      FLOE_RETURN_IF_ERROR(file->Commit());
      add.size = written.bytes;
      add.modification_time_ms =
          std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::system_clock::now().time_since_epoch())
              .count();
      FLOE_ASSIGN_OR_RETURN(add.stats_json, floe::delta::StatsJson(*written.metadata, schema));
      adds.push_back(std::move(add));
    }
  }
  return adds;
}

// What LoadState made of the log (also of tables written by other engines).
Status PrintState(floe::storage::FileIO& io) {
  FLOE_ASSIGN_OR_RETURN(auto state, floe::delta::LoadState(io));
  nlohmann::json fields = nlohmann::json::array();
  for (const auto& f : state.schema.fields) {
    fields.push_back({{"id", f.id}, {"name", f.name}, {"type", f.type->ToString()}, {"required", f.required}});
  }
  std::cout << nlohmann::json({{"version", state.version},
                               {"num_files", state.num_files},
                               {"txns", state.txn_versions},
                               {"partition_columns", state.partition_columns},
                               {"configuration", state.configuration},
                               {"reader_version", state.protocol.min_reader_version},
                               {"writer_version", state.protocol.min_writer_version},
                               {"fields", fields}})
                   .dump()
            << std::endl;
  return Status::OK();
}

Status Run(const Options& o) {
  if (!o.config.empty()) {
    FLOE_ASSIGN_OR_RETURN(auto config, floe::LoadConfigFile(o.config));
    FLOE_RETURN_IF_ERROR(floe::storage::ConfigureObjectStores(config.storage));
  }
  FLOE_ASSIGN_OR_RETURN(auto io, floe::storage::FileIO::Open(o.location));
  if (o.state_only) return PrintState(io);
  if (o.input.empty()) return Status::InvalidArgument("--input is required unless --state");
  FLOE_ASSIGN_OR_RETURN(auto input, ReadInput(o.input));
  floe::delta::Commit commit;
  for (const auto& t : o.txns) {
    const auto eq = t.rfind('=');
    if (eq == std::string::npos) return Status::InvalidArgument("--txn must be appId=version");
    commit.txns[t.substr(0, eq)] = std::stoll(t.substr(eq + 1));
  }
  if (!o.column_mapping.empty()) commit.configuration["delta.columnMapping.mode"] = o.column_mapping;
  commit.partition_columns = o.partition_by;
  FLOE_ASSIGN_OR_RETURN(auto state, floe::delta::LoadState(io));
  // Files are written once; a lost race only rebuilds the log entry on the new base (a
  // schema change by the winner is merged again, and the files conform to what they had).
  FLOE_ASSIGN_OR_RETURN(commit.schema, SchemaChange(state, *input->schema()));
  const floe::schema::Schema& schema = commit.schema ? *commit.schema : state.schema;
  const auto& partitions = state.version < 0 ? o.partition_by : state.partition_columns;
  FLOE_ASSIGN_OR_RETURN(commit.adds, WriteFiles(io, *input, schema, partitions, o.rows_per_file));
  for (int attempt = 1;; ++attempt) {
    if (attempt == 1 && !o.signal_prepared.empty()) std::ofstream(o.signal_prepared) << state.version << "\n";
    if (attempt == 1 && !o.wait_for.empty()) FLOE_RETURN_IF_ERROR(WaitForFile(o.wait_for));
    auto committed = floe::delta::CommitVersion(io, state, commit, o.checkpoint_interval);
    if (committed.ok()) {
      std::cout << nlohmann::json({{"version", *committed}, {"files", commit.adds.size()}, {"attempts", attempt}}).dump()
                << std::endl;
      return Status::OK();
    }
    if (committed.status().code() != floe::StatusCode::kConflict || attempt >= o.max_attempts) {
      return committed.status();
    }
    std::cerr << "floe_delta_append: " << committed.status().ToString() << "; retrying" << std::endl;
    FLOE_ASSIGN_OR_RETURN(state, floe::delta::LoadState(io));
    FLOE_ASSIGN_OR_RETURN(auto change, SchemaChange(state, *input->schema()));
    if (change && !commit.schema) {
      return Status::Conflict("the table's schema changed under this append; run it again");
    }
    commit.schema = std::move(change);
    commit.partition_columns = state.partition_columns;
  }
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"Append a Parquet file's rows to a Delta table with Floe's writer (test tool)"};
  Options o;
  app.add_option("--location", o.location, "table root (path or URI)")->required();
  app.add_option("--input", o.input, "Parquet file");
  app.add_flag("--state", o.state_only, "print the replayed table state as JSON and exit");
  app.add_option("--partition-by", o.partition_by, "identity partition columns (at creation)");
  app.add_option("--txn", o.txns, "appId=version, one txn action each");
  app.add_option("--column-mapping", o.column_mapping, "at creation: none, name or id")
      ->check(CLI::IsMember({"none", "name", "id"}));
  app.add_option("--rows-per-file", o.rows_per_file);
  app.add_option("--checkpoint-interval", o.checkpoint_interval);
  app.add_option("--max-attempts", o.max_attempts);
  app.add_option("--signal-prepared", o.signal_prepared, "test hook: write this file once the first commit is prepared");
  app.add_option("--wait-for", o.wait_for, "test hook: wait until this file exists before the first commit");
  app.add_option("--config", o.config, "floe.yaml: its storage: section configures object stores (s3://)");
  CLI11_PARSE(app, argc, argv);
  (void)floe::InitLogging("info");  // log lines to stderr: stdout carries the JSON result
  const Status st = Run(o);
  if (!st.ok()) {
    std::cerr << "floe_delta_append: " << st.ToString() << std::endl;
    return st.code() == floe::StatusCode::kConflict ? 3 : 1;
  }
  return 0;
}
