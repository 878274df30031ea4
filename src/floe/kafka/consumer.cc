#include "floe/kafka/consumer.h"

#include <librdkafka/rdkafka.h>  // RD_KAFKA_OFFSET_* as constant expressions
#include <librdkafka/rdkafkacpp.h>
#include <spdlog/spdlog.h>

#include <cstdio>
#include <utility>

#include "floe/kafka/consumer_callbacks.h"
#include "floe/kafka/consumer_conf.h"
#include "floe/kafka/group_watch.h"
#include "floe/kafka/list_offsets.h"
#include "floe/kafka/rdkafka_interop.h"

namespace floe::kafka {

static_assert(kOffsetBeginning == RD_KAFKA_OFFSET_BEGINNING);
static_assert(kOffsetCommitted == RD_KAFKA_OFFSET_INVALID);

namespace {

// Pause rewinds a partition whose records were taken but not handed out: librdkafka only
// queues the seek for its fetcher, so this is local work, not a broker round trip.
constexpr std::chrono::milliseconds kRewindTimeout{5000};

}  // namespace

bool IsSecurityFailure(int code, std::string_view reason) {
  switch (code) {
    case RdKafka::ERR__AUTHENTICATION:
    case RdKafka::ERR_SASL_AUTHENTICATION_FAILED:
    case RdKafka::ERR__SSL:
      return true;
    case RdKafka::ERR__TRANSPORT:
      // "Receive failed: error:0A000412:SSL routines::sslv3 alert bad certificate": the broker
      // sent a TLS alert, i.e. rejected the handshake on purpose. A connection that merely
      // dropped ("unexpected eof") is not one.
      return reason.find("SSL routines") != std::string_view::npos && reason.find(" alert ") != std::string_view::npos;
    default:
      return false;
  }
}

std::string DescribeSecurityFailure(const std::string& bootstrap_servers, std::string_view reason,
                                    int librdkafka_version) {
  std::string out = "cannot connect to the Kafka brokers at " + bootstrap_servers + ": " + std::string(reason);
  const bool tls = reason.find("SSL") != std::string_view::npos;
  // librdkafka's OIDC client failing to get a token says "SASL OAUTHBEARER token": the identity
  // provider's settings are to check then, not a user name and password.
  const bool oauth = reason.find("OAUTHBEARER") != std::string_view::npos;
  out += tls     ? " (check the TLS settings in kafka.properties: security.protocol, ssl.ca.location for the brokers' "
                   "CA, ssl.certificate.location and ssl.key.location or ssl.key.pem when the listener requires a "
                   "client certificate)"
         : oauth ? " (check sasl.oauthbearer.token.endpoint.url, sasl.oauthbearer.client.id and "
                   "sasl.oauthbearer.client.secret in kafka.properties, and that the identity provider issues tokens "
                   "the brokers accept)"
                 : " (check sasl.mechanism, sasl.username and sasl.password in kafka.properties)";
  constexpr int kScramFixed = 0x020601ff;  // librdkafka 2.6.1: SCRAM nonce fix (librdkafka#4895)
  if (reason.find("SCRAM") != std::string_view::npos && librdkafka_version < kScramFixed) {
    char version[32];
    std::snprintf(version, sizeof version, "%d.%d.%d", (librdkafka_version >> 24) & 0xff,
                  (librdkafka_version >> 16) & 0xff, (librdkafka_version >> 8) & 0xff);
    out += "; note that librdkafka " + std::string(version) +
           ", which this Floe is built with, cannot authenticate with SCRAM to Kafka 4.0 or newer brokers "
           "whatever the password (fixed in librdkafka 2.6.1): use PLAIN over TLS there, or a Floe built with a "
           "newer librdkafka";
  }
  return out + ".";
}

Status Consumer::CheckOptions(const ConsumerOptions& options) { return BuildConsumerConf(options).status(); }

Result<std::unique_ptr<Consumer>> Consumer::Create(const ConsumerOptions& options) {
  FLOE_ASSIGN_OR_RETURN(auto conf, BuildConsumerConf(options));
  std::string error;
  auto callbacks = std::make_unique<ConsumerCallbacks>(options.log_name);
  if (conf->set("rebalance_cb", static_cast<RdKafka::RebalanceCb*>(callbacks.get()), error) != RdKafka::Conf::CONF_OK ||
      conf->set("offset_commit_cb", static_cast<RdKafka::OffsetCommitCb*>(callbacks.get()), error) !=
          RdKafka::Conf::CONF_OK ||
      conf->set("event_cb", static_cast<RdKafka::EventCb*>(callbacks.get()), error) != RdKafka::Conf::CONF_OK) {
    return Status::Internal("kafka consumer callbacks: " + error);
  }
  std::unique_ptr<RdKafka::KafkaConsumer> consumer(RdKafka::KafkaConsumer::create(conf.get(), error));
  if (!consumer) return Status::InvalidArgument("cannot create Kafka consumer: " + error);
  return std::unique_ptr<Consumer>(new Consumer(std::move(callbacks), std::move(consumer), options));
}

Consumer::Consumer(std::unique_ptr<ConsumerCallbacks> callbacks, std::unique_ptr<RdKafka::KafkaConsumer> consumer,
                   ConsumerOptions options)
    : options_(std::move(options)),
      callbacks_(std::move(callbacks)),
      consumer_(std::move(consumer)),
      queue_(rd_kafka_queue_get_consumer(consumer_->c_ptr())) {}

void Consumer::QueueDeleter::operator()(rd_kafka_queue_s* queue) const { rd_kafka_queue_destroy(queue); }

Status Consumer::SecurityFailure(std::string_view reason) {
  const std::string what = DescribeSecurityFailure(options_.bootstrap_servers, reason, RdKafka::version());
  if (!reached_brokers_) return Status::InvalidArgument(what);
  spdlog::warn("{}: {}", options_.log_name, what);
  return Status::OK();
}

Status Consumer::ExplainFailure(Status failed) {
  // Before subscribe() consume() returns no records, only the queued errors: safe to drain.
  if (subscribed_ || reached_brokers_) return failed;
  // The errors wait in the queue until served: consume() hands them to the event callback.
  for (int i = 0; i < 1000; ++i) {
    std::unique_ptr<RdKafka::Message> message(consumer_->consume(0));
    if (message->err() == RdKafka::ERR__TIMED_OUT || message->err() == RdKafka::ERR_NO_ERROR) break;
  }
  const std::string reason = callbacks_->TakeSecurityFailure();
  if (!reason.empty()) FLOE_RETURN_IF_ERROR(SecurityFailure(reason));
  return failed;
}

Consumer::~Consumer() { (void)Close(); }

void Consumer::Reached() {
  reached_brokers_ = true;
  callbacks_->ClearOutage();
}

std::optional<BrokerOutage> Consumer::Outage() const {
  if (!callbacks_) return std::nullopt;  // closed and abandoned (Close)
  return callbacks_->outage();
}

Status Consumer::CheckOpen(std::string_view operation) const {
  if (state_ == State::kClosed) return Status::Internal("kafka consumer: " + std::string(operation) + " after Close()");
  return Status::OK();
}

Status Consumer::Assign(const std::vector<TopicPartition>& partitions) {
  FLOE_RETURN_IF_ERROR(CheckOpen("Assign"));
  PartitionList list(partitions);
  return FromCode(consumer_->assign(list.get()), "assign");
}

Status Consumer::Subscribe(const std::vector<std::string>& topics, RebalanceListener* listener) {
  FLOE_RETURN_IF_ERROR(CheckOpen("Subscribe"));
  if (listener == nullptr) return Status::InvalidArgument("kafka subscribe needs a RebalanceListener");
  if (topics.empty()) return Status::InvalidArgument("kafka subscribe needs at least one topic");
  callbacks_->set_listener(listener);
  subscribed_ = true;
  FLOE_RETURN_IF_ERROR(FromCode(consumer_->subscribe(topics), "subscribe"));
  if (options_.watch_group && !watch_) {
    watch_ = std::make_unique<GroupWatch>(consumer_->c_ptr(), options_, topics, GroupWatch::Timing{},
                                          &stranded_rebalances_);
  }
  return Status::OK();
}

bool Consumer::JoinedGroup() const { return callbacks_ && callbacks_->assigned_once(); }

Status Consumer::Pause(const std::vector<TopicPartition>& partitions) {
  FLOE_RETURN_IF_ERROR(CheckOpen("Pause"));
  PartitionList list(partitions);
  FLOE_RETURN_IF_ERROR(FromCode(consumer_->pause(list.get()), "pause"));
  FLOE_RETURN_IF_ERROR(FirstPartitionError(list.get(), "pause"));
  // Records of these partitions already taken from librdkafka would still arrive while they
  // are paused. They go back instead: the partition is rewound to the first of them (librdkafka's
  // position is past the whole batch), and reading resumes there.
  if (fetched_.empty()) return Status::OK();
  const auto first = fetched_.FirstOffsets();
  for (const auto& tp : partitions) {
    const auto it = first.find({tp.topic, tp.partition});
    if (it != first.end()) FLOE_RETURN_IF_ERROR(Seek({tp.topic, tp.partition, it->second}, kRewindTimeout));
  }
  return Status::OK();
}

Status Consumer::Resume(const std::vector<TopicPartition>& partitions) {
  FLOE_RETURN_IF_ERROR(CheckOpen("Resume"));
  PartitionList list(partitions);
  FLOE_RETURN_IF_ERROR(FromCode(consumer_->resume(list.get()), "resume"));
  FLOE_RETURN_IF_ERROR(FirstPartitionError(list.get(), "resume"));
  // A broker thread with no partition to fetch sleeps up to a second before it looks at them
  // again, and librdkafka (2.12) does not wake it on resume: every resume stalled reading for
  // ~1 s (a third of the run at buffer_memory 16MiB). A seek to where reading stands restarts
  // the partition's fetch at once; nothing is skipped or read twice.
  for (const auto& tp : partitions) {
    if (auto at = ReadPosition(tp.topic, tp.partition)) {
      (void)Seek({tp.topic, tp.partition, *at}, std::chrono::milliseconds(0));  // 0: asynchronous
    }
  }
  return Status::OK();
}

Status Consumer::Seek(const TopicPartition& tp, std::chrono::milliseconds timeout) {
  FLOE_RETURN_IF_ERROR(CheckOpen("Seek"));
  fetched_.DropPartition(tp.topic, tp.partition);  // read before the seek: read again after it
  std::unique_ptr<RdKafka::TopicPartition> target(RdKafka::TopicPartition::create(tp.topic, tp.partition, tp.offset));
  const RdKafka::ErrorCode rc = consumer_->seek(*target, static_cast<int>(timeout.count()));
  return FromCode(rc, "seek of " + tp.topic + "/" + std::to_string(tp.partition) + " to " + DescribeOffset(tp.offset));
}

Status Consumer::CommitOffsets(const std::vector<TopicPartition>& partitions) {
  FLOE_RETURN_IF_ERROR(CheckOpen("CommitOffsets"));
  if (partitions.empty()) return Status::OK();
  PartitionList list(partitions);
  // Stored for librdkafka's auto-commit, not committed here. A commit sent while this member's
  // JoinGroup is pending waits behind it on the coordinator's connection and is answered
  // ILLEGAL_GENERATION once the rebalance bumped the generation; librdkafka before 2.10 then
  // drops the whole assignment as lost (#4059): the surviving worker of a rebalance would lose
  // its own partitions. The auto-commit timer commits only in a steady group (and on revoke).
  FLOE_RETURN_IF_ERROR(FromCode(consumer_->offsets_store(list.get()), "offset store"));
  return FirstPartitionError(list.get(), "offset store");
}

std::vector<TopicPartition> Consumer::Assignment() const {
  if (state_ == State::kClosed) return {};
  PartitionList list;
  const RdKafka::ErrorCode rc = consumer_->assignment(list.get());
  if (rc != RdKafka::ERR_NO_ERROR) {
    spdlog::warn("{}: reading the assignment failed: {}", options_.log_name, RdKafka::err2str(rc));
    return {};
  }
  return FromRdKafka(list.get());
}

Result<std::vector<std::int32_t>> Consumer::Partitions(const std::string& topic, std::chrono::milliseconds timeout) {
  FLOE_RETURN_IF_ERROR(CheckOpen("Partitions"));
  std::string error;
  std::unique_ptr<RdKafka::Topic> handle(RdKafka::Topic::create(consumer_.get(), topic, nullptr, error));
  if (!handle) return Status::InvalidArgument("kafka topic '" + topic + "': " + error);
  RdKafka::Metadata* raw = nullptr;
  const RdKafka::ErrorCode rc = consumer_->metadata(false, handle.get(), &raw, static_cast<int>(timeout.count()));
  std::unique_ptr<RdKafka::Metadata> metadata(raw);
  if (rc != RdKafka::ERR_NO_ERROR) {
    return ExplainFailure(Status::Unavailable("kafka metadata for '" + topic + "' failed: " + RdKafka::err2str(rc)));
  }
  Reached();
  for (const auto* t : *metadata->topics()) {
    if (t->topic() != topic) continue;
    if (t->err() != RdKafka::ERR_NO_ERROR) {
      return Status::NotFound("kafka topic '" + topic + "': " + RdKafka::err2str(t->err()));
    }
    std::vector<std::int32_t> ids;
    for (const auto* p : *t->partitions()) ids.push_back(p->id());
    return ids;
  }
  return Status::NotFound("kafka topic '" + topic + "' does not exist");
}

Result<std::pair<std::int64_t, std::int64_t>> Consumer::Watermarks(const std::string& topic, std::int32_t partition,
                                                                   std::chrono::milliseconds timeout) {
  FLOE_RETURN_IF_ERROR(CheckOpen("Watermarks"));
  std::int64_t low = 0;
  std::int64_t high = 0;
  const RdKafka::ErrorCode rc =
      consumer_->query_watermark_offsets(topic, partition, &low, &high, static_cast<int>(timeout.count()));
  if (rc != RdKafka::ERR_NO_ERROR) {
    return ExplainFailure(Status::Unavailable("kafka watermarks for " + topic + "/" + std::to_string(partition) +
                                              " failed: " + RdKafka::err2str(rc)));
  }
  Reached();
  return std::make_pair(low, high);
}

Result<std::vector<std::pair<std::int64_t, std::int64_t>>> Consumer::WatermarksOf(
    const std::vector<TopicPartition>& partitions, std::chrono::milliseconds timeout) {
  FLOE_RETURN_IF_ERROR(CheckOpen("Watermarks"));
  auto watermarks = ListWatermarks(consumer_->c_ptr(), partitions, timeout);
  if (!watermarks.ok()) return ExplainFailure(watermarks.status());
  Reached();
  return watermarks;
}

std::optional<std::pair<std::int64_t, std::int64_t>> Consumer::CachedWatermarks(const std::string& topic,
                                                                                std::int32_t partition) {
  if (state_ == State::kClosed) return std::nullopt;
  std::int64_t low = -1;
  std::int64_t high = -1;
  if (consumer_->get_watermark_offsets(topic, partition, &low, &high) != RdKafka::ERR_NO_ERROR) return std::nullopt;
  if (low < 0 || high < 0) return std::nullopt;  // not fetched yet
  return std::make_pair(low, high);
}

std::optional<std::int64_t> Consumer::ReadPosition(const std::string& topic, std::int32_t partition) {
  if (state_ == State::kClosed) return std::nullopt;
  // librdkafka's position is past the whole batch taken; the messages not handed out come first.
  if (auto first = fetched_.FirstOffset(topic, partition)) return first;
  PartitionList list({{topic, partition, kOffsetCommitted}});
  if (consumer_->position(list.get()) != RdKafka::ERR_NO_ERROR || list.get().empty()) return std::nullopt;
  const std::int64_t offset = list.get().front()->offset();
  if (offset < 0) return std::nullopt;  // RD_KAFKA_OFFSET_INVALID: nothing read since the assignment or a seek
  return offset;
}

Result<std::optional<Record>> Consumer::Poll(std::chrono::milliseconds timeout) {
  FLOE_RETURN_IF_ERROR(CheckOpen("Poll"));
  rd_kafka_message_t* next = fetched_.Next();
  if (next == nullptr) {
    const int fetched = fetched_.Fill(queue_.get(), static_cast<int>(timeout.count()));
    if (fetched <= 0) {
      const auto err = fetched == 0 ? RD_KAFKA_RESP_ERR__TIMED_OUT : rd_kafka_last_error();
      return NoRecord(static_cast<int>(err), rd_kafka_err2str(err));
    }
    next = fetched_.Next();
  }
  std::unique_ptr<rd_kafka_message_t, void (*)(rd_kafka_message_t*)> message(next, rd_kafka_message_destroy);
  // A record is returned even if a rebalance callback failed while its batch was taken:
  // librdkafka has already moved past it, so dropping it would lose it. A later Poll reports
  // the failure.
  if (message->err == RD_KAFKA_RESP_ERR_NO_ERROR) {
    Reached();
    return std::optional<Record>(Record(message.release()));
  }
  return NoRecord(message->err, rd_kafka_message_errstr(message.get()));
}

Result<std::optional<Record>> Consumer::NoRecord(int err, const std::string& reason) {
  FLOE_RETURN_IF_ERROR(callbacks_->TakeError());
  if (callbacks_->assigned_once() && !reached_brokers_) Reached();
  // Refused credentials or certificates (reported to the event callback inside the batch call):
  // fatal at start-up (InvalidArgument), retried later.
  if (const std::string refused = callbacks_->TakeSecurityFailure(); !refused.empty()) {
    FLOE_RETURN_IF_ERROR(SecurityFailure(refused));
  }
  if (IsSecurityFailure(err, reason)) {
    FLOE_RETURN_IF_ERROR(SecurityFailure(reason));
    return std::optional<Record>();
  }
  switch (err) {
    case RdKafka::ERR__TIMED_OUT:
    case RdKafka::ERR__PARTITION_EOF:
      return std::optional<Record>();
    case RdKafka::ERR__TRANSPORT:
    case RdKafka::ERR__ALL_BROKERS_DOWN:
    case RdKafka::ERR__MAX_POLL_EXCEEDED:
      // librdkafka reconnects (or rejoins the group, after a too long gap between polls) by
      // itself; the caller just polls again.
      spdlog::warn("{}: {}", options_.log_name, reason);
      return std::optional<Record>();
    case RdKafka::ERR__FATAL: {
      // The client cannot go on (librdkafka: "the client instance is no longer usable"); the
      // usual cause in a consumer group is a second worker with the same group.instance.id.
      std::string fatal;
      const RdKafka::ErrorCode cause = consumer_->fatal_error(fatal);
      std::string what = "kafka consumer failed for good: " + fatal;
      if (cause == RdKafka::ERR_FENCED_INSTANCE_ID) {
        what += " (another worker of the group runs with the same kafka.instance_id: each worker needs its own)";
      }
      return Status::InvalidArgument(what);
    }
    default:
      return Status::Unavailable("kafka consume error: " + reason);
  }
}

namespace {

// How long Close() waits on the group protocol. librdkafka's blocking close() waits for every
// pending group request, and a JoinGroup sent while a rebalance is pending is only answered
// when the rebalance completes: up to the session timeout of a dead member, or longer. The
// table already holds everything (the pipeline commits before closing), so waiting longer
// buys nothing but a slow shutdown.
constexpr int kCloseTimeoutMs = 5000;

// Consumers whose close did not finish in time. Never destroyed: rd_kafka_destroy would wait for
// the same group request. Kept reachable so that leak checkers do not report them; the process
// is on its way out.
std::vector<std::pair<std::unique_ptr<ConsumerCallbacks>, std::unique_ptr<RdKafka::KafkaConsumer>>>& Abandoned() {
  static auto* abandoned =
      new std::vector<std::pair<std::unique_ptr<ConsumerCallbacks>, std::unique_ptr<RdKafka::KafkaConsumer>>>();
  return *abandoned;
}

}  // namespace

Status Consumer::Close() {
  if (state_ != State::kOpen) return Status::OK();  // also a listener calling Close() from OnRevoked
  // Closing runs the revoke callback for the whole assignment, then leaves the group. The
  // listener may still commit in there, so the consumer counts as open until it returns.
  state_ = State::kClosing;
  watch_.reset();  // a probe under way leaves the group first
  fetched_.Clear();  // read, never delivered: the table's offsets say where the next owner starts
  queue_.reset();
  // close(queue) is close() on librdkafka's thread: its callbacks come through `queue`, served
  // here, so this thread can stop waiting (see kCloseTimeoutMs). The consumer's queue is
  // forwarded to it, so records fetched just before (a partition assigned a moment ago) arrive
  // there too: consume() serves the callbacks and hands those back, to be dropped like the
  // batch above. poll() would serve callbacks only, and librdkafka aborts the process on the
  // first record it meets (rd_kafka_q_serve: "res != RD_KAFKA_OP_RES_PASS").
  std::unique_ptr<RdKafka::Queue> queue(RdKafka::Queue::create(consumer_.get()));
  std::unique_ptr<RdKafka::Error> error(consumer_->close(queue.get()));
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::milliseconds(kCloseTimeoutMs);
  while (!error && !consumer_->closed() && std::chrono::steady_clock::now() < deadline) {
    std::unique_ptr<RdKafka::Message> dropped(queue->consume(100));
  }
  const bool closed = error || consumer_->closed();
  queue.reset();
  state_ = State::kClosed;
  const Status callback_status = callbacks_->TakeError();
  if (!closed) {
    spdlog::warn("{}: leaving the consumer group did not finish within {} s (a rebalance is pending); not waiting "
                 "for it: the group drops this member when its session times out",
                 options_.log_name, kCloseTimeoutMs / 1000);
    // librdkafka's threads go on logging through the callbacks while the process exits.
    callbacks_->Silence();
    Abandoned().emplace_back(std::move(callbacks_), std::move(consumer_));
    return callback_status;
  }
  if (error) return Status::Unavailable("kafka consumer close: " + error->str());
  return callback_status;
}

}  // namespace floe::kafka
