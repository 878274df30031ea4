// Test tool: appends the rows of a Parquet file to an Iceberg table through Floe's own
// writer path — table creation in the built-in catalog, partitioning, Parquet files with
// field ids, column metrics, manifests, fast-append commit with retry — so integration
// tests can check Floe-written tables with pyiceberg and DuckDB before the pipeline exists.
// --catalog-type rest goes through Floe's Iceberg REST client instead of the built-in catalog
// (the server then writes the metadata files); --signal-prepared/--wait-for line up two runs
// on one base snapshot, so tests can force a commit conflict.
#include <arrow/api.h>
#include <arrow/io/api.h>
#include <CLI/CLI.hpp>
#include <parquet/arrow/reader.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <thread>

#include "floe/catalog/iceberg_catalog.h"
#include "floe/catalog/rest_catalog_client.h"
#include "floe/columnar/parquet_file_writer.h"
#include "floe/columnar/partitioner.h"
#include "floe/core/arrow_interop.h"
#include "floe/core/uuid.h"
#include "floe/iceberg/fast_append.h"
#include "floe/iceberg/parquet_metrics.h"
#include "floe/schema/arrow_schema.h"
#include "floe/storage/file_io.h"

namespace {

using floe::Result;
using floe::Status;

struct Options {
  std::string catalog_type = "builtin";  // builtin | rest
  std::string catalog_uri;
  std::string warehouse;
  std::string table;
  std::string input;
  std::vector<std::string> partition_by;
  std::int64_t rows_per_file = 1 << 20;
  std::string summary_json;  // extra snapshot summary entries as a JSON object
  // REST catalog only.
  std::string token;
  std::string credential;
  std::string scope = "catalog";
  std::string prefix;
  std::string sigv4_region;  // set: SigV4-sign with the AWS default chain (AWS_ACCESS_KEY_ID, …)
  std::string sigv4_service = "execute-api";
  // Test hooks around the first commit attempt.
  std::string signal_prepared;  // written once the first commit is prepared
  std::string wait_for;         // waited for (up to 120 s) before the first commit is sent
};

Result<std::unique_ptr<floe::catalog::TableCatalog>> OpenCatalog(const Options& o) {
  if (o.catalog_type == "rest") {
    // floe.yaml's path to the options, so the tool signs and authenticates as `floe run` does.
    floe::FloeConfig config;
    config.warehouse = o.warehouse;
    config.catalog.type = floe::CatalogType::kRest;
    config.catalog.uri = o.catalog_uri;
    config.catalog.token = o.token;
    config.catalog.credential = o.credential;
    config.catalog.scope = o.scope;
    if (!o.sigv4_region.empty()) config.catalog.sigv4 = floe::CatalogConfig::SigV4{o.sigv4_region, o.sigv4_service};
    FLOE_ASSIGN_OR_RETURN(auto rest, floe::catalog::RestCatalogOptionsFromConfig(config));
    rest.prefix = o.prefix;
    FLOE_ASSIGN_OR_RETURN(auto client, floe::catalog::RestCatalogClient::Open(std::move(rest)));
    return std::unique_ptr<floe::catalog::TableCatalog>(std::move(client));
  }
  if (o.catalog_type != "builtin") return Status::InvalidArgument("--catalog-type must be builtin or rest");
  if (o.warehouse.empty()) return Status::InvalidArgument("--warehouse is required with --catalog-type builtin");
  FLOE_ASSIGN_OR_RETURN(auto catalog, floe::catalog::IcebergCatalog::Open(o.catalog_uri, o.warehouse));
  return std::unique_ptr<floe::catalog::TableCatalog>(std::move(catalog));
}

Status WaitForFile(const std::string& path) {
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(120);
  while (!std::filesystem::exists(path)) {
    if (std::chrono::steady_clock::now() > deadline) return Status::Unavailable("--wait-for " + path + ": timed out");
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  return Status::OK();
}

Result<floe::catalog::TableIdentifier> ParseIdentifier(const std::string& text) {
  const auto dot = text.rfind('.');
  if (dot == std::string::npos) return Status::InvalidArgument("--table must be <namespace>.<table>");
  floe::catalog::TableIdentifier id;
  std::string ns = text.substr(0, dot);
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

Result<std::shared_ptr<arrow::Table>> ReadInput(const std::string& path) {
  FLOE_ASSIGN_OR_RETURN_ARROW(auto file, arrow::io::ReadableFile::Open(path));
  FLOE_ASSIGN_OR_RETURN_ARROW(auto reader, parquet::arrow::OpenFile(file, arrow::default_memory_pool()));
  return floe::FromArrow(reader->ReadTable());
}

Result<floe::catalog::LoadedTable> EnsureTable(floe::catalog::TableCatalog& catalog,
                                               const floe::catalog::TableIdentifier& id, const arrow::Schema& input,
                                               const std::vector<std::string>& partition_by) {
  auto loaded = catalog.LoadTable(id);
  if (loaded.ok() || loaded.status().code() != floe::StatusCode::kNotFound) return loaded;
  if (!catalog.LoadNamespaceProperties(id.ns).ok()) {
    auto created = catalog.CreateNamespace(id.ns, {});
    // Another run of this tool may have created it meanwhile.
    if (!created.ok() && created.code() != floe::StatusCode::kAlreadyExists) return created;
  }
  floe::catalog::NewTable table;
  table.id = id;
  FLOE_ASSIGN_OR_RETURN(table.schema, floe::schema::FromArrowSchema(input));
  floe::schema::PartitionSpec spec;
  for (std::size_t i = 0; i < partition_by.size(); ++i) {
    FLOE_ASSIGN_OR_RETURN(auto field, floe::schema::ParsePartitionExpression(partition_by[i], table.schema,
                                                                              1000 + static_cast<int>(i)));
    spec.fields.push_back(field);
  }
  table.spec = spec;
  auto result = catalog.CreateTable(table);
  if (!result.ok() && result.status().code() == floe::StatusCode::kAlreadyExists) return catalog.LoadTable(id);
  return result;
}

// The input's columns under the table's Arrow schema (field ids), matched by name.
Result<std::shared_ptr<arrow::RecordBatch>> Conform(const arrow::RecordBatch& batch,
                                                    const std::shared_ptr<arrow::Schema>& target) {
  std::vector<std::shared_ptr<arrow::Array>> columns;
  for (const auto& field : target->fields()) {
    auto column = batch.GetColumnByName(field->name());
    if (!column) return Status::InvalidArgument("input has no column '" + field->name() + "'");
    if (!column->type()->Equals(*field->type(), /*check_metadata=*/false)) {
      return Status::InvalidArgument("column '" + field->name() + "' is " + column->type()->ToString() +
                                     ", the table wants " + field->type()->ToString());
    }
    columns.push_back(column);
  }
  return arrow::RecordBatch::Make(target, batch.num_rows(), columns);
}

Result<floe::iceberg::DataFile> WriteDataFile(floe::storage::FileIO& io, const std::string& relative,
                                              const std::shared_ptr<arrow::RecordBatch>& rows,
                                              const floe::schema::Schema& schema,
                                              const std::vector<floe::schema::PartitionValue>& values) {
  FLOE_ASSIGN_OR_RETURN(auto file, io.Create(relative));
  FLOE_ASSIGN_OR_RETURN(auto writer, floe::columnar::ParquetFileWriter::Open(file->stream(), rows->schema()));
  FLOE_RETURN_IF_ERROR(writer->Write(*rows));
  FLOE_ASSIGN_OR_RETURN(auto written, writer->Close());
  FLOE_RETURN_IF_ERROR(file->Commit());
  floe::iceberg::DataFile data;
  data.file_path = io.Uri(relative);
  data.file_size_in_bytes = written.bytes;
  data.partition = values;
  FLOE_RETURN_IF_ERROR(floe::iceberg::AddParquetMetrics(*written.metadata, schema, data));
  return data;
}

Status Run(const Options& o) {
  FLOE_ASSIGN_OR_RETURN(auto id, ParseIdentifier(o.table));
  FLOE_ASSIGN_OR_RETURN(auto catalog, OpenCatalog(o));
  FLOE_ASSIGN_OR_RETURN(auto input, ReadInput(o.input));
  FLOE_ASSIGN_OR_RETURN(auto table, EnsureTable(*catalog, id, *input->schema(), o.partition_by));
  const floe::schema::Schema& schema = *table.metadata.CurrentSchema();
  FLOE_ASSIGN_OR_RETURN(auto arrow_schema, floe::schema::ToArrowSchema(schema));
  FLOE_ASSIGN_OR_RETURN(auto partitioner,
                        floe::columnar::Partitioner::Make(schema, *table.metadata.DefaultSpec(), arrow_schema));
  FLOE_ASSIGN_OR_RETURN(auto io, floe::storage::FileIO::Open(table.metadata.location));

  floe::iceberg::AppendFiles append;
  arrow::TableBatchReader batches(*input);
  batches.set_chunksize(o.rows_per_file);
  std::shared_ptr<arrow::RecordBatch> batch;
  for (;;) {
    FLOE_RETURN_IF_ARROW_ERROR(batches.ReadNext(&batch));
    if (!batch) break;
    FLOE_ASSIGN_OR_RETURN(auto conformed, Conform(*batch, arrow_schema));
    FLOE_ASSIGN_OR_RETURN(auto groups, partitioner.Split(conformed));
    for (const auto& g : groups) {
      FLOE_ASSIGN_OR_RETURN(auto dir, partitioner.Path(g.values));
      const std::string relative = "data/" + (dir.empty() ? "" : dir + "/") + floe::NewUuid() + ".parquet";
      FLOE_ASSIGN_OR_RETURN(auto data, WriteDataFile(io, relative, g.rows, schema, g.values));
      append.files.push_back(std::move(data));
    }
  }
  if (!o.summary_json.empty()) {
    auto j = nlohmann::json::parse(o.summary_json, nullptr, false);
    if (!j.is_object()) return Status::InvalidArgument("--summary must be a JSON object of strings");
    for (const auto& [k, v] : j.items()) append.summary[k] = v.is_string() ? v.get<std::string>() : v.dump();
  }
  // Optimistic concurrency: on conflict, rebuild the commit on fresh metadata.
  for (int attempt = 1;; ++attempt) {
    FLOE_ASSIGN_OR_RETURN(auto commit, floe::iceberg::PrepareFastAppend(table.metadata, append));
    if (attempt == 1 && !o.signal_prepared.empty()) std::ofstream(o.signal_prepared) << commit.snapshot_id << "\n";
    if (attempt == 1 && !o.wait_for.empty()) FLOE_RETURN_IF_ERROR(WaitForFile(o.wait_for));
    auto committed = catalog->CommitTable({id, commit.requirements, commit.updates});
    if (committed.ok()) {
      std::cout << nlohmann::json({{"files", append.files.size()},
                                   {"snapshot_id", commit.snapshot_id},
                                   {"metadata_location", committed->metadata_location},
                                   {"attempts", attempt}})
                       .dump()
                << std::endl;
      return Status::OK();
    }
    if (committed.status().code() != floe::StatusCode::kConflict || attempt >= 10) return committed.status();
    FLOE_ASSIGN_OR_RETURN(table, catalog->LoadTable(id));
  }
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"Append a Parquet file's rows to an Iceberg table with Floe's writer (test tool)"};
  Options o;
  app.add_option("--catalog-type", o.catalog_type, "builtin (SQL catalog URI) or rest (Iceberg REST catalog URI)")
      ->check(CLI::IsMember({"builtin", "rest"}));
  app.add_option("--catalog-uri", o.catalog_uri, "sqlite:///…, postgresql://… or http(s)://… for rest")->required();
  app.add_option("--warehouse", o.warehouse, "builtin: where new tables go (required); rest: ?warehouse= for /v1/config");
  app.add_option("--token", o.token, "rest: bearer token");
  app.add_option("--credential", o.credential, "rest: OAuth2 client credentials client_id:client_secret");
  app.add_option("--scope", o.scope, "rest: OAuth2 scope");
  app.add_option("--sigv4-region", o.sigv4_region, "rest: SigV4-sign requests (AWS default credential chain)");
  app.add_option("--sigv4-service", o.sigv4_service, "rest: SigV4 signing name (glue, s3tables, execute-api)");
  app.add_option("--prefix", o.prefix, "rest: client-side prefix (the server's config may override it)");
  app.add_option("--signal-prepared", o.signal_prepared, "test hook: write this file once the first commit is prepared");
  app.add_option("--wait-for", o.wait_for, "test hook: wait until this file exists before the first commit");
  app.add_option("--table", o.table, "<namespace>.<table>")->required();
  app.add_option("--input", o.input, "Parquet file")->required();
  app.add_option("--partition-by", o.partition_by, "partition expressions, e.g. day(ts) bucket[4](id)");
  app.add_option("--rows-per-file", o.rows_per_file);
  app.add_option("--summary", o.summary_json, "extra snapshot summary entries (JSON object)");
  CLI11_PARSE(app, argc, argv);
  const Status st = Run(o);
  if (!st.ok()) {
    std::cerr << "floe_iceberg_append: " << st.ToString() << std::endl;
    return 1;
  }
  return 0;
}
