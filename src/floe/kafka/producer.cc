#include "floe/kafka/producer.h"

#include <librdkafka/rdkafkacpp.h>
#include <spdlog/spdlog.h>

#include <mutex>
#include <iterator>
#include <utility>

namespace floe::kafka {

namespace {

// How long Produce() waits out a full local queue before giving up.
constexpr std::chrono::seconds kQueueFullPatience{30};
constexpr std::chrono::milliseconds kQueueFullPoll{100};

std::unique_ptr<RdKafka::Headers> ToRdKafkaHeaders(const std::vector<OwnedHeader>& headers) {
  std::unique_ptr<RdKafka::Headers> out(RdKafka::Headers::create());
  for (const auto& h : headers) {
    // A null pointer is how librdkafka tells a null header value from an empty one.
    const void* value = h.value ? h.value->data() : nullptr;
    out->add(h.key, value, h.value ? h.value->size() : 0);
  }
  return out;
}

// librdkafka reads a null pointer as a null key/value, so an empty view must still point somewhere.
const char* BytesOrNull(std::optional<std::string_view> bytes) {
  static constexpr char kEmpty[] = "";
  if (!bytes) return nullptr;
  return bytes->data() != nullptr ? bytes->data() : kEmpty;
}

}  // namespace

// Counts, per topic, records queued but not yet reported and records that failed, between
// two Flush() calls. The delivery report callback runs on whichever thread polls.
class DeliveryTracker : public RdKafka::DeliveryReportCb {
 public:
  // Called before produce(): once librdkafka has the record, another thread's poll may
  // already report it.
  void Queued(const std::string& topic) {
    std::lock_guard lock(mutex_);
    ++topics_[topic].pending;
  }
  void NotQueued(const std::string& topic) {
    std::lock_guard lock(mutex_);
    Counts& counts = topics_[topic];
    if (counts.pending > 0) --counts.pending;
  }

  void dr_cb(RdKafka::Message& message) override {
    std::lock_guard lock(mutex_);
    Counts& counts = topics_[message.topic_name()];
    if (counts.pending > 0) --counts.pending;
    if (message.err() == RdKafka::ERR_NO_ERROR) return;
    if (counts.failed++ == 0) counts.first_error = message.errstr();
  }

  // "3 record(s) for 'orders.dlq' failed: Local: Message timed out" for every topic with
  // failures (pending ones too when `with_pending`), and forgets the failures. Empty when
  // there is nothing to report.
  std::string TakeReport(bool with_pending) {
    std::lock_guard lock(mutex_);
    std::string report;
    for (auto it = topics_.begin(); it != topics_.end();) {
      Counts& c = it->second;
      if (c.failed > 0) {
        Append(report, std::to_string(c.failed) + " record(s) for '" + it->first + "' failed: " + c.first_error);
      }
      if (with_pending && c.pending > 0) {
        Append(report, std::to_string(c.pending) + " record(s) for '" + it->first + "' still undelivered");
      }
      c.failed = 0;
      c.first_error.clear();
      it = c.pending == 0 ? topics_.erase(it) : std::next(it);
    }
    return report;
  }

 private:
  struct Counts {
    std::int64_t pending = 0;
    std::int64_t failed = 0;
    std::string first_error;
  };

  static void Append(std::string& report, const std::string& part) {
    if (!report.empty()) report += "; ";
    report += part;
  }

