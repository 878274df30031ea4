// Encode-only limit: the same rows as the topic, from memory, through Floe's decoder and
// Parquet writer with no Kafka, no registry and no commit. Per partition: the records are
// generated (not timed), decoded into Arrow through the decoder seam
// (columnar::PayloadSchema / ValueDecoder, the path `floe run` takes; timed: "decode"), and
// written as one zstd Parquet file with columnar::ParquetFileWriter (timed: "encode") — one
// segment and one file per partition, as `floe run` does for a batch. Floe's system columns
// (_kafka.*) are not added here, which makes this limit slightly generous.
//
// --format picks the payload (bench/event.h). Each record is handed over as the pipeline hands
// it: the bytes after the schema id. Per record the decode phase also does what the pipeline
// does per record for that format: Protobuf selects the message from the message-index array
// (proto::SelectMessage); schemaless JSON checks the record against the inferred type
// (json::Inference::FitOrWiden, a parse of its own) before decoding it. The inferred type
// itself is settled in an untimed pass first: widening happens in the first few records only.
#include <CLI/CLI.hpp>

#include <ctime>
#include <optional>
#include <iostream>
#include <string>

#include "event.h"
#include "floe/columnar/parquet_file_writer.h"
#include "floe/storage/file_io.h"
#include "payload_path.h"

namespace {

using floe::Result;
using floe::Status;

struct Options {
  std::uint64_t records = 0;
  int partitions = 8;
  std::string output_dir;
  std::string format = "avro";
};

// Wall and CPU seconds of one phase (CPU: this process, all threads — Arrow may use several).
struct Clock {
  timespec wall{}, cpu{};
  Clock() {
    clock_gettime(CLOCK_MONOTONIC, &wall);
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &cpu);
  }
  static double Diff(const timespec& a, const timespec& b) {
    return static_cast<double>(b.tv_sec - a.tv_sec) + static_cast<double>(b.tv_nsec - a.tv_nsec) * 1e-9;
  }
  void AddTo(double& wall_s, double& cpu_s) const {
    Clock now;
    wall_s += Diff(wall, now.wall);
    cpu_s += Diff(cpu, now.cpu);
  }
};

using floe::bench::Format;
using floe::bench::Payload;

Status Run(const Options& o) {
  const auto format = floe::bench::ParseFormat(o.format);
  if (!format) return Status::InvalidArgument("unknown --format " + o.format);
  FLOE_ASSIGN_OR_RETURN(auto io, floe::storage::FileIO::Open(o.output_dir));
  // What the decoder gets after the schema id: Protobuf's message-index byte, then the event.
  const std::string prefix = floe::bench::PayloadPrefix(*format);
  const std::size_t framing = floe::bench::FramingBytes(*format);
  std::optional<Payload> payload_schema;
  double decode_wall = 0, decode_cpu = 0, encode_wall = 0, encode_cpu = 0;
  std::uint64_t payload_bytes = 0;
  std::int64_t parquet_bytes = 0, rows = 0;
  const std::uint64_t per_partition = o.records / static_cast<std::uint64_t>(o.partitions);
  for (int p = 0; p < o.partitions; ++p) {
    const std::uint64_t count = p + 1 == o.partitions ? o.records - per_partition * (o.partitions - 1) : per_partition;
    auto events = floe::bench::EncodeEvents(*format, per_partition * p, count, 1'700'000'000'000);
    for (auto& e : events) {
      if (!prefix.empty()) e.insert(0, prefix);
      payload_bytes += e.size() + framing - prefix.size();  // as on the wire
    }
    if (!payload_schema) {
      FLOE_ASSIGN_OR_RETURN(payload_schema, Payload::Make(*format, events));
    }

    const Clock decode;
    FLOE_ASSIGN_OR_RETURN(auto decoder, payload_schema->schema->NewDecoder());
    for (const auto& e : events) FLOE_RETURN_IF_ERROR(payload_schema->Append(*decoder, e));
    FLOE_ASSIGN_OR_RETURN(auto batch, decoder->Flush());
    decode.AddTo(decode_wall, decode_cpu);

    const Clock encode;
    FLOE_ASSIGN_OR_RETURN(auto file, io.Create("part-" + std::to_string(p) + ".parquet"));
    FLOE_ASSIGN_OR_RETURN(auto writer, floe::columnar::ParquetFileWriter::Open(file->stream(), batch->schema()));
    FLOE_RETURN_IF_ERROR(writer->Write(*batch));
    FLOE_ASSIGN_OR_RETURN(auto written, writer->Close());
    FLOE_RETURN_IF_ERROR(file->Commit());
    encode.AddTo(encode_wall, encode_cpu);
    parquet_bytes += written.bytes;
    rows += written.rows;
  }
  std::cout << "{\"records\": " << rows << ", \"bytes\": " << payload_bytes << ", \"parquet_bytes\": " << parquet_bytes
            << ", \"decode_seconds\": " << decode_wall << ", \"decode_cpu\": " << decode_cpu
            << ", \"encode_seconds\": " << encode_wall << ", \"encode_cpu\": " << encode_cpu << "}" << std::endl;
  return Status::OK();
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"Decode benchmark events into Arrow and write zstd Parquet, from memory"};
  Options o;
  app.add_option("--records", o.records)->required();
  app.add_option("--partitions", o.partitions, "one file each")->check(CLI::PositiveNumber);
  app.add_option("--output-dir", o.output_dir)->required();
  app.add_option("--format", o.format, "avro | protobuf | json_schema | json");
  CLI11_PARSE(app, argc, argv);
  const Status st = Run(o);
  if (!st.ok()) {
    std::cerr << "floe_bench_encode: " << st.ToString() << std::endl;
    return 1;
  }
  return 0;
}
