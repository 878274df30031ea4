// Google Benchmark microbenchmarks of the hot paths of `floe run`, on the benchmark event:
//   BM_EncodeEvent   — BinaryWriter (the producer side; for scale only)
//   BM_AvroDecode    — RecordBatchDecoder::Append into Arrow builders, + Flush per batch
//   BM_ParquetEncode — ParquetFileWriter, zstd level 3, into memory (no disk)
//   BM_Decode/<format> — the decoder seam as `floe run` uses it, per payload format (bench/event.h,
//                      payload_path.h): avro, protobuf, json_schema, json (schemaless: FitOrWiden
//                      + decode per record), into Arrow, + Flush per batch
//   BM_EncodeEventAs/<format> — the producer's encoders (for scale only)
// items/s is records/s; bytes/s is Avro payload bytes for decode, Arrow buffer bytes for encode.
#include <arrow/io/memory.h>
#include <arrow/util/byte_size.h>
#include <benchmark/benchmark.h>

#include <cstdlib>
#include <iostream>

#include "event.h"
#include "floe/avro/datum_decoder.h"
#include "floe/avro/schema.h"
#include "floe/columnar/parquet_file_writer.h"
#include "payload_path.h"

namespace {

constexpr std::int64_t kBatch = 100'000;

floe::avro::NodePtr Schema() {
  static const floe::avro::NodePtr schema = [] {
    auto parsed = floe::avro::ParseSchema(floe::bench::EventSchemaJson());
    if (!parsed.ok()) {
      std::cerr << parsed.status().ToString() << std::endl;
      std::abort();
    }
    return *parsed;
  }();
  return schema;
}

const std::vector<std::string>& Events() {
  static const auto events = floe::bench::EncodeEvents(0, kBatch, 1'700'000'000'000);
  return events;
}

template <typename T>
T Check(floe::Result<T> r) {
  if (!r.ok()) {
    std::cerr << r.status().ToString() << std::endl;
    std::abort();
  }
  return std::move(r).value();
}

void BM_EncodeEvent(benchmark::State& state) {
  floe::avro::BinaryWriter w;
  std::uint64_t i = 0;
  for (auto _ : state) {
    w.clear();
    floe::bench::EncodeEvent(i++, 1'700'000'000'000, w);
    benchmark::DoNotOptimize(w.data().data());
  }
  state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_EncodeEvent);

void BM_AvroDecode(benchmark::State& state) {
  const auto& events = Events();
  std::int64_t bytes = 0;
  for (const auto& e : events) bytes += static_cast<std::int64_t>(e.size());
  auto decoder = Check(floe::avro::RecordBatchDecoder::Make(Schema()));
  for (auto _ : state) {
    for (const auto& e : events) {
      if (!decoder.Append(std::string_view(e)).ok()) std::abort();
    }
    benchmark::DoNotOptimize(Check(decoder.Flush()));
  }
  state.SetItemsProcessed(state.iterations() * kBatch);
  state.SetBytesProcessed(state.iterations() * bytes);
}
BENCHMARK(BM_AvroDecode)->Unit(benchmark::kMillisecond);

void BM_ParquetEncode(benchmark::State& state) {
  auto decoder = Check(floe::avro::RecordBatchDecoder::Make(Schema()));
  for (const auto& e : Events()) {
    if (!decoder.Append(std::string_view(e)).ok()) std::abort();
  }
  const auto batch = Check(decoder.Flush());
  const auto arrow_bytes = arrow::util::TotalBufferSize(*batch);
  std::int64_t file_bytes = 0;
  for (auto _ : state) {
    auto sink = arrow::io::BufferOutputStream::Create().ValueOrDie();
    auto writer = Check(floe::columnar::ParquetFileWriter::Open(sink, batch->schema()));
    if (!writer->Write(*batch).ok()) std::abort();
    file_bytes = Check(writer->Close()).bytes;
  }
  state.SetItemsProcessed(state.iterations() * kBatch);
  state.SetBytesProcessed(state.iterations() * arrow_bytes);
  state.counters["parquet_bytes_per_row"] = static_cast<double>(file_bytes) / kBatch;
}
BENCHMARK(BM_ParquetEncode)->Unit(benchmark::kMillisecond);

constexpr floe::bench::Format kFormats[] = {floe::bench::Format::kAvro, floe::bench::Format::kProtobuf,
                                           floe::bench::Format::kJsonSchema, floe::bench::Format::kJson};

void BM_Decode(benchmark::State& state) {
  const auto format = kFormats[state.range(0)];
  state.SetLabel(std::string(floe::bench::FormatName(format)));
  auto events = floe::bench::EncodeEvents(format, 0, kBatch, 1'700'000'000'000);
  const std::string prefix = floe::bench::PayloadPrefix(format);
  std::int64_t bytes = 0;
  for (auto& e : events) {
    e.insert(0, prefix);
    bytes += static_cast<std::int64_t>(e.size());
  }
  auto path = Check(floe::bench::Payload::Make(format, events));
  auto decoder = Check(path.schema->NewDecoder());
  for (auto _ : state) {
    for (const auto& e : events) {
      if (const auto st = path.Append(*decoder, e); !st.ok()) {
        std::cerr << st.ToString() << std::endl;
        std::abort();
      }
    }
    benchmark::DoNotOptimize(Check(decoder->Flush()));
  }
  state.SetItemsProcessed(state.iterations() * kBatch);
  state.SetBytesProcessed(state.iterations() * bytes);
}
BENCHMARK(BM_Decode)->DenseRange(0, 3)->Unit(benchmark::kMillisecond);

void BM_EncodeEventAs(benchmark::State& state) {
  const auto format = kFormats[state.range(0)];
  state.SetLabel(std::string(floe::bench::FormatName(format)));
  std::string out;
  std::uint64_t i = 0;
  for (auto _ : state) {
    out.clear();
    floe::bench::AppendFramedEvent(format, 1, i++, 1'700'000'000'000, out);
    benchmark::DoNotOptimize(out.data());
  }
  state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_EncodeEventAs)->DenseRange(0, 3);

}  // namespace

BENCHMARK_MAIN();