  std::mutex mutex_;
  std::map<std::string, Counts> topics_;
};

Result<std::unique_ptr<Producer>> Producer::Create(const ProducerOptions& options) {
  std::unique_ptr<RdKafka::Conf> conf(RdKafka::Conf::create(RdKafka::Conf::CONF_GLOBAL));
  std::string error;
  // Floe's defaults first; the user's properties may override any of them.
  std::map<std::string, std::string> settings = {
      {"bootstrap.servers", options.bootstrap_servers},
      // No duplicates or reordering from internal retries; acknowledged by all in-sync replicas.
      {"enable.idempotence", "true"},
      {"acks", "all"},
      {"client.id", "floe-dlq"},
  };
  for (const auto& [k, v] : options.properties) settings[k] = v;
  for (const auto& [k, v] : settings) {
    if (conf->set(k, v, error) != RdKafka::Conf::CONF_OK) {
      return Status::InvalidArgument("kafka producer property '" + k + "': " + error);
    }
  }
  auto tracker = std::make_unique<DeliveryTracker>();
  if (conf->set("dr_cb", static_cast<RdKafka::DeliveryReportCb*>(tracker.get()), error) != RdKafka::Conf::CONF_OK) {
    return Status::Internal("kafka producer delivery callback: " + error);
  }
  std::unique_ptr<RdKafka::Producer> producer(RdKafka::Producer::create(conf.get(), error));
  if (!producer) return Status::InvalidArgument("cannot create Kafka producer: " + error);
  return std::unique_ptr<Producer>(new Producer(std::move(tracker), std::move(producer)));
}

Producer::Producer(std::unique_ptr<DeliveryTracker> tracker, std::unique_ptr<RdKafka::Producer> producer)
    : tracker_(std::move(tracker)), producer_(std::move(producer)) {}

Producer::~Producer() {
  producer_->poll(0);  // serve the delivery reports that are already in
  const int undelivered = producer_->outq_len();
  if (undelivered > 0) {
    spdlog::warn("kafka producer: dropping {} queued record(s) or request(s) that were never flushed", undelivered);
    producer_->purge(RdKafka::Producer::PURGE_QUEUE | RdKafka::Producer::PURGE_INFLIGHT);
  }
  const std::string report = tracker_->TakeReport(false);
  if (!report.empty()) spdlog::warn("kafka producer: unreported delivery failures: {}", report);
}

Status Producer::Produce(const std::string& topic, std::optional<std::string_view> key,
                         std::optional<std::string_view> value, const std::vector<OwnedHeader>& headers) {
  std::unique_ptr<RdKafka::Headers> rd_headers = ToRdKafkaHeaders(headers);
  const auto give_up_at = std::chrono::steady_clock::now() + kQueueFullPatience;
  while (true) {
    tracker_->Queued(topic);
    // RK_MSG_COPY: the caller's buffers need not outlive this call. Keys are always copied.
    const RdKafka::ErrorCode rc = producer_->produce(
        topic, RdKafka::Topic::PARTITION_UA, RdKafka::Producer::RK_MSG_COPY, const_cast<char*>(BytesOrNull(value)),
        value ? value->size() : 0, BytesOrNull(key), key ? key->size() : 0, /*timestamp=now*/ 0, rd_headers.get(),
        nullptr);
    if (rc == RdKafka::ERR_NO_ERROR) {
      (void)rd_headers.release();  // librdkafka owns them once produce() succeeded
      producer_->poll(0);  // serve delivery reports as we go, so they do not pile up
      return Status::OK();
    }
    tracker_->NotQueued(topic);
    if (rc == RdKafka::ERR_MSG_SIZE_TOO_LARGE) {
      return Status::InvalidArgument("record for '" + topic + "' is larger than the producer's message.max.bytes");
    }
    if (rc != RdKafka::ERR__QUEUE_FULL || std::chrono::steady_clock::now() >= give_up_at) {
      return Status::Unavailable("producing to '" + topic + "' failed: " + RdKafka::err2str(rc));
    }
    // The queue drains as the broker acknowledges; polling serves those acknowledgements.
    producer_->poll(static_cast<int>(kQueueFullPoll.count()));
  }
}

Status Producer::Flush(std::chrono::milliseconds timeout) {
  const RdKafka::ErrorCode rc = producer_->flush(static_cast<int>(timeout.count()));
  const bool timed_out = rc == RdKafka::ERR__TIMED_OUT;
  const std::string report = tracker_->TakeReport(timed_out);
  if (timed_out) {
    return Status::Unavailable("kafka producer flush timed out after " + std::to_string(timeout.count()) +
                               " ms: " + (report.empty() ? "requests still in flight" : report));
  }
  if (rc != RdKafka::ERR_NO_ERROR) return Status::Unavailable("kafka producer flush failed: " + RdKafka::err2str(rc));
  if (!report.empty()) return Status::Unavailable("kafka producer: " + report);
  return Status::OK();
}

}  // namespace floe::kafka
