#pragma once
// A thin, Status-returning layer over librdkafka's C++ consumer. It owns no policy: the
// pipeline decides what to subscribe, where to seek and when to commit.
//
// Threading: one Consumer is driven by one thread. Rebalance callbacks (RebalanceListener)
// run inside Poll() and Close() on that thread, so the listener needs no locking of its own
// against the code that polls.
#include <atomic>
#include <chrono>
#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "floe/core/result.h"
#include "floe/kafka/fetched_batch.h"
#include "floe/kafka/group_consumer.h"
#include "floe/kafka/record.h"

namespace RdKafka {
class KafkaConsumer;
}  // namespace RdKafka

namespace floe::kafka {

struct ConsumerOptions {
  std::string bootstrap_servers;
  std::string group_id = "floe";
  std::map<std::string, std::string> properties;  // librdkafka pass-through, applied last
  // Static membership (group.instance.id, KIP-345); empty for a dynamic member.
  std::string instance_id;
  // Subscribe() starts a GroupWatch (group_watch.h), which rebalances the group when partitions
  // are left without an owner. Off for the watch's own probe.
  bool watch_group = true;
  // Starts every line this consumer logs.
  std::string log_name = "kafka";
};

// Whether an error librdkafka reports for a broker connection is one that reconnecting will
// not fix: SASL authentication failed (wrong user or password, a mechanism the listener does not
// enable), the TLS handshake failed (the broker's certificate is not trusted), or the broker
// refused the client's certificate (missing or untrusted: a TLS alert while reading). `code` is
// an RdKafka::ErrorCode, `reason` librdkafka's error string (it names the broker, no secrets).
bool IsSecurityFailure(int code, std::string_view reason);

// The error Floe reports for such a failure: the configured brokers, librdkafka's reason and what
// to check. librdkafka before 2.6.1 (`librdkafka_version` as rd_kafka_version() returns it) builds
// a SCRAM proof that Kafka 4.0 and newer brokers reject whatever the password; SCRAM failures
// with such a build say so.
std::string DescribeSecurityFailure(const std::string& bootstrap_servers, std::string_view reason,
                                    int librdkafka_version);

class ConsumerCallbacks;  // consumer_callbacks.h: librdkafka's callback interfaces, kept out of this header
class GroupWatch;         // group_watch.h

class Consumer final : public GroupConsumer {
 public:
  // Defaults: no auto commit, auto.offset.reset=earliest,
  // partition.assignment.strategy=cooperative-sticky, session.timeout.ms=10000 with
  // heartbeat.interval.ms=1000 (docs/reliability.md says why), group.instance.id=instance_id;
  // options.properties override any of them.
  static Result<std::unique_ptr<Consumer>> Create(const ConsumerOptions& options);
  // What Create would refuse in `options` (an unknown or invalid property), without making a
  // client or connecting: `floe validate` runs it.
  static Status CheckOptions(const ConsumerOptions& options);
  ~Consumer();  // Close()s first

