// Test tool for tests/integration/test_kafka_group.py: drives floe::kafka against a real
// broker and prints one JSON line per event on stdout, so a test can run several members of
// one group side by side and check who read what.
//
// Group mode (default): subscribes --group to --topic and prints
//   {"event":"assigned","partitions":[0,2]}            (newly assigned, incremental; ids sorted)
//   {"event":"revoked","partitions":[2],"lost":false}
//   {"event":"record","partition":0,"offset":17}  (+ "key","value","headers" in hex with --print-payloads)
//   {"event":"seek",...} {"event":"paused",...} {"event":"resumed",...}
//   (--rewind-after-records, --pause-after-records [--pause-retries-last])
//   {"event":"closed","records":N}
// Newly assigned partitions start at --start-offset (beginning, committed or a number). On an
// orderly revoke (and on exit) the member commits the group offsets of what it read, so with
// --start-offset committed the next owner continues where it stopped. Exits after
// --max-records, after --idle-exit-seconds without records or rebalances, as soon as the group
// answered with --close-when-joined, or on SIGTERM/SIGINT,
// always through Consumer::Close().
//
// Producer mode (--dlq-produce N --dlq-topic T): produces N records through kafka::Producer
// and Flushes. Record i: key null for even i, else "key-<i>"; value null when i % 5 == 4,
// else the bytes 00 ff <i mod 256> 80 followed by "v<i>"; headers (in order)
// floe.error="record <i> failed", floe.binary=00 ff 01, floe.null=null, floe.empty="",
// floe.error="again". Prints {"event":"flushed",...} or {"event":"flush_failed",...} (exit 1).
#include <CLI/CLI.hpp>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <csignal>
#include <iostream>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "floe/core/logging.h"
#include "floe/kafka/consumer.h"
#include "floe/kafka/producer.h"

namespace {

using floe::Result;
using floe::Status;
using floe::kafka::TopicPartition;
using Clock = std::chrono::steady_clock;

struct Options {
  std::string bootstrap;
  std::string topic;
  std::string group = "floe-probe";
  std::string start_offset = "beginning";
  std::int64_t max_records = -1;
  bool print_payloads = false;
  bool close_when_joined = false;
  double idle_exit_seconds = 30;
  std::int64_t rewind_after_records = -1;
  std::int64_t pause_after_records = -1;
  double pause_seconds = 2;
  bool pause_retries_last = false;
  std::vector<std::string> properties;  // key=value, for the consumer or producer
  std::int64_t dlq_produce = -1;
  std::string dlq_topic;
  int flush_timeout_ms = 10000;
};

Clock::duration Seconds(double seconds) {
  return std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(seconds));
}

std::atomic<bool> g_stop{false};
extern "C" void RequestStop(int) { g_stop = true; }

void Emit(const nlohmann::json& event) { std::cout << event.dump() << std::endl; }

// Hex, so binary bytes survive JSON; null stays null.
nlohmann::json Hex(std::optional<std::string_view> bytes) {
  if (!bytes) return nullptr;
  static constexpr char kDigits[] = "0123456789abcdef";
  std::string out;
  for (const unsigned char c : *bytes) {
    out += kDigits[c >> 4];
    out += kDigits[c & 0xf];
  }
  return out;
}

nlohmann::json RecordEvent(const floe::kafka::Record& record, bool with_payload) {
  nlohmann::json event = {{"event", "record"}, {"partition", record.partition()}, {"offset", record.offset()}};
  if (!with_payload) return event;
  event["key"] = Hex(record.key());
  event["value"] = Hex(record.value());
  event["headers"] = nlohmann::json::array();
  for (const auto& h : record.headers()) event["headers"].push_back({h.key, Hex(h.value)});
  return event;
}

