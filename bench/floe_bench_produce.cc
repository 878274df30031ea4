// Pre-fills (or, with --rate, steadily feeds) topics with benchmark events in one of four
// formats (bench/event.h): Avro, Protobuf or JSON Schema in the Confluent wire format (magic
// byte, schema id, for Protobuf the message-index byte 0, then the encoded event), or schemaless
// JSON text with no framing. Python's serializer manages ~20k records/s here; this is what
// makes millions of records practical.
//
// Record i goes to topic i % T, partition (i / T) % P: an even spread with no keys, so
// every partition holds the same count. Prints one JSON line with what it sent.
//
// --samples FILE: for every --sample-every'th record, once the broker acknowledged it, a line
// "topic partition offset produce_ms" — the freshness probe (bench/run.py). With --rate the
// event's `ts` field and the Kafka timestamp are the produce time.
#include <CLI/CLI.hpp>

#include <chrono>
#include <cstdio>
#include <iostream>
#include <string>
#include <thread>
#include <vector>

#include "event.h"
#include "rdkafka_util.h"

namespace {

using floe::Result;
using floe::Status;

struct Options {
  std::string bootstrap;
  std::vector<std::string> topics;
  int partitions = 1;
  std::uint64_t records = 0;
  std::uint64_t first_index = 0;
  std::int32_t schema_id = 1;
  std::string format = "avro";
  double rate = 0;  // records per second; 0 = as fast as the broker takes them
  std::string samples_path;
  std::uint64_t sample_every = 1;
  int linger_ms = 20;
  std::string compression = "none";
  bool headers = false;  // two headers per record, as traced production records carry
};

// Delivery reports arrive on the thread calling rd_kafka_poll/flush: plain globals suffice.
std::FILE* g_samples = nullptr;
std::uint64_t g_failed = 0;
std::string g_first_error;

void OnDelivery(rd_kafka_t*, const rd_kafka_message_t* m, void*) {
  if (m->err != RD_KAFKA_RESP_ERR_NO_ERROR) {
    if (g_failed++ == 0) g_first_error = rd_kafka_err2str(m->err);
    return;
  }
  if (m->_private != nullptr && g_samples != nullptr) {
    rd_kafka_timestamp_type_t type;
    std::fprintf(g_samples, "%s %d %lld %lld\n", rd_kafka_topic_name(m->rkt), m->partition,
                 static_cast<long long>(m->offset), static_cast<long long>(rd_kafka_message_timestamp(m, &type)));
  }
}

std::int64_t NowMs() {
  return std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::system_clock::now().time_since_epoch())
      .count();
}

