// Consume-only limit: reads every partition of the given topics from the beginning up to the
// high watermark seen at start, touching each value (summing its bytes) and discarding it.
// Same client library and fetch defaults as `floe run`, no group (plain assign): the rate
// Floe would reach if decoding, buffering, writing and committing were free.
#include <CLI/CLI.hpp>

#include <chrono>
#include <map>
#include <iostream>
#include <string>
#include <vector>

#include "rdkafka_util.h"

namespace {

using floe::Result;
using floe::Status;

struct Options {
  std::string bootstrap;
  std::vector<std::string> topics;
};

// topic -> the end offset of each partition (-1 once read to it, or when it was empty).
using Ends = std::map<std::string, std::vector<std::int64_t>, std::less<>>;

Status Run(const Options& o) {
  FLOE_ASSIGN_OR_RETURN(auto rk, floe::bench::MakeClient(RD_KAFKA_CONSUMER, {{"bootstrap.servers", o.bootstrap},
                                                                             {"group.id", "floe-bench-consume"},
                                                                             {"enable.auto.commit", "false"},
                                                                             {"auto.offset.reset", "earliest"},
                                                                             // As Floe sets it (pipeline/materializer.cc):
                                                                             // at librdkafka's 1 s default a run
                                                                             // sometimes waited a whole second for a
                                                                             // fetch (1.1 s or 2.1 s for 2M records).
                                                                             {"fetch.queue.backoff.ms", "100"}}));
  rd_kafka_poll_set_consumer(rk.get());
  rd_kafka_topic_partition_list_t* assignment = rd_kafka_topic_partition_list_new(64);
  Ends ends;
  std::size_t open = 0;
  std::int64_t expected = 0;
  for (const auto& topic : o.topics) {
    const rd_kafka_metadata_t* md = nullptr;
    rd_kafka_topic_t* rkt = rd_kafka_topic_new(rk.get(), topic.c_str(), nullptr);
    const auto err = rd_kafka_metadata(rk.get(), 0, rkt, &md, 10'000);
    rd_kafka_topic_destroy(rkt);
    if (err != RD_KAFKA_RESP_ERR_NO_ERROR || md->topic_cnt != 1) {
      rd_kafka_topic_partition_list_destroy(assignment);
      return Status::Unavailable("metadata of " + topic + ": " + rd_kafka_err2str(err));
    }
    auto& topic_ends = ends[topic];
    for (int p = 0; p < md->topics[0].partition_cnt; ++p) {
      const std::int32_t id = md->topics[0].partitions[p].id;
      std::int64_t low = 0, high = 0;
      rd_kafka_query_watermark_offsets(rk.get(), topic.c_str(), id, &low, &high, 10'000);
      rd_kafka_topic_partition_list_add(assignment, topic.c_str(), id)->offset = low;
      if (static_cast<std::size_t>(id) >= topic_ends.size()) topic_ends.resize(id + 1, -1);
      if (high > low) {
        topic_ends[id] = high;
        ++open;
      }
      expected += high - low;
    }
    rd_kafka_metadata_destroy(md);
  }
  const auto start = std::chrono::steady_clock::now();
  const rd_kafka_resp_err_t assigned = rd_kafka_assign(rk.get(), assignment);
  rd_kafka_topic_partition_list_destroy(assignment);
  if (assigned != RD_KAFKA_RESP_ERR_NO_ERROR) return Status::Unavailable(rd_kafka_err2str(assigned));

  std::int64_t records = 0;
  std::uint64_t bytes = 0;
  std::uint64_t checksum = 0;  // keeps the compiler from skipping the reads
  while (open > 0) {
    rd_kafka_message_t* m = rd_kafka_consumer_poll(rk.get(), 1000);
    if (m == nullptr) continue;
    if (m->err == RD_KAFKA_RESP_ERR_NO_ERROR) {
      ++records;
      bytes += m->len;
      if (m->len > 0) checksum += static_cast<const unsigned char*>(m->payload)[m->len - 1];
      auto it = ends.find(std::string_view(rd_kafka_topic_name(m->rkt)));
      if (it != ends.end() && static_cast<std::size_t>(m->partition) < it->second.size()) {
        std::int64_t& end = it->second[m->partition];
        if (end >= 0 && m->offset + 1 >= end) {
          end = -1;
          --open;
        }
      }
    } else if (m->err != RD_KAFKA_RESP_ERR__PARTITION_EOF) {
      const std::string what = rd_kafka_message_errstr(m);
      rd_kafka_message_destroy(m);
      return Status::Unavailable("consume: " + what);
    }
    rd_kafka_message_destroy(m);
  }
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  rd_kafka_consumer_close(rk.get());
  std::cout << "{\"records\": " << records << ", \"expected\": " << expected << ", \"bytes\": " << bytes
            << ", \"seconds\": " << seconds << ", \"checksum\": " << checksum << "}" << std::endl;
  return Status::OK();
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"Read topics to their end with librdkafka and discard the records"};
  Options o;
  app.add_option("--bootstrap", o.bootstrap)->required();
  app.add_option("--topic", o.topics, "repeat for several topics")->required();
  CLI11_PARSE(app, argc, argv);
  const Status st = Run(o);
  if (!st.ok()) {
    std::cerr << "floe_bench_consume: " << st.ToString() << std::endl;
    return 1;
  }
  return 0;
}