  // Manual assignment (no group rebalancing): read exactly these partitions from these offsets.
  Status Assign(const std::vector<TopicPartition>& partitions);
  // Joins the consumer group (options.group_id) for these topics; an entry starting with '^'
  // is a regex pattern (librdkafka's convention). Partitions then come and go through the
  // listener, which must outlive the consumer.
  // With options.watch_group, a GroupWatch then watches the group from a thread of its own.
  Status Subscribe(const std::vector<std::string>& topics, RebalanceListener* listener) override;
  // Whether the group has answered this member's JoinGroup with an assignment (maybe empty).
  bool JoinedGroup() const;
  // Stops / restarts fetching from assigned partitions (offsets ignored). Resume continues at
  // the next record not yet returned by Poll() (nothing skipped or repeated), or where a Seek
  // done while paused moved it (pause, seek back to a failed record, resume: it comes again).
  // Pause, Resume and Seek need the partition to be assigned already, which it is not yet
  // inside OnAssigned (librdkafka: "Unknown partition" / "Erroneous state"): choose start
  // offsets there through tp.offset, and pause after the Poll() that ran it.
  Status Pause(const std::vector<TopicPartition>& partitions) override;
  Status Resume(const std::vector<TopicPartition>& partitions) override;
  // Moves an assigned partition's fetch position to tp.offset (records already fetched are
  // dropped).
  Status Seek(const TopicPartition& tp, std::chrono::milliseconds timeout) override;
  // Group offsets (tp.offset = next offset to read), for lag monitoring only: Floe's tables are
  // the source of truth. Stored here and committed by librdkafka's auto-commit (every
  // auto.commit.interval.ms, on revoke and on close), which never commits while the group
  // rebalances. A failed commit is logged; it is not an error of this call. A partition no
  // longer assigned cannot be stored (an error, harmless).
  Status CommitOffsets(const std::vector<TopicPartition>& partitions) override;
  // The current assignment (offset field unspecified).
  std::vector<TopicPartition> Assignment() const override;
  // The partition ids of a topic, from broker metadata.
  Result<std::vector<std::int32_t>> Partitions(const std::string& topic, std::chrono::milliseconds timeout) override;
  // [low, high) offsets on the broker: high is the offset the next produced record gets.
  Result<std::pair<std::int64_t, std::int64_t>> Watermarks(const std::string& topic, std::int32_t partition,
                                                           std::chrono::milliseconds timeout) override;
  // The same for many partitions, with one ListOffsets request per leader broker (list_offsets.h).
  Result<std::vector<std::pair<std::int64_t, std::int64_t>>> WatermarksOf(const std::vector<TopicPartition>& partitions,
                                                                          std::chrono::milliseconds timeout) override;
  std::optional<std::pair<std::int64_t, std::int64_t>> CachedWatermarks(const std::string& topic,
                                                                        std::int32_t partition) override;
  // The next record, nullopt on timeout or end of partition; broker errors that librdkafka
  // recovers from by itself are logged and not returned. Records are taken from librdkafka in
  // batches (fetched_batch.h) and handed out one per call. Rebalance callbacks run in here,
  // when a batch is taken; a failure inside one (a listener that threw, a rejected assignment)
  // is returned by the first Poll after that which has no record to return.
  Result<std::optional<Record>> Poll(std::chrono::milliseconds timeout) override;
  // librdkafka's application position (rd_kafka_position): control records move it too.
  std::optional<std::int64_t> ReadPosition(const std::string& topic, std::int32_t partition) override;
  std::optional<BrokerOutage> Outage() const override;
  std::int64_t StrandedPartitionRebalances() const override { return stranded_rebalances_.load(); }
  // Leaves the group cleanly: the listener's OnRevoked(..., lost=false) runs for the whole
  // assignment before this returns. Waits at most 5 s on the group protocol (a JoinGroup
  // pending in a rebalance is answered only when the rebalance completes): past that, the
  // consumer is left to the broker's session timeout and this returns. Later calls are no-ops;
  // other methods then fail.
  Status Close() override;

 private:
  Consumer(std::unique_ptr<ConsumerCallbacks> callbacks, std::unique_ptr<RdKafka::KafkaConsumer> consumer,
           ConsumerOptions options);
  Status CheckOpen(std::string_view operation) const;
  // A failed metadata or watermark request (`failed`): before the first subscription, the
  // queued connection errors say why; a security failure replaces the bare "transport failure".
  Status ExplainFailure(Status failed);
  // A security failure seen before the consumer ever reached the brokers is fatal (InvalidArgument:
  // the configuration is wrong, retrying cannot help); afterwards it is logged and retried.
  Status SecurityFailure(std::string_view reason);
  // The brokers answered (a record, an assignment, a metadata or watermark answer).
  void Reached();
  // Poll's answer when librdkafka gave no record: `err` (an RdKafka::ErrorCode; a timeout when
  // the queue stayed empty) and its description, or a failure kept from a callback.
  Result<std::optional<Record>> NoRecord(int err, const std::string& reason);

  const ConsumerOptions options_;
  bool subscribed_ = false;
  bool reached_brokers_ = false;  // a record, an assignment or an answered request seen

  // Declared first so it is destroyed last: librdkafka calls into it until consumer_ is gone.
  std::unique_ptr<ConsumerCallbacks> callbacks_;
  std::unique_ptr<RdKafka::KafkaConsumer> consumer_;
  // The consumer's queue (rd_kafka_queue_get_consumer), which Poll takes batches from.
  struct QueueDeleter {
    void operator()(rd_kafka_queue_s* queue) const;
  };
  std::unique_ptr<rd_kafka_queue_s, QueueDeleter> queue_;
  FetchedBatch fetched_;  // destroyed before consumer_: its messages belong to it
  enum class State { kOpen, kClosing, kClosed };  // kClosing: inside Close(), revoke callbacks running
  State state_ = State::kOpen;
  std::atomic<std::int64_t> stranded_rebalances_{0};  // counted by watch_
  std::unique_ptr<GroupWatch> watch_;  // uses consumer_'s handle: stopped first in Close()
};

}  // namespace floe::kafka
