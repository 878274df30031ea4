// Google Benchmark microbenchmarks of the hot paths of `floe run`, on the benchmark event:
//   BM_EncodeEvent   — BinaryWriter (the producer side; for scale only)
//   BM_AvroDecode    — RecordBatchDecoder::Append into Arrow builders, + Flush per batch
//   BM_ParquetEncode — ParquetFileWriter, zstd level 3, into memory (no disk)
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

}  // namespace

BENCHMARK_MAIN();
