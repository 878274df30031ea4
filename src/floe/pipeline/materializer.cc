#include "floe/pipeline/materializer.h"

#include <spdlog/spdlog.h>

#include <algorithm>
#include <charconv>
#include <regex>
#include <set>
#include <thread>

#include "floe/core/memory_pool.h"
#include "floe/kafka/consumer.h"
#include "floe/pipeline/materializer_internal.h"
#include "floe/pipeline/payload_formats.h"
#include "floe/pipeline/serialized_sink.h"
#include "floe/sink/open_sink.h"

namespace floe::pipeline {

namespace {

using namespace std::chrono_literals;

constexpr auto kPollTimeout = 100ms;
constexpr auto kStatusInterval = 1s;
constexpr auto kHousekeepingInterval = 20ms;
constexpr int kRecordsPerClockRead = 64;
constexpr auto kLagInterval = 10s;  // a broker round trip per owned partition: not every loop
constexpr auto kFirstLagInterval = 1s;  // while an owned partition's watermarks are still unknown
constexpr auto kProgressLogInterval = 5s;
// Transaction markers after a partition's last record (PassUndeliveredOffsets): a second late is
// soon enough, and asking the consumer for every partition's position is not free.
constexpr auto kPassInterval = 1s;
// How long an operator command waits for the loop; a commit (skip) is the slowest part.
constexpr auto kCommandTimeout = std::chrono::milliseconds(60s);

// Records librdkafka fetched ahead take memory beside the decoded ones, and more than their
// bytes: each queued message is also a ~250-byte op, and a fetch response stays allocated
// until its last message is freed (heaptrack at a 16 MiB budget: 28 MiB of ops and 25 MiB of
// fetch buffers behind an 8 MiB queue). So its queue of pre-fetched messages
// (queued.max.messages.kbytes, 64 MiB by default) is sized from buffer_memory — a sixteenth
// of it, between 2 MiB and 8 MiB — and one fetch response (fetch.max.bytes, 50 MiB by default)
// to fit in it, unless the user set them. More reads no faster: at the 1GiB default a 64 MiB
// queue and an 8 MiB one read 2M records in the same 4.4-4.6 s; at 64MiB an eighth of the
// budget made peak RSS 179 MiB, a sixteenth 155 MiB at the same speed.
//
// When that queue is over a threshold (this budget, or queued.min.messages: 100,000 records,
// 15 MB of 150-byte records) librdkafka postpones the partition's next fetch by
// fetch.queue.backoff.ms, 1 s by default: Floe then drained the queue in 0.3 s and waited
// 0.7 s for the next fetch, reading 2M records in 13 s with half a core busy (3.8 s at 100 ms,
// 4.1 s at 20 ms). A partition's fetch is decided again every 100 ms instead, which also makes
// a small queue keep up (at a 16 MiB budget: 8.8 s with a 2 MiB queue, 18.5 s with 8 MiB;
// with the 1 s backoff a 2 MiB queue had taken 86 s).
std::map<std::string, std::string> WithPrefetchBudget(std::map<std::string, std::string> properties,
                                                     std::int64_t buffer_memory) {
  properties.emplace("fetch.queue.backoff.ms", "100");
  const std::int64_t budget_kbytes = std::clamp<std::int64_t>(buffer_memory / 16 / 1024, 2048, 8192);
  auto queued = properties.emplace("queued.max.messages.kbytes", std::to_string(budget_kbytes)).first;
  std::int64_t kbytes = budget_kbytes;
  std::from_chars(queued->second.data(), queued->second.data() + queued->second.size(), kbytes);
  properties.emplace("fetch.max.bytes", std::to_string(std::clamp<std::int64_t>(kbytes * 1024, 1 << 20, 50 << 20)));
  return properties;
}

// librdkafka treats a subscription starting with '^' as a regex.
std::string SubscriptionFor(const TopicConfig& topic) {
  if (topic.pattern.empty()) return topic.name;
  return topic.pattern.front() == '^' ? topic.pattern : "^" + topic.pattern;
}

}  // namespace

// --- Setup ----------------------------------------------------------------------------------

Status Materializer::Impl::Init() {
  if (config_.schema_registry) {
    registry_ = std::make_unique<registry::Client>(registry::ClientOptionsFor(*config_.schema_registry));
  }
  for (const auto& t : config_.topics) {
    if ((UsesSchemaRegistry(t.value) || UsesSchemaRegistry(t.key)) && !registry_) {
      return Status::InvalidArgument("topic '" + (t.name.empty() ? t.pattern : t.name) +
                                     "' has a Schema Registry key or value format, which needs a schema_registry section");
    }
  }
  FitAllocatorsToBudget(config_.buffer_memory);  // before the threads below allocate
  if (seams_.consumer) {
    consumer_ = std::move(seams_.consumer);
  } else {
    kafka::ConsumerOptions options{config_.kafka.bootstrap_servers, config_.kafka.group_id, config_.kafka.properties,
                                   config_.kafka.instance_id};
    options.properties = WithPrefetchBudget(std::move(options.properties), config_.buffer_memory);
    FLOE_ASSIGN_OR_RETURN(consumer_, kafka::Consumer::Create(options));
  }
  const int workers = WorkerCount(config_.workers);
  pool_ = std::make_unique<WorkerPool>(workers, "floe-commit");
  decode_ = std::make_unique<DecodeStage>(workers);
  spdlog::info("{} worker thread{} decode records, {} write files and commit", workers, workers == 1 ? "" : "s",
               workers);
  if (!seams_.open_sink) {
    FLOE_ASSIGN_OR_RETURN(delta_registry_, catalog::OpenDeltaTableRegistry(config_));
    seams_.open_sink = [this](const TopicConfig& topic) {
      return sink::OpenTableSink(config_, catalog_, topic, delta_registry_.get());
    };
  }
  const bool any_dlq = std::any_of(config_.topics.begin(), config_.topics.end(),
                                   [](const TopicConfig& t) { return t.error_mode == ErrorMode::kDlq; });
  if (any_dlq) {
    FLOE_ASSIGN_OR_RETURN(producer_, kafka::Producer::Create({config_.kafka.bootstrap_servers, config_.kafka.properties}));
  }
  buffered_bytes_ = &metrics_.GetGauge("floe_buffered_bytes", "Decoded record bytes buffered, not yet committed");
  arrow_memory_bytes_ = &metrics_.GetGauge(
      "floe_arrow_memory_bytes", "Memory Arrow's allocator holds (buffered rows, builders, Parquet encoders, pages kept for reuse)");
  // Named topics are known now; pattern topics when they are first assigned.
  for (const auto& t : config_.topics) {
    if (!t.name.empty()) FLOE_RETURN_IF_ERROR(TopicFor(t.name).status());
  }
  PublishStatus();  // /status answers before the first poll
  return Status::OK();
}

const TopicConfig* Materializer::Impl::ConfigFor(const std::string& name) const {
  for (const auto& t : config_.topics) {
    if (t.name == name) return &t;
  }
  for (const auto& t : config_.topics) {
    if (!t.pattern.empty() && std::regex_search(name, std::regex(t.pattern))) return &t;
  }
  return nullptr;
}

Result<TopicState*> Materializer::Impl::TopicFor(const std::string& name) {
  if (auto it = topics_.find(name); it != topics_.end()) return it->second.get();
  const TopicConfig* config = ConfigFor(name);
  if (config == nullptr) return Status::NotFound("topic '" + name + "' matches no entry of topics:");
  auto topic = std::make_unique<TopicState>();
  topic->config = *config;
  topic->config.name = name;
  FLOE_ASSIGN_OR_RETURN(auto table, seams_.open_sink(topic->config));
  // Commits use the sink on a worker thread while the poll thread may need it too.
  topic->table = std::make_unique<SerializedSink>(std::move(table));
  topic->schemas = std::make_unique<WriterSchemas>(topic->config, registry_.get(), topic->table.get());
  const Labels topic_label{{"topic", name}};
  topic->metrics.consumed = &metrics_.GetCounter("floe_records_consumed_total", "Records read from Kafka", topic_label);
  topic->metrics.written = &metrics_.GetCounter("floe_records_written_total", "Records committed to the table", topic_label);
  topic->metrics.skipped = &metrics_.GetCounter("floe_records_skipped_total", "Bad records skipped (error_mode skip)", topic_label);
  topic->metrics.dead_lettered = &metrics_.GetCounter("floe_records_dead_lettered_total",
                                                      "Bad records sent to the dead-letter topic", topic_label);
  topic->metrics.suspended = &metrics_.GetGauge("floe_topic_suspended", "1 while the topic is suspended", topic_label);
  topic->metrics.records_per_second = &metrics_.GetGauge(
      "floe_records_per_second", "Records read from Kafka per second, over the last 10 s", topic_label);
  const Labels table_label{{"table", topic->table->name()}};
  topic->table_metrics.commits = &metrics_.GetCounter("floe_commits_total", "Table commits", table_label);
  topic->table_metrics.conflicts =
      &metrics_.GetCounter("floe_commit_conflicts_total", "Commits rebuilt after losing a race", table_label);
  topic->table_metrics.failures = &metrics_.GetCounter(
      "floe_commit_failures_total", "Commit attempts that failed and will be retried (storage or catalog trouble)",
      table_label);
  topic->table_metrics.bytes = &metrics_.GetCounter("floe_bytes_written_total", "Parquet bytes committed", table_label);
  topic->table_metrics.files = &metrics_.GetCounter("floe_files_written_total", "Parquet files committed", table_label);
  topic->table_metrics.evolutions =
      &metrics_.GetCounter("floe_schema_evolutions_total", "Table schema changes", table_label);
  topic->table_metrics.commit_duration =
      &metrics_.GetHistogram("floe_commit_duration_seconds", "Time to write and commit one table commit (successful ones)",
                             {0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120}, table_label);
  TopicState* out = topic.get();
  topics_[name] = std::move(topic);
  if (batch_mode_) FLOE_RETURN_IF_ERROR(LoadTargets({out}));
  return out;
}

Status Materializer::Impl::LoadTargets(const std::vector<TopicState*>& topics) {
  // All partitions' watermarks in one call: one request per leader broker, not one round trip
  // per partition (100 topics of 10 partitions spent ~1 s here before the first poll).
  std::vector<kafka::TopicPartition> partitions;
  for (const TopicState* topic : topics) {
    FLOE_ASSIGN_OR_RETURN(auto ids, consumer_->Partitions(topic->config.name, kBrokerTimeout));
    for (auto p : ids) partitions.push_back({topic->config.name, p, 0});
  }
  FLOE_ASSIGN_OR_RETURN(auto watermarks, consumer_->WatermarksOf(partitions, kBrokerTimeout));
  std::map<std::string, std::map<std::int32_t, std::pair<std::int64_t, std::int64_t>>> targets;
  for (std::size_t i = 0; i < partitions.size(); ++i) {
    targets[partitions[i].topic][partitions[i].partition] = watermarks[i];
  }
  for (TopicState* topic : topics) topic->targets = std::move(targets[topic->config.name]);
  return Status::OK();
}

// --- Rebalancing ----------------------------------------------------------------------------

bool Materializer::Impl::StartPartition(TopicState& topic, std::int32_t p, PartitionState& state,
                                        const sink::TopicOffsets& offsets) {
  const auto committed = sink::Find(offsets, topic.config.name, p);
  auto buffer = PartitionBuffer::Make(topic.config, *topic.schemas, p, committed);
  if (!buffer.ok()) {
    spdlog::error("{}/{}: {}", topic.config.name, p, buffer.status().ToString());
    state.retry.Fail();
    return false;
  }
  state = PartitionState{};
  state.buffer = std::move(*buffer);
  state.phase = topic.suspended ? PartitionPhase::kSuspended : PartitionPhase::kReading;
  return true;
}

void Materializer::Impl::OnAssigned(std::vector<kafka::TopicPartition>& partitions) {
  Quiesce();  // no record read before the rebalance may land in a partition state made anew
  std::map<std::string, sink::TopicOffsets> offsets_by_topic;
  for (auto& tp : partitions) {
    tp.offset = kafka::kOffsetBeginning;
    auto topic = TopicFor(tp.topic);
    if (!topic.ok()) {
      spdlog::error("assigned {}/{}: {}", tp.topic, tp.partition, topic.status().ToString());
      continue;
    }
    AwaitCommit(**topic);  // the partition's state is about to be replaced
    PartitionState& state = (*topic)->partitions[tp.partition];
    state = PartitionState{};  // kRecovering until the table says where to start
    if ((*topic)->suspended || fetch_paused_) pending_pause_.push_back({tp.topic, tp.partition, 0});
    auto loaded = offsets_by_topic.find(tp.topic);
    if (loaded == offsets_by_topic.end()) {
      auto offsets = (*topic)->table->LoadOffsets();
      if (!offsets.ok()) {
        // Reading from anywhere could duplicate or lose records: hold the partition until
        // the table answers (RecoverPartitions).
        spdlog::warn("{}/{}: cannot read the committed offsets of {} yet: {}", tp.topic, tp.partition,
                     (*topic)->table->name(), offsets.status().ToString());
        continue;
      }
      loaded = offsets_by_topic.emplace(tp.topic, std::move(*offsets)).first;
    }
    if (!StartPartition(**topic, tp.partition, state, loaded->second)) continue;
    const auto committed = state.buffer->committed();
    if (committed) tp.offset = *committed;
    spdlog::info("assigned {}/{}: starting at {}", tp.topic, tp.partition,
                 committed ? "offset " + std::to_string(*committed) + " (from the table)" : std::string("the beginning"));
  }
}

void Materializer::Impl::OnRevoked(const std::vector<kafka::TopicPartition>& partitions, bool lost) {
  Quiesce();  // what was read goes into the buffers (and the commit below) before they go
  std::set<TopicState*> affected;
  for (const auto& tp : partitions) {
    auto it = topics_.find(tp.topic);
    if (it != topics_.end()) affected.insert(it->second.get());
  }
  // An orderly revoke: commit what we have so the next owner starts where we stopped. A
  // lost assignment may already be someone else's: committing would be fenced anyway.
  // Either way a commit already running is waited for and applied, before the buffers go.
  for (auto* topic : affected) {
    if (lost) {
      AwaitCommit(*topic);
    } else {
      CommitTopic(*topic, "partitions revoked");
    }
  }
  for (const auto& tp : partitions) {
    auto it = topics_.find(tp.topic);
    if (it == topics_.end()) continue;
    it->second->partitions.erase(tp.partition);
    spdlog::info("{} {}/{}", lost ? "lost" : "revoked", tp.topic, tp.partition);
  }
}

void Materializer::Impl::PausePending() {
  if (pending_pause_.empty()) return;
  std::vector<kafka::TopicPartition> still_ours;
  for (const auto& tp : pending_pause_) {
    auto topic = topics_.find(tp.topic);
    if (topic != topics_.end() && topic->second->partitions.count(tp.partition) > 0) still_ours.push_back(tp);
  }
  if (still_ours.empty() || consumer_->Pause(still_ours).ok()) pending_pause_.clear();  // else: next time
}

void Materializer::Impl::RecoverPartitions() {
  for (auto& [name, topic] : topics_) {
    for (auto& [p, state] : topic->partitions) {
      if (state.phase != PartitionPhase::kRecovering || state.retry.Waiting()) continue;
      auto offsets = topic->table->LoadOffsets();
      if (!offsets.ok()) {
        state.retry.Fail();
        continue;
      }
      const auto committed = sink::Find(*offsets, name, p);
      auto st = consumer_->Seek({name, p, committed.value_or(kafka::kOffsetBeginning)}, kBrokerTimeout);
      if (!st.ok()) {
        state.retry.Fail();
        continue;
      }
      if (!StartPartition(*topic, p, state, *offsets)) continue;
      spdlog::info("recovered {}/{}: starting at {}", name, p, committed ? std::to_string(*committed) : "the beginning");
    }
  }
}

// --- The loop -------------------------------------------------------------------------------

Status Materializer::Impl::BatchCommitsStillHopeful(std::chrono::milliseconds give_up) const {
  const auto now = Clock::now();
  for (const auto& [name, topic] : topics_) {
    if (!topic->commit_failing_since || now - *topic->commit_failing_since < give_up) continue;
    const auto seconds = std::chrono::duration_cast<std::chrono::seconds>(now - *topic->commit_failing_since).count();
    return Status::Unavailable(topic->table->name() + ": commits have failed for " + std::to_string(seconds) +
                               " s, giving up (--exit-when-caught-up); nothing was lost, the next run starts from the "
                               "table's offsets. Last error: " + topic->commit_error);
  }
  return Status::OK();
}

Result<RunSummary> Materializer::Impl::Run(const RunOptions& options, const std::atomic<bool>& stop) {
  batch_mode_ = options.exit_when_caught_up;
  if (batch_mode_) {
    std::vector<TopicState*> topics;
    for (auto& [name, topic] : topics_) topics.push_back(topic.get());
    FLOE_RETURN_IF_ERROR(LoadTargets(topics));
  }
  std::vector<std::string> subscriptions;
  for (const auto& t : config_.topics) subscriptions.push_back(SubscriptionFor(t));
  FLOE_RETURN_IF_ERROR(consumer_->Subscribe(subscriptions, this));
  PublishStatus();
  auto last_status = Clock::now();
  auto last_lag = Clock::now();
  auto last_progress_log = Clock::now();
  auto last_housekeeping = Clock::now();
  auto last_pass = Clock::now();
  int records_since_clock = 0;
  while (!stop.load()) {
    auto record = consumer_->Poll(kPollTimeout);
    bool idle = true;
    if (!record.ok()) {
      // The brokers refused Floe's credentials or certificate before it ever reached them: a
      // configuration error that retrying cannot fix (kafka::Consumer::Poll), so stop here.
      if (record.status().code() == StatusCode::kInvalidArgument) return record.status();
      spdlog::warn("kafka: {}", record.status().ToString());
    } else if (*record) {
      Handle(std::move(**record));
      idle = false;
    }
    // Everything below walks all partitions: at most every kHousekeepingInterval while
    // records flow, not once per record (that made 1,000 partitions 30× slower); and while
    // they flow the clock is read once per kRecordsPerClockRead records, not per record
    // (clock_gettime was 7 % of the profile).
    const bool full = QueueFull();
    if (!idle && !full && ++records_since_clock < kRecordsPerClockRead) continue;
    records_since_clock = 0;
    const auto now = Clock::now();
    if (!idle && !full && now - last_housekeeping < kHousekeepingInterval) continue;
    last_housekeeping = now;
    // The batch in flight is waited for, so the buffers are this thread's for housekeeping; the
    // records queued since are decoded while the next ones are read — unless nothing is being
    // read: then now, so that a commit due sees them.
    if (idle) {
      Quiesce();
    } else {
      JoinDecoding();
    }
    PausePending();
    commands_.Drain([this](const OperatorCommand& command) { return Apply(command); });
    RecoverPartitions();
    ResumeWaitingPartitions();
    if (now - last_pass >= kPassInterval) {
      Quiesce();  // the consumer's position is past what is queued: those records come first
      PassUndeliveredOffsets();
      last_pass = now;
    }
    CommitDueTopics();
    if (now - last_status >= kStatusInterval) {
      PublishStatus();
      last_status = now;
    }
    // Backlog and ETA need the watermarks: read them soon after an assignment, then every 10 s.
    if (now - last_lag >= kLagInterval || (now - last_lag >= kFirstLagInterval && WatermarksUnknown())) {
      UpdateLag();
      last_lag = now;
    }
    if (now - last_progress_log >= kProgressLogInterval) {
      LogProgress();
      last_progress_log = now;
    }
    if (batch_mode_ && CaughtUp()) break;
    if (batch_mode_) FLOE_RETURN_IF_ERROR(BatchCommitsStillHopeful(options.batch_commit_give_up));
    SubmitQueued();
  }
  Quiesce();
  // Shutdown: commit everything; a commit that keeps failing is retried for a while.
  const auto deadline = Clock::now() + 60s;
  for (;;) {
    bool pending = false;
    for (auto& [name, topic] : topics_) {
      CommitTopic(*topic, "shutdown");
      if (topic->suspended && topic->commit_blocked) continue;
      for (const auto& [p, state] : topic->partitions) pending |= state.buffer && state.buffer->has_uncommitted();
    }
    if (!pending || Clock::now() > deadline) break;
    std::this_thread::sleep_for(500ms);
  }
  PublishStatus();
  if (auto st = consumer_->Close(); !st.ok()) spdlog::warn("kafka: closing the consumer: {}", st.ToString());
  return summary_;
}

// --- Facade ---------------------------------------------------------------------------------

Materializer::Materializer(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}
Materializer::~Materializer() = default;

Result<std::unique_ptr<Materializer>> Materializer::Make(const FloeConfig& config, catalog::TableCatalog& catalog,
                                                         MetricsRegistry& metrics, MaterializerSeams seams) {
  auto impl = std::make_unique<Impl>(config, catalog, metrics, std::move(seams));
  FLOE_RETURN_IF_ERROR(impl->Init());
  return std::unique_ptr<Materializer>(new Materializer(std::move(impl)));
}

Result<RunSummary> Materializer::Run(const RunOptions& options, const std::atomic<bool>& stop) {
  auto summary = impl_->Run(options, stop);
  impl_->commands().Close("the pipeline has stopped");  // whichever way Run ended
  return summary;
}

nlohmann::json Materializer::StatusReport() const { return impl_->StatusReport(); }

Result<nlohmann::json> Materializer::Resume(const std::string& topic) {
  return impl_->commands().Submit({OperatorCommand::Kind::kResume, topic}, kCommandTimeout);
}

Result<nlohmann::json> Materializer::Skip(const std::string& topic, std::int32_t partition, std::int64_t offset) {
  return impl_->commands().Submit({OperatorCommand::Kind::kSkip, topic, partition, offset}, kCommandTimeout);
}
bool Materializer::Healthy() const { return impl_->Healthy(); }

}  // namespace floe::pipeline