Result<std::map<std::string, std::string>> ParseProperties(const std::vector<std::string>& pairs) {
  std::map<std::string, std::string> out;
  for (const auto& pair : pairs) {
    const auto eq = pair.find('=');
    if (eq == std::string::npos || eq == 0) return Status::InvalidArgument("-X wants key=value, got '" + pair + "'");
    out[pair.substr(0, eq)] = pair.substr(eq + 1);
  }
  return out;
}

Result<std::int64_t> ParseStartOffset(const std::string& text) {
  if (text == "beginning") return floe::kafka::kOffsetBeginning;
  if (text == "committed") return floe::kafka::kOffsetCommitted;
  try {
    std::size_t used = 0;
    const std::int64_t offset = std::stoll(text, &used);
    if (used == text.size() && offset >= 0) return offset;
  } catch (const std::exception&) {
  }
  return Status::InvalidArgument("--start-offset wants beginning, committed or an offset, got '" + text + "'");
}

std::vector<std::int32_t> PartitionIds(const std::vector<TopicPartition>& partitions) {
  std::vector<std::int32_t> ids;
  for (const auto& tp : partitions) ids.push_back(tp.partition);
  std::sort(ids.begin(), ids.end());  // librdkafka's lists come in no particular order
  return ids;
}

// Chooses start offsets, remembers how far each owned partition was read, and commits that
// on an orderly revoke: the part of a pipeline worker this test needs.
class ProbeListener : public floe::kafka::RebalanceListener {
 public:
  explicit ProbeListener(std::int64_t start_offset) : start_offset_(start_offset) {}

  void set_consumer(floe::kafka::Consumer* consumer) { consumer_ = consumer; }
  Clock::time_point last_activity() const { return last_activity_; }

  void OnAssigned(std::vector<TopicPartition>& partitions) override {
    for (auto& tp : partitions) tp.offset = start_offset_;
    last_activity_ = Clock::now();
    Emit({{"event", "assigned"}, {"partitions", PartitionIds(partitions)}});
  }

  void OnRevoked(const std::vector<TopicPartition>& partitions, bool lost) override {
    last_activity_ = Clock::now();
    Emit({{"event", "revoked"}, {"partitions", PartitionIds(partitions)}, {"lost", lost}});
    // After a loss another member may own them already: its progress, not ours, counts.
    if (!lost) Commit(partitions);
    for (const auto& tp : partitions) next_offsets_.erase(tp.partition);
  }

  void Read(const floe::kafka::Record& record) {
    last_activity_ = Clock::now();
    next_offsets_[record.partition()] = record.offset() + 1;
  }

  void Rewound(std::int32_t partition) { next_offsets_.erase(partition); }

 private:
  void Commit(const std::vector<TopicPartition>& partitions) {
    std::vector<TopicPartition> progress;
    for (const auto& tp : partitions) {
      const auto it = next_offsets_.find(tp.partition);
      if (it != next_offsets_.end()) progress.push_back({tp.topic, tp.partition, it->second});
    }
    if (progress.empty() || consumer_ == nullptr) return;
    const Status st = consumer_->CommitOffsets(progress);
    nlohmann::json event = {{"event", "committed"}, {"partitions", PartitionIds(progress)}, {"ok", st.ok()}};
    if (!st.ok()) event["error"] = st.ToString();
    Emit(event);
  }

  const std::int64_t start_offset_;
  floe::kafka::Consumer* consumer_ = nullptr;
  std::map<std::int32_t, std::int64_t> next_offsets_;
  Clock::time_point last_activity_ = Clock::now();
};

// Seeks every assigned partition back to the start offset, once.
Status Rewind(floe::kafka::Consumer& consumer, ProbeListener& listener, std::int64_t start_offset) {
  using namespace std::chrono_literals;
  if (start_offset == floe::kafka::kOffsetCommitted) {
    return Status::InvalidArgument("--rewind-after-records needs a --start-offset to seek to, not 'committed'");
  }
  const std::vector<TopicPartition> assigned = consumer.Assignment();
  for (const auto& tp : assigned) {
    FLOE_RETURN_IF_ERROR(consumer.Seek({tp.topic, tp.partition, start_offset}, 10s));
    listener.Rewound(tp.partition);
  }
  Emit({{"event", "seek"}, {"partitions", PartitionIds(assigned)}, {"offset", start_offset}});
  return Status::OK();
}

