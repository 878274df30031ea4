#pragma once
// librdkafka's callbacks for a Consumer (consumer.h). They run inside consume() and close(),
// i.e. on the thread calling Poll() or Close(). Nothing may throw out of them (they are called
// from C), so failures are logged and kept for Poll() to return. They also keep the broker
// outage bookkeeping (errors and statistics: broker_states.h) that /status reads.
#include <librdkafka/rdkafkacpp.h>

#include <atomic>
#include <functional>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "floe/core/result.h"
#include "floe/kafka/group_consumer.h"

namespace floe::kafka {

class ConsumerCallbacks : public RdKafka::RebalanceCb, public RdKafka::OffsetCommitCb, public RdKafka::EventCb {
 public:
  // `log_name` starts every line logged (ConsumerOptions::log_name).
  explicit ConsumerCallbacks(std::string log_name) : log_name_(std::move(log_name)) {}

  void set_listener(RebalanceListener* listener) { listener_ = listener; }

  // The first refused-credentials/certificate error since the last call (librdkafka's reason),
  // or empty; clears it.
  std::string TakeSecurityFailure();

  // librdkafka's errors (served inside consume(), on the polling thread) and its log lines
  // (from its own threads), which would otherwise go to stderr in librdkafka's format.
  void event_cb(RdKafka::Event& event) override;

  // From now on librdkafka's log lines and errors are dropped.
  void Silence() { silenced_ = true; }

  std::optional<BrokerOutage> outage() const;
  // Called for every record (Consumer::Reached): no lock unless a failure was recorded since.
  void ClearOutage();

  // The first failure since the last call, or OK; clears it.
  Status TakeError() { return std::exchange(error_, Status::OK()); }
  bool assigned_once() const { return assigned_once_; }

  void rebalance_cb(RdKafka::KafkaConsumer* consumer, RdKafka::ErrorCode err,
                    std::vector<RdKafka::TopicPartition*>& partitions) override;
  void offset_commit_cb(RdKafka::ErrorCode err, std::vector<RdKafka::TopicPartition*>& offsets) override;

 private:
  void Assign(RdKafka::KafkaConsumer& consumer, std::vector<RdKafka::TopicPartition*>& partitions, bool cooperative);
  // Copies the listener's offsets into librdkafka's list, matching by topic and partition so
  // a listener that reorders its vector still gets what it asked for.
  void ApplyChosenOffsets(const std::vector<TopicPartition>& chosen, std::vector<RdKafka::TopicPartition*>& partitions);
  void Revoke(RdKafka::KafkaConsumer& consumer, std::vector<RdKafka::TopicPartition*>& partitions, bool cooperative);
  // A rebalance that failed in the group protocol: librdkafka wants the whole assignment
  // dropped. The listener hears of it as a loss, since the group may have moved on.
  void GiveUpAssignment(RdKafka::KafkaConsumer& consumer, RdKafka::ErrorCode err);
  // Runs a listener call; an exception must not unwind through librdkafka's C frames.
  bool CallListener(std::string_view what, const std::function<void()>& call);
  void Fail(const Status& status);

  const std::string log_name_;
  RebalanceListener* listener_ = nullptr;
  Status error_;
  bool assigned_once_ = false;
  mutable std::mutex mutex_;  // security_failure_, outage_: errors may also be served in Close() and metadata calls;
                              // outage_ is read by the /status thread
  std::string security_failure_;
  std::optional<BrokerOutage> outage_;
  std::optional<BrokerOutage> transport_failure_;  // the first connection failure since brokers were last seen up
  std::atomic<bool> failures_recorded_{false};      // outage_ or transport_failure_ may be set
  std::atomic<bool> silenced_{false};
};

}  // namespace floe::kafka
