// Test tool for the harness check: reads every record of one topic (all partitions, from
// the low watermark to the high watermark seen at start), decodes Confluent-framed Avro
// values with the writer schema from the registry, and writes one Parquet file with the
// decoded columns plus `_partition` and `_offset`. It is not the pipeline: no table, no
// commit, one schema id per run. It exists to prove that the real pieces (librdkafka,
// registry client, Avro codec, Arrow/Parquet) work together against real services.
#include <arrow/api.h>
#include <CLI/CLI.hpp>

#include <chrono>
#include <iostream>
#include <map>
#include <memory>

#include "floe/avro/datum_decoder.h"
#include "floe/avro/schema.h"
#include "floe/columnar/parquet_file_writer.h"
#include "floe/core/arrow_interop.h"
#include "floe/kafka/consumer.h"
#include "floe/registry/client.h"
#include "floe/registry/wire_format.h"
#include "floe/storage/file_io.h"

namespace {

using floe::Result;
using floe::Status;

struct Options {
  std::string bootstrap;
  std::string topic;
  std::string registry_url;
  std::string output_dir;
  std::string file_name = "data.parquet";
  int timeout_s = 60;
};

Status Run(const Options& o) {
  using namespace std::chrono_literals;
  FLOE_ASSIGN_OR_RETURN(auto consumer, floe::kafka::Consumer::Create({o.bootstrap, "floe-harness", {}, ""}));
  FLOE_ASSIGN_OR_RETURN(auto partitions, consumer->Partitions(o.topic, 10s));
  std::vector<floe::kafka::TopicPartition> assignment;
  std::map<std::int32_t, std::int64_t> end_offsets;
  std::int64_t expected = 0;
  for (auto p : partitions) {
    FLOE_ASSIGN_OR_RETURN(auto marks, consumer->Watermarks(o.topic, p, 10s));
    assignment.push_back({o.topic, p, marks.first});
    if (marks.second > marks.first) end_offsets[p] = marks.second;
    expected += marks.second - marks.first;
  }
  FLOE_RETURN_IF_ERROR(consumer->Assign(assignment));

  floe::registry::ClientOptions registry_options;
  registry_options.url = o.registry_url;
  floe::registry::Client registry(registry_options);
  std::optional<std::int32_t> schema_id;
  std::unique_ptr<floe::avro::RecordBatchDecoder> decoder;
  arrow::Int32Builder partition_col;
  arrow::Int64Builder offset_col;

  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(o.timeout_s);
  std::int64_t seen = 0;
  while (!end_offsets.empty()) {
    if (std::chrono::steady_clock::now() > deadline) {
      return Status::Unavailable("timed out after " + std::to_string(seen) + " of " + std::to_string(expected) +
                                 " records");
    }
    FLOE_ASSIGN_OR_RETURN(auto record, consumer->Poll(500ms));
    if (!record) continue;
    ++seen;
    auto end = end_offsets.find(record->partition());
    if (end == end_offsets.end()) continue;
    if (record->offset() + 1 >= end->second) end_offsets.erase(end);
    auto value = record->value();
    if (!value) return Status::InvalidArgument(record->Position() + ": tombstone, this tool has no rule for it");
    auto framed_or = floe::registry::ParseWireFormat(*value);
    if (!framed_or.ok()) return framed_or.status().WithContext(record->Position());
    const auto framed = *framed_or;
    if (!schema_id) {
      FLOE_ASSIGN_OR_RETURN(auto registered, registry.GetSchemaById(framed.schema_id));
      FLOE_ASSIGN_OR_RETURN(auto schema, floe::avro::ParseSchema(registered->schema));
      FLOE_ASSIGN_OR_RETURN(auto made, floe::avro::RecordBatchDecoder::Make(schema));
      decoder = std::make_unique<floe::avro::RecordBatchDecoder>(std::move(made));
      schema_id = framed.schema_id;
    } else if (*schema_id != framed.schema_id) {
      return Status::Unsupported(record->Position() + ": schema id changed from " + std::to_string(*schema_id) +
                                 " to " + std::to_string(framed.schema_id) + "; this tool handles one schema");
    }
    FLOE_RETURN_IF_ERROR(decoder->Append(framed.payload).WithContext(record->Position()));
    FLOE_RETURN_IF_ARROW_ERROR(partition_col.Append(record->partition()));
    FLOE_RETURN_IF_ARROW_ERROR(offset_col.Append(record->offset()));
  }
  FLOE_RETURN_IF_ERROR(consumer->Close());
  if (!decoder) return Status::NotFound("topic '" + o.topic + "' is empty");

  FLOE_ASSIGN_OR_RETURN(auto batch, decoder->Flush());
  std::shared_ptr<arrow::Array> partitions_array;
  std::shared_ptr<arrow::Array> offsets_array;
  FLOE_RETURN_IF_ARROW_ERROR(partition_col.Finish(&partitions_array));
  FLOE_RETURN_IF_ARROW_ERROR(offset_col.Finish(&offsets_array));
  FLOE_ASSIGN_OR_RETURN_ARROW(batch, batch->AddColumn(batch->num_columns(), arrow::field("_partition", arrow::int32(), false),
                                                      partitions_array));
  FLOE_ASSIGN_OR_RETURN_ARROW(batch, batch->AddColumn(batch->num_columns(), arrow::field("_offset", arrow::int64(), false),
                                                      offsets_array));

  FLOE_ASSIGN_OR_RETURN(auto io, floe::storage::FileIO::Open(o.output_dir));
  FLOE_ASSIGN_OR_RETURN(auto file, io.Create(o.file_name));
  FLOE_ASSIGN_OR_RETURN(auto writer, floe::columnar::ParquetFileWriter::Open(file->stream(), batch->schema()));
  FLOE_RETURN_IF_ERROR(writer->Write(*batch));
  FLOE_ASSIGN_OR_RETURN(auto written, writer->Close());
  FLOE_RETURN_IF_ERROR(file->Commit());
  std::cout << "{\"rows\": " << written.rows << ", \"bytes\": " << written.bytes << ", \"schema_id\": " << *schema_id
            << ", \"path\": \"" << io.Uri(o.file_name) << "\"}" << std::endl;
  return Status::OK();
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"Copy one Avro topic into one Parquet file (Floe harness check)"};
  Options o;
  app.add_option("--bootstrap", o.bootstrap)->required();
  app.add_option("--topic", o.topic)->required();
  app.add_option("--registry", o.registry_url)->required();
  app.add_option("--output-dir", o.output_dir)->required();
  app.add_option("--file-name", o.file_name);
  app.add_option("--timeout", o.timeout_s, "seconds");
  CLI11_PARSE(app, argc, argv);
  const Status st = Run(o);
  if (!st.ok()) {
    std::cerr << "floe_topic_to_parquet: " << st.ToString() << std::endl;
    return 1;
  }
  return 0;
}