// Pauses the whole assignment, keeps polling (nothing may arrive) for `seconds`, resumes.
// With `retry` the last record's partition is also sought back to it while paused, as the
// pipeline does to retry a record later.
Status PauseForAWhile(floe::kafka::Consumer& consumer, double seconds, const floe::kafka::Record& last, bool retry) {
  using namespace std::chrono_literals;
  const std::vector<TopicPartition> assigned = consumer.Assignment();
  FLOE_RETURN_IF_ERROR(consumer.Pause(assigned));
  Emit({{"event", "paused"}, {"partitions", PartitionIds(assigned)}});
  if (retry) {
    FLOE_RETURN_IF_ERROR(consumer.Seek({std::string(last.topic()), last.partition(), last.offset()}, 10s));
    Emit({{"event", "seek"}, {"partitions", {last.partition()}}, {"offset", last.offset()}});
  }
  const auto until = Clock::now() + Seconds(seconds);
  while (Clock::now() < until && !g_stop) {
    FLOE_ASSIGN_OR_RETURN(auto record, consumer.Poll(100ms));
    if (record) Emit(RecordEvent(*record, false));
  }
  FLOE_RETURN_IF_ERROR(consumer.Resume(assigned));
  Emit({{"event", "resumed"}, {"partitions", PartitionIds(assigned)}});
  return Status::OK();
}

Status RunGroupMember(const Options& o, const std::map<std::string, std::string>& properties) {
  using namespace std::chrono_literals;
  FLOE_ASSIGN_OR_RETURN(const std::int64_t start_offset, ParseStartOffset(o.start_offset));
  ProbeListener listener(start_offset);
  FLOE_ASSIGN_OR_RETURN(auto consumer, floe::kafka::Consumer::Create({o.bootstrap, o.group, properties, ""}));
  listener.set_consumer(consumer.get());
  FLOE_RETURN_IF_ERROR(consumer->Subscribe({o.topic}, &listener));
  Emit({{"event", "subscribed"}, {"group", o.group}});

  const auto idle_limit = Seconds(o.idle_exit_seconds);
  std::int64_t records = 0;
  bool rewound = false;
  bool paused = false;
  while (!g_stop && records != o.max_records && Clock::now() - listener.last_activity() < idle_limit) {
    if (o.close_when_joined && consumer->JoinedGroup()) break;
    FLOE_ASSIGN_OR_RETURN(auto record, consumer->Poll(o.close_when_joined ? 100ms : 200ms));
    if (!record) continue;
    ++records;
    listener.Read(*record);
    Emit(RecordEvent(*record, o.print_payloads));
    if (!rewound && records == o.rewind_after_records) {
      rewound = true;
      FLOE_RETURN_IF_ERROR(Rewind(*consumer, listener, start_offset));
    }
    if (!paused && records == o.pause_after_records) {
      paused = true;
      FLOE_RETURN_IF_ERROR(PauseForAWhile(*consumer, o.pause_seconds, *record, o.pause_retries_last));
    }
  }
  // Close() revokes the whole assignment through the listener, which commits what was read.
  FLOE_RETURN_IF_ERROR(consumer->Close());
  Emit({{"event", "closed"}, {"records", records}});
  return Status::OK();
}

std::string DlqValue(std::int64_t i) {
  std::string value = {'\x00', '\xff', static_cast<char>(i & 0xff), '\x80'};
  return value + "v" + std::to_string(i);
}