Status Run(const Options& o) {
  // acks=1 and no idempotence: one broker, and the pre-fill is not what is measured.
  // Large batches and a short linger: the broker, not the client, should be the limit.
  FLOE_ASSIGN_OR_RETURN(auto rk, floe::bench::MakeClient(RD_KAFKA_PRODUCER,
                                                         {{"bootstrap.servers", o.bootstrap},
                                                          {"acks", "1"},
                                                          {"enable.idempotence", "false"},
                                                          {"linger.ms", std::to_string(o.linger_ms)},
                                                          {"batch.size", "1000000"},
                                                          {"batch.num.messages", "100000"},
                                                          {"queue.buffering.max.messages", "1000000"},
                                                          {"queue.buffering.max.kbytes", "1048576"},
                                                          {"compression.codec", o.compression}},
                                                         [](rd_kafka_conf_t* c) { rd_kafka_conf_set_dr_msg_cb(c, OnDelivery); }));
  if (!o.samples_path.empty()) {
    g_samples = std::fopen(o.samples_path.c_str(), "w");
    if (g_samples == nullptr) return Status::IoError("cannot write " + o.samples_path);
  }
  const std::int64_t base_ms = NowMs() - static_cast<std::int64_t>(o.records);
  const auto format = floe::bench::ParseFormat(o.format);
  if (!format) return Status::InvalidArgument("unknown --format " + o.format);
  const auto topics = static_cast<std::uint64_t>(o.topics.size());
  const auto start = std::chrono::steady_clock::now();
  std::string w;
  w.reserve(1024);
  std::uint64_t bytes = 0;
  for (std::uint64_t n = 0; n < o.records; ++n) {
    const std::uint64_t i = o.first_index + n;
    if (o.rate > 0) {  // pace: record n is due n/rate seconds after the start
      const auto due = start + std::chrono::duration_cast<std::chrono::steady_clock::duration>(
                                   std::chrono::duration<double>(static_cast<double>(n) / o.rate));
      while (std::chrono::steady_clock::now() < due) {
        rd_kafka_poll(rk.get(), 0);
        std::this_thread::sleep_until(std::min(due, std::chrono::steady_clock::now() + std::chrono::milliseconds(5)));
      }
    }
    const std::int64_t ts = o.rate > 0 ? NowMs() : base_ms + static_cast<std::int64_t>(n);
    w.clear();
    floe::bench::AppendFramedEvent(*format, o.schema_id, i, ts, w);
    bytes += w.size();
    const std::string& topic = o.topics[i % topics];
    const auto partition = static_cast<std::int32_t>((i / topics) % static_cast<std::uint64_t>(o.partitions));
    void* sample = (o.samples_path.empty() || n % o.sample_every != 0) ? nullptr : reinterpret_cast<void*>(1);
    while (true) {
      // A W3C trace context and a longer-named header (a key past std::string's inline 15 bytes).
      static constexpr std::string_view kTrace = "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01";
      static constexpr std::string_view kSource = "checkout-service";
      const rd_kafka_resp_err_t err =
          o.headers ? rd_kafka_producev(rk.get(), RD_KAFKA_V_TOPIC(topic.c_str()), RD_KAFKA_V_PARTITION(partition),
                                        RD_KAFKA_V_VALUE(w.data(), w.size()), RD_KAFKA_V_MSGFLAGS(RD_KAFKA_MSG_F_COPY),
                                        RD_KAFKA_V_TIMESTAMP(ts), RD_KAFKA_V_OPAQUE(sample),
                                        RD_KAFKA_V_HEADER("traceparent", kTrace.data(), static_cast<ssize_t>(kTrace.size())),
                                        RD_KAFKA_V_HEADER("x-request-source-service", kSource.data(),
                                                          static_cast<ssize_t>(kSource.size())),
                                        RD_KAFKA_V_END)
                    : rd_kafka_producev(rk.get(), RD_KAFKA_V_TOPIC(topic.c_str()), RD_KAFKA_V_PARTITION(partition),
                                        RD_KAFKA_V_VALUE(w.data(), w.size()), RD_KAFKA_V_MSGFLAGS(RD_KAFKA_MSG_F_COPY),
                                        RD_KAFKA_V_TIMESTAMP(ts), RD_KAFKA_V_OPAQUE(sample), RD_KAFKA_V_END);
      if (err == RD_KAFKA_RESP_ERR_NO_ERROR) break;
      if (err != RD_KAFKA_RESP_ERR__QUEUE_FULL) return Status::Unavailable(std::string("produce: ") + rd_kafka_err2str(err));
      rd_kafka_poll(rk.get(), 10);  // local queue full: serve delivery reports, then retry
    }
    if ((n & 1023) == 0) rd_kafka_poll(rk.get(), 0);
  }
  if (const auto err = rd_kafka_flush(rk.get(), 120'000); err != RD_KAFKA_RESP_ERR_NO_ERROR) {
    return Status::Unavailable(std::string("flush: ") + rd_kafka_err2str(err));
  }
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  if (g_samples != nullptr) std::fclose(g_samples);
  if (g_failed > 0) {
    return Status::Unavailable(std::to_string(g_failed) + " records were not delivered, first: " + g_first_error);
  }
  std::cout << "{\"records\": " << o.records << ", \"bytes\": " << bytes << ", \"seconds\": " << seconds << "}"
            << std::endl;
  return Status::OK();
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"Produce benchmark events (Avro, Protobuf, JSON Schema or schemaless JSON) with librdkafka"};
  Options o;
  app.add_option("--bootstrap", o.bootstrap)->required();
  app.add_option("--topic", o.topics, "repeat for several topics")->required();
  app.add_option("--partitions", o.partitions, "partitions of each topic")->check(CLI::PositiveNumber);
  app.add_option("--records", o.records)->required();
  app.add_option("--first-index", o.first_index, "event number of the first record");
  app.add_option("--format", o.format, "avro | protobuf | json_schema | json (no framing, no registry)");
  app.add_option("--schema-id", o.schema_id, "the registry id of the format's EventSchema() (not used by json)");
  app.add_option("--rate", o.rate, "records/s; 0 = as fast as possible");
  app.add_option("--samples", o.samples_path, "write topic/partition/offset/produce_ms of sampled records");
  app.add_option("--sample-every", o.sample_every)->check(CLI::PositiveNumber);
  app.add_option("--linger-ms", o.linger_ms);
  app.add_option("--compression", o.compression, "none | lz4 | zstd | snappy | gzip");
  app.add_flag("--headers", o.headers, "two headers per record (traceparent, x-request-source-service)");
  // Checked before parsing, which would demand the required options: the driver registers
  // this schema with the registry and then passes its id back in. `--print-schema [FORMAT]`
  // (default avro; json has no schema and prints an empty line).
  if (argc > 1 && std::string_view(argv[1]) == "--print-schema") {
    const auto format = floe::bench::ParseFormat(argc > 2 ? argv[2] : "avro");
    if (!format) {
      std::cerr << "floe_bench_produce: unknown format " << argv[2] << std::endl;
      return 2;
    }
    std::cout << floe::bench::EventSchema(*format) << std::endl;
    return 0;
  }
  CLI11_PARSE(app, argc, argv);
  const Status st = Run(o);
  if (!st.ok()) {
    std::cerr << "floe_bench_produce: " << st.ToString() << std::endl;
    return 1;
  }
  return 0;
}