std::vector<floe::kafka::OwnedHeader> DlqHeaders(std::int64_t i) {
  return {{"floe.error", "record " + std::to_string(i) + " failed"},
          {"floe.binary", std::string("\x00\xff\x01", 3)},
          {"floe.null", std::nullopt},
          {"floe.empty", ""},
          {"floe.error", "again"}};
}

Status RunDlqProducer(const Options& o, const std::map<std::string, std::string>& properties) {
  if (o.dlq_topic.empty()) return Status::InvalidArgument("--dlq-produce needs --dlq-topic");
  FLOE_ASSIGN_OR_RETURN(auto producer, floe::kafka::Producer::Create({o.bootstrap, properties}));
  for (std::int64_t i = 0; i < o.dlq_produce; ++i) {
    const std::string key = "key-" + std::to_string(i);
    const std::string value = DlqValue(i);
    const auto key_or_null = i % 2 == 0 ? std::nullopt : std::optional<std::string_view>(key);
    const auto value_or_null = i % 5 == 4 ? std::nullopt : std::optional<std::string_view>(value);
    FLOE_RETURN_IF_ERROR(producer->Produce(o.dlq_topic, key_or_null, value_or_null, DlqHeaders(i)));
  }
  Emit({{"event", "produced"}, {"records", o.dlq_produce}});
  const auto started = Clock::now();
  const Status flushed = producer->Flush(std::chrono::milliseconds(o.flush_timeout_ms));
  const auto elapsed_ms = std::chrono::duration_cast<std::chrono::milliseconds>(Clock::now() - started).count();
  if (!flushed.ok()) {
    Emit({{"event", "flush_failed"}, {"elapsed_ms", elapsed_ms}, {"error", flushed.ToString()}});
    return flushed;
  }
  Emit({{"event", "flushed"}, {"elapsed_ms", elapsed_ms}});
  return Status::OK();
}

Status Run(const Options& o) {
  FLOE_ASSIGN_OR_RETURN(const auto properties, ParseProperties(o.properties));
  if (o.dlq_produce >= 0) return RunDlqProducer(o, properties);
  if (o.topic.empty()) return Status::InvalidArgument("--topic is required in group mode");
  return RunGroupMember(o, properties);
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"Join a Kafka consumer group (or produce dead-letter records) and print JSON events"};
  Options o;
  app.add_option("--bootstrap", o.bootstrap)->required();
  app.add_option("--topic", o.topic);
  app.add_option("--group", o.group);
  app.add_option("--start-offset", o.start_offset, "beginning, committed or an offset");
  app.add_option("--max-records", o.max_records);
  app.add_flag("--close-when-joined", o.close_when_joined,
               "close as soon as the group answered (records of the new assignment still in flight)");
  app.add_option("--idle-exit-seconds", o.idle_exit_seconds);
  app.add_flag("--print-payloads", o.print_payloads, "add key, value and headers (hex) to record events");
  app.add_option("--rewind-after-records", o.rewind_after_records,
                 "seek the assignment to --start-offset after N records");
  app.add_option("--pause-after-records", o.pause_after_records, "pause the assignment after N records");
  app.add_option("--pause-seconds", o.pause_seconds);
  app.add_flag("--pause-retries-last", o.pause_retries_last, "while paused, seek back to the last record read");
  app.add_option("-X,--property", o.properties, "librdkafka key=value")->allow_extra_args(false);
  app.add_option("--dlq-produce", o.dlq_produce, "produce N records and flush, then exit");
  app.add_option("--dlq-topic", o.dlq_topic);
  app.add_option("--flush-timeout-ms", o.flush_timeout_ms);
  CLI11_PARSE(app, argc, argv);
  if (const Status st = floe::InitLogging("info"); !st.ok()) return 2;
  std::signal(SIGTERM, RequestStop);
  std::signal(SIGINT, RequestStop);
  const Status st = Run(o);
  if (!st.ok()) {
    std::cerr << "floe_kafka_group_probe: " << st.ToString() << std::endl;
    return 1;
  }
  return 0;
}
