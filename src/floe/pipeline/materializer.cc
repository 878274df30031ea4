#include "floe/pipeline/materializer.h"

#include <spdlog/spdlog.h>

#include <algorithm>
#include <regex>
#include <thread>

#include "floe/core/version.h"
#include "floe/kafka/consumer.h"
#include "floe/kafka/producer.h"
#include "floe/pipeline/dead_letter.h"
#include "floe/pipeline/delta_table_writer.h"
#include "floe/pipeline/dual_table_sink.h"
#include "floe/pipeline/iceberg_table_writer.h"
#include "floe/pipeline/topic_state.h"
#include "floe/registry/client.h"

namespace floe::pipeline {

namespace {

using namespace std::chrono_literals;

constexpr auto kPollTimeout = 100ms;
constexpr auto kStatusInterval = 1s;
constexpr auto kHousekeepingInterval = 20ms;
constexpr auto kLagInterval = 10s;  // a broker round trip per owned partition: not every loop
constexpr auto kBrokerTimeout = 10s;
constexpr auto kDeadLetterFlushTimeout = 30s;

Result<catalog::TableIdentifier> TableFor(const TopicConfig& topic, const TopicDefaults& defaults) {
  if (!topic.table.empty()) return catalog::ParseTableIdentifier(topic.table);
  return catalog::TableIdentifier{catalog::NamespaceFromString(defaults.namespace_name), SanitizeTableName(topic.name)};
}

// librdkafka treats a subscription starting with '^' as a regex.
std::string SubscriptionFor(const TopicConfig& topic) {
  if (topic.pattern.empty()) return topic.name;
  return topic.pattern.front() == '^' ? topic.pattern : "^" + topic.pattern;
}

Status CheckSupported(const TopicConfig& t) {
  const std::string what = t.name.empty() ? "pattern '" + t.pattern + "'" : "topic '" + t.name + "'";
  if (t.value != PayloadFormat::kAvro && t.value != PayloadFormat::kString && t.value != PayloadFormat::kBytes) {
    return Status::Unsupported(what + ": value format '" + std::string(PayloadFormatName(t.value)) +
                               "' is not supported by floe run yet (avro, string and bytes are)");
  }
  if (t.key != PayloadFormat::kAvro && t.key != PayloadFormat::kString && t.key != PayloadFormat::kBytes) {
    return Status::Unsupported(what + ": key format '" + std::string(PayloadFormatName(t.key)) +
                               "' is not supported by floe run yet (avro, string and bytes are)");
  }
  return Status::OK();
}

}  // namespace

class Materializer::Impl final : public kafka::RebalanceListener {
 public:
  Impl(const FloeConfig& config, catalog::TableCatalog& catalog, MetricsRegistry& metrics)
      : config_(config), catalog_(catalog), metrics_(metrics) {}

  Status Init();
  Result<RunSummary> Run(const RunOptions& options, const std::atomic<bool>& stop);
  nlohmann::json StatusReport() const {
    std::lock_guard lock(status_mu_);
    return status_;
  }
  bool Healthy() const { return healthy_.load(); }

  void OnAssigned(std::vector<kafka::TopicPartition>& partitions) override;
  void OnRevoked(const std::vector<kafka::TopicPartition>& partitions, bool lost) override;

 private:
  Result<TopicState*> TopicFor(const std::string& name);
  const TopicConfig* ConfigFor(const std::string& name) const;
  Status LoadTargets(TopicState& topic);

  void Handle(kafka::Record record);
  void BadRecord(TopicState& topic, PartitionState& partition, const kafka::Record& record, const Status& why);
  void RetryLater(TopicState& topic, PartitionState& partition, const kafka::Record& record, const Status& why);
  void Suspend(TopicState& topic, const std::string& position, const std::string& reason, bool commit_first = true);

  bool CommitDue(const TopicState& topic) const;
  void CommitTopic(TopicState& topic, const char* why);
  void CommitDueTopics();
  std::int64_t BufferedBytes() const;
  void ApplyBackPressure(std::int64_t buffered);
  void ResumeWaitingPartitions();
  void RecoverPartitions();
  bool CaughtUp();
  void PublishStatus();
  void UpdateLag();

  const FloeConfig& config_;
  catalog::TableCatalog& catalog_;
  MetricsRegistry& metrics_;
  std::unique_ptr<registry::Client> registry_;
  std::unique_ptr<kafka::Consumer> consumer_;
  std::unique_ptr<kafka::Producer> producer_;  // only when a topic dead-letters
  std::map<std::string, std::unique_ptr<TopicState>, std::less<>> topics_;
  bool batch_mode_ = false;
  bool fetch_paused_ = false;  // back-pressure: over buffer_memory while commits fail
  Gauge* buffered_bytes_ = nullptr;
  RunSummary summary_;
  Clock::time_point started_ = Clock::now();

  mutable std::mutex status_mu_;
  nlohmann::json status_;
  std::atomic<bool> healthy_{true};
};

// --- Setup ----------------------------------------------------------------------------------

Status Materializer::Impl::Init() {
  for (const auto& t : config_.topics) FLOE_RETURN_IF_ERROR(CheckSupported(t));
  if (config_.schema_registry) {
    registry::ClientOptions options;
    options.url = config_.schema_registry->url;
    options.basic_auth_user = config_.schema_registry->basic_auth_user;
    options.basic_auth_password = config_.schema_registry->basic_auth_password;
    options.bearer_token = config_.schema_registry->bearer_token;
    registry_ = std::make_unique<registry::Client>(options);
  }
  for (const auto& t : config_.topics) {
    if ((t.value == PayloadFormat::kAvro || t.key == PayloadFormat::kAvro) && !registry_) {
      return Status::InvalidArgument("topic '" + (t.name.empty() ? t.pattern : t.name) +
                                             "' has an avro key or value, which needs a schema_registry section");
    }
  }
  kafka::ConsumerOptions options{config_.kafka.bootstrap_servers, config_.kafka.group_id, config_.kafka.properties};
  FLOE_ASSIGN_OR_RETURN(consumer_, kafka::Consumer::Create(options));
  const bool any_dlq = std::any_of(config_.topics.begin(), config_.topics.end(),
                                   [](const TopicConfig& t) { return t.error_mode == ErrorMode::kDlq; });
  if (any_dlq) {
    FLOE_ASSIGN_OR_RETURN(producer_, kafka::Producer::Create({config_.kafka.bootstrap_servers, config_.kafka.properties}));
  }
  buffered_bytes_ = &metrics_.GetGauge("floe_buffered_bytes", "Decoded record bytes buffered, not yet committed");
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
  topic->schemas = std::make_unique<WriterSchemas>(topic->config, registry_.get());
  FLOE_ASSIGN_OR_RETURN(auto id, TableFor(topic->config, config_.defaults));
  if (topic->config.formats.size() == 2) {
    topic->table = std::make_unique<DualTableSink>(
        std::make_unique<IcebergTableWriter>(catalog_, id, topic->config.partition_by), topic->config.partition_by);
  } else if (topic->config.formats == std::vector<TableFormat>{TableFormat::kDelta}) {
    FLOE_ASSIGN_OR_RETURN(topic->table, DeltaTableWriter::Open(id, catalog::DefaultTableLocation(config_.warehouse, id),
                                                               topic->config.partition_by));
  } else {
    topic->table = std::make_unique<IcebergTableWriter>(catalog_, id, topic->config.partition_by);
  }
  const Labels topic_label{{"topic", name}};
  topic->metrics.consumed = &metrics_.GetCounter("floe_records_consumed_total", "Records read from Kafka", topic_label);
  topic->metrics.written = &metrics_.GetCounter("floe_records_written_total", "Records committed to the table", topic_label);
  topic->metrics.skipped = &metrics_.GetCounter("floe_records_skipped_total", "Bad records skipped (error_mode skip)", topic_label);
  topic->metrics.dead_lettered = &metrics_.GetCounter("floe_records_dead_lettered_total",
                                                      "Bad records sent to the dead-letter topic", topic_label);
  topic->metrics.suspended = &metrics_.GetGauge("floe_topic_suspended", "1 while the topic is suspended", topic_label);
  const Labels table_label{{"table", topic->table->name()}};
  topic->table_metrics.commits = &metrics_.GetCounter("floe_commits_total", "Table commits", table_label);
  topic->table_metrics.conflicts =
      &metrics_.GetCounter("floe_commit_conflicts_total", "Commits rebuilt after losing a race", table_label);
  topic->table_metrics.bytes = &metrics_.GetCounter("floe_bytes_written_total", "Parquet bytes committed", table_label);
  topic->table_metrics.files = &metrics_.GetCounter("floe_files_written_total", "Parquet files committed", table_label);
  topic->table_metrics.evolutions =
      &metrics_.GetCounter("floe_schema_evolutions_total", "Table schema changes", table_label);
  TopicState* out = topic.get();
  topics_[name] = std::move(topic);
  if (batch_mode_) FLOE_RETURN_IF_ERROR(LoadTargets(*out));
  return out;
}

Status Materializer::Impl::LoadTargets(TopicState& topic) {
  FLOE_ASSIGN_OR_RETURN(auto partitions, consumer_->Partitions(topic.config.name, kBrokerTimeout));
  std::map<std::int32_t, std::pair<std::int64_t, std::int64_t>> targets;
  for (auto p : partitions) {
    FLOE_ASSIGN_OR_RETURN(targets[p], consumer_->Watermarks(topic.config.name, p, kBrokerTimeout));
  }
  topic.targets = std::move(targets);
  return Status::OK();
}

// --- Rebalancing ----------------------------------------------------------------------------

void Materializer::Impl::OnAssigned(std::vector<kafka::TopicPartition>& partitions) {
  std::map<std::string, TopicOffsets> offsets_by_topic;
  for (auto& tp : partitions) {
    tp.offset = kafka::kOffsetBeginning;
    auto topic = TopicFor(tp.topic);
    if (!topic.ok()) {
      spdlog::error("assigned {}/{}: {}", tp.topic, tp.partition, topic.status().ToString());
      continue;
    }
    PartitionState& state = (*topic)->partitions[tp.partition];
    auto loaded = offsets_by_topic.find(tp.topic);
    if (loaded == offsets_by_topic.end()) {
      auto offsets = (*topic)->table->LoadOffsets();
      if (!offsets.ok()) {
        // Reading from anywhere could duplicate or lose records: hold the partition until
        // the table answers (RecoverPartitions).
        spdlog::warn("{}/{}: cannot read the committed offsets of {} yet: {}", tp.topic, tp.partition,
                     (*topic)->table->name(), offsets.status().ToString());
        state.recovering = true;
        state.buffer.reset();
        continue;
      }
      loaded = offsets_by_topic.emplace(tp.topic, std::move(*offsets)).first;
    }
    const auto committed = Find(loaded->second, tp.topic, tp.partition);
    auto buffer = PartitionBuffer::Make((*topic)->config, *(*topic)->schemas, tp.partition, committed);
    if (!buffer.ok()) {
      spdlog::error("{}/{}: {}", tp.topic, tp.partition, buffer.status().ToString());
      state.recovering = true;
      continue;
    }
    state = PartitionState{};
    state.buffer = std::move(*buffer);
    if (committed) tp.offset = *committed;
    spdlog::info("assigned {}/{}: starting at {}", tp.topic, tp.partition,
                 committed ? "offset " + std::to_string(*committed) + " (from the table)" : std::string("the beginning"));
  }
}

void Materializer::Impl::OnRevoked(const std::vector<kafka::TopicPartition>& partitions, bool lost) {
  std::set<TopicState*> affected;
  for (const auto& tp : partitions) {
    auto it = topics_.find(tp.topic);
    if (it != topics_.end()) affected.insert(it->second.get());
  }
  // An orderly revoke: commit what we have so the next owner starts where we stopped. A
  // lost assignment may already be someone else's: committing would be fenced anyway.
  if (!lost) {
    for (auto* topic : affected) CommitTopic(*topic, "partitions revoked");
  }
  for (const auto& tp : partitions) {
    auto it = topics_.find(tp.topic);
    if (it == topics_.end()) continue;
    it->second->partitions.erase(tp.partition);
    spdlog::info("{} {}/{}", lost ? "lost" : "revoked", tp.topic, tp.partition);
  }
}

void Materializer::Impl::RecoverPartitions() {
  for (auto& [name, topic] : topics_) {
    for (auto& [p, state] : topic->partitions) {
      if (!state.recovering || state.retry.Waiting()) continue;
      auto offsets = topic->table->LoadOffsets();
      if (!offsets.ok()) {
        state.retry.Fail();
        continue;
      }
      const auto committed = Find(*offsets, name, p);
      auto buffer = PartitionBuffer::Make(topic->config, *topic->schemas, p, committed);
      if (!buffer.ok()) {
        state.retry.Fail();
        continue;
      }
      auto st = consumer_->Seek({name, p, committed.value_or(kafka::kOffsetBeginning)}, kBrokerTimeout);
      if (!st.ok()) {
        state.retry.Fail();
        continue;
      }
      state.buffer = std::move(*buffer);
      state.recovering = false;
      state.retry.Succeed();
      spdlog::info("recovered {}/{}: starting at {}", name, p, committed ? std::to_string(*committed) : "the beginning");
    }
  }
}

// --- Records --------------------------------------------------------------------------------

void Materializer::Impl::Handle(kafka::Record record) {
  auto it = topics_.find(record.topic());
  if (it == topics_.end()) return;
  TopicState& topic = *it->second;
  auto p = topic.partitions.find(record.partition());
  if (p == topic.partitions.end()) return;  // not (or no longer) ours
  PartitionState& state = p->second;
  if (topic.suspended || state.recovering || !state.buffer || state.paused) return;
  PartitionBuffer& buffer = *state.buffer;
  // After a seek, records the consumer had already fetched may still arrive.
  if (buffer.next_offset() && record.offset() < *buffer.next_offset()) return;
  topic.metrics.consumed->Increment();

  const WriterSchema* schema = &topic.schemas->tombstone();
  std::string_view payload;
  if (auto value = record.value()) {
    auto resolved = topic.schemas->Resolve(*value);
    if (!resolved.ok()) {
      if (resolved.status().code() == StatusCode::kUnavailable) return RetryLater(topic, state, record, resolved.status());
      return BadRecord(topic, state, record, resolved.status());
    }
    schema = resolved->schema;
    payload = resolved->payload;
  }
  std::optional<std::string_view> key_payload = record.key();
  if (topic.config.key == PayloadFormat::kAvro && key_payload) {
    auto key = topic.schemas->ResolveKey(*key_payload);
    if (!key.ok()) {
      if (key.status().code() == StatusCode::kUnavailable) return RetryLater(topic, state, record, key.status());
      return BadRecord(topic, state, record, key.status());
    }
    auto combined = topic.schemas->WithKey(schema, key->schema);
    if (!combined.ok()) return BadRecord(topic, state, record, combined.status());
    schema = *combined;
    key_payload = key->payload;
  }
  if (topic.in_table.count(schema) == 0) {
    auto change = topic.table->EnsureColumns(schema->table_columns);
    if (!change.ok()) {
      if (change.status().code() == StatusCode::kUnavailable) return RetryLater(topic, state, record, change.status());
      // Not the record's fault (catalog or partition_by problem): stop the topic, whatever error_mode says.
      return Suspend(topic, record.Position(), change.status().ToString());
    }
    if (!change->record_error.ok()) return BadRecord(topic, state, record, change->record_error);
    if (!change->changes.empty()) topic.table_metrics.evolutions->Increment();
    topic.in_table.insert(schema);
  }
  auto appended = buffer.Append(record, *schema, payload, key_payload);
  if (!appended.ok()) return BadRecord(topic, state, record, appended);
  state.retry.Succeed();
  state.waiting_reason.clear();
}

void Materializer::Impl::BadRecord(TopicState& topic, PartitionState& state, const kafka::Record& record,
                                   const Status& why) {
  const std::string position = record.Position();
  switch (topic.config.error_mode) {
    case ErrorMode::kSkip:
      spdlog::warn("skipped {}: {}", position, why.ToString());
      state.buffer->Pass(record);
      topic.metrics.skipped->Increment();
      ++summary_.records_skipped;
      return;
    case ErrorMode::kDlq: {
      auto produced = producer_->Produce(topic.config.dlq_topic, record.key(), record.value(), DeadLetterHeaders(record, why));
      if (!produced.ok()) return RetryLater(topic, state, record, produced.WithContext("dead-letter topic"));
      spdlog::warn("dead-lettered {} to {}: {}", position, topic.config.dlq_topic, why.ToString());
      state.buffer->Pass(record);
      topic.dead_letters_unflushed = true;
      topic.metrics.dead_lettered->Increment();
      ++summary_.records_dead_lettered;
      return;
    }
    case ErrorMode::kSuspend:
      return Suspend(topic, position, why.ToString());
  }
}

void Materializer::Impl::RetryLater(TopicState& topic, PartitionState& state, const kafka::Record& record,
                                    const Status& why) {
  // Never skip a record because something it needs is unreachable: stop this partition,
  // go back to the record, and try again after a backoff. Other partitions go on.
  state.retry.Fail();
  state.waiting_reason = record.Position() + ": " + why.ToString();
  spdlog::warn("{} (retrying in {} ms)", state.waiting_reason,
               std::chrono::duration_cast<std::chrono::milliseconds>(*state.retry.until - Clock::now()).count());
  const kafka::TopicPartition tp{topic.config.name, record.partition(), record.offset()};
  if (consumer_->Pause({tp}).ok()) state.paused = true;
  if (auto st = consumer_->Seek(tp, kBrokerTimeout); !st.ok()) {
    spdlog::warn("{}: seek back failed: {}", record.Position(), st.ToString());
  }
}

void Materializer::Impl::ResumeWaitingPartitions() {
  for (auto& [name, topic] : topics_) {
    if (topic->suspended) continue;
    for (auto& [p, state] : topic->partitions) {
      if (!state.paused || state.retry.Waiting()) continue;
      if (consumer_->Resume({{name, p, 0}}).ok()) state.paused = false;
    }
  }
}

void Materializer::Impl::Suspend(TopicState& topic, const std::string& position, const std::string& reason,
                                 bool commit_first) {
  if (topic.suspended) return;  // the first reason is the one that counts
  spdlog::error("suspended topic {} at {}: {}. Its offsets stay where they are; fix the cause (or change error_mode) "
                "and restart floe.",
                topic.config.name, position, reason);
  topic.suspended = true;
  topic.suspended_position = position;
  topic.suspended_reason = reason;
  topic.metrics.suspended->Set(1);
  summary_.suspended.push_back(topic.config.name + ": " + position + ": " + reason);
  // What came before the bad record is good: commit it, then stop reading.
  if (commit_first) CommitTopic(topic, "topic suspended");
  std::vector<kafka::TopicPartition> paused;
  for (auto& [p, state] : topic.partitions) {
    paused.push_back({topic.config.name, p, 0});
    state.paused = true;
  }
  if (!paused.empty()) (void)consumer_->Pause(paused);
}

// --- Commits --------------------------------------------------------------------------------

bool Materializer::Impl::CommitDue(const TopicState& topic) const {
  const auto now = Clock::now();
  bool uncommitted = false;
  bool all_at_target = topic.targets.has_value();
  for (const auto& [p, state] : topic.partitions) {
    if (!state.buffer) continue;
    if (state.buffer->has_uncommitted()) {
      uncommitted = true;
      if (state.buffer->buffered_bytes() >= topic.config.target_file_size) return true;
      if (now - state.buffer->oldest() >= topic.config.commit_interval) return true;
    }
    if (all_at_target) {
      auto target = topic.targets->find(p);
      const bool empty = target == topic.targets->end() || target->second.second <= target->second.first;
      all_at_target = empty || state.buffer->next_offset().value_or(0) >= target->second.second;
    }
  }
  // Batch mode: once every owned partition reached its end, commit them together (one
  // snapshot, not one small one per partition as each arrives).
  return uncommitted && all_at_target;
}

void Materializer::Impl::CommitTopic(TopicState& topic, const char* why) {
  if (topic.suspended && topic.commit_blocked) return;  // retrying cannot help: see Suspend
  std::vector<PartitionFlush> flushes;
  std::vector<PartitionState*> states;
  for (auto& [p, state] : topic.partitions) {
    if (!state.buffer || !state.buffer->has_uncommitted()) continue;
    auto batches = state.buffer->PendingBatches();
    if (!batches.ok()) {
      spdlog::error("{}/{}: {}", topic.config.name, p, batches.status().ToString());
      continue;
    }
    flushes.push_back({topic.config.name, p, state.buffer->committed(), *state.buffer->next_offset(), std::move(*batches)});
    states.push_back(&state);
  }
  if (flushes.empty()) return;
  if (topic.dead_letters_unflushed) {
    // The commit moves offsets past dead-lettered records: they must be in the DLQ first.
    if (auto st = producer_->Flush(kDeadLetterFlushTimeout); !st.ok()) {
      topic.commit_error = st.ToString();
      topic.commit_retry.Fail();
      spdlog::warn("{}: not committing yet, dead letters are not delivered: {}", topic.config.name, st.ToString());
      return;
    }
    topic.dead_letters_unflushed = false;
  }
  auto report = topic.table->Commit(flushes);
  if (!report.ok()) {
    const auto code = report.status().code();
    if (code != StatusCode::kUnavailable && code != StatusCode::kIoError && code != StatusCode::kConflict) {
      // Retrying cannot help (the data does not fit the table, a bug): stop the topic with
      // its offsets where they are rather than loop.
      std::string positions;
      for (const auto& f : flushes) {
        positions += (positions.empty() ? "" : ", ") + f.topic + "/" + std::to_string(f.partition) + "@" +
                     std::to_string(f.expected.value_or(0)) + ".." + std::to_string(f.next_offset - 1);
      }
      Suspend(topic, positions, "cannot commit: " + report.status().ToString(), /*commit_first=*/false);
      topic.commit_blocked = true;
      return;
    }
    topic.commit_error = report.status().ToString();
    topic.commit_retry.Fail();
    healthy_ = false;
    spdlog::warn("{}: commit failed, will retry: {}", topic.table->name(), topic.commit_error);
    return;
  }
  healthy_ = true;
  topic.commit_error.clear();
  topic.commit_retry.Succeed();
  std::vector<kafka::TopicPartition> group_offsets;
  for (std::size_t i = 0; i < flushes.size(); ++i) {
    const auto& f = flushes[i];
    auto fenced = std::find_if(report->fenced.begin(), report->fenced.end(),
                               [&](const FencedPartition& x) { return x.partition == f.partition; });
    if (fenced != report->fenced.end()) {
      // Another owner moved this partition on: our data is stale. Start over from the table.
      spdlog::warn("{}/{}: fenced (the table is at {}, this batch began at {}); dropping {} buffered records",
                   f.topic, f.partition, fenced->table_offset ? std::to_string(*fenced->table_offset) : "none",
                   f.expected ? std::to_string(*f.expected) : "none", states[i]->buffer->buffered_rows());
      states[i]->buffer->Reset(fenced->table_offset);
      (void)consumer_->Seek({f.topic, f.partition, fenced->table_offset.value_or(kafka::kOffsetBeginning)},
                            kBrokerTimeout);
      continue;
    }
    topic.metrics.written->Increment(states[i]->buffer->buffered_rows());
    summary_.records_written += states[i]->buffer->buffered_rows();
    states[i]->buffer->MarkCommitted();
    topic.table_offsets[f.topic][f.partition] = f.next_offset;
    group_offsets.push_back({f.topic, f.partition, f.next_offset});
  }
  if (report->committed) {
    ++summary_.commits;
    topic.table_metrics.commits->Increment();
    topic.table_metrics.files->Increment(report->files);
    topic.table_metrics.bytes->Increment(report->bytes);
    if (report->attempts > 1) topic.table_metrics.conflicts->Increment(report->attempts - 1);
    spdlog::info("committed {} rows in {} files to {} (snapshot {}, {}{})", report->rows, report->files,
                 topic.table->name(), report->snapshot_id, why,
                 report->attempts > 1 ? ", after " + std::to_string(report->attempts - 1) + " conflicts" : "");
  }
  // For lag monitoring only (the table is the source of truth).
  if (!group_offsets.empty()) (void)consumer_->CommitOffsets(group_offsets);
}

std::int64_t Materializer::Impl::BufferedBytes() const {
  std::int64_t total = 0;
  for (const auto& [name, topic] : topics_) {
    for (const auto& [p, state] : topic->partitions) total += state.buffer ? state.buffer->buffered_bytes() : 0;
  }
  return total;
}

void Materializer::Impl::ApplyBackPressure(std::int64_t buffered) {
  // Still over the budget after trying to commit (commits are failing): stop fetching until
  // they succeed again. Records already fetched are still handled, so nothing is skipped.
  if (buffered > config_.buffer_memory && !fetch_paused_) {
    auto assigned = consumer_->Assignment();
    if (consumer_->Pause(assigned).ok()) {
      fetch_paused_ = true;
      spdlog::warn("buffer_memory ({} bytes) exceeded while commits fail: pausing all partitions", config_.buffer_memory);
    }
  } else if (buffered <= config_.buffer_memory / 2 && fetch_paused_) {
    std::vector<kafka::TopicPartition> resume;
    for (const auto& tp : consumer_->Assignment()) {
      auto topic = topics_.find(tp.topic);
      if (topic == topics_.end() || topic->second->suspended) continue;
      auto p = topic->second->partitions.find(tp.partition);
      if (p != topic->second->partitions.end() && p->second.paused) continue;  // waiting for a retry
      resume.push_back(tp);
    }
    if (consumer_->Resume(resume).ok()) {
      fetch_paused_ = false;
      spdlog::info("buffered data is back under buffer_memory: resuming");
    }
  }
}

void Materializer::Impl::CommitDueTopics() {
  std::int64_t total = 0;
  TopicState* largest = nullptr;
  std::int64_t largest_bytes = 0;
  for (auto& [name, topic] : topics_) {
    std::int64_t bytes = 0;
    for (const auto& [p, state] : topic->partitions) bytes += state.buffer ? state.buffer->buffered_bytes() : 0;
    total += bytes;
    if (bytes > largest_bytes) largest = topic.get(), largest_bytes = bytes;
    if (!topic->commit_retry.Waiting() && CommitDue(*topic)) CommitTopic(*topic, "due");
  }
  // Over the memory budget: write out the biggest buffer early rather than grow.
  if (total > config_.buffer_memory && largest != nullptr && !largest->commit_retry.Waiting()) {
    CommitTopic(*largest, "buffer_memory reached");
    total = BufferedBytes();
  }
  buffered_bytes_->Set(static_cast<double>(total));
  ApplyBackPressure(total);
}

// --- Batch mode and status ------------------------------------------------------------------

void Materializer::Impl::UpdateLag() {
  for (auto& [name, topic] : topics_) {
    for (auto& [p, state] : topic->partitions) {
      if (!state.buffer) continue;
      auto marks = consumer_->Watermarks(name, p, 2s);
      if (!marks.ok()) continue;
      state.high_watermark = marks->second;
      const std::int64_t committed = state.buffer->committed().value_or(marks->first);
      auto& gauge = metrics_.GetGauge("floe_partition_lag",
                                      "Records in Kafka not yet committed to the table (high watermark minus committed offset)",
                                      {{"topic", name}, {"partition", std::to_string(p)}});
      gauge.Set(static_cast<double>(std::max<std::int64_t>(0, marks->second - committed)));
    }
  }
}

bool Materializer::Impl::CaughtUp() {
  for (auto& [name, topic] : topics_) {
    if (topic->suspended) continue;
    if (!topic->targets) return false;
    bool need_table = false;
    for (const auto& [p, range] : *topic->targets) {
      const auto [low, high] = range;
      if (high <= low) continue;  // nothing to read
      auto mine = topic->partitions.find(p);
      if (mine != topic->partitions.end() && mine->second.buffer) {
        if (mine->second.buffer->committed().value_or(-1) < high) return false;
        continue;
      }
      if (Find(topic->table_offsets, name, p).value_or(-1) < high) need_table = true;
    }
    if (!need_table) continue;
    // Partitions other members own: the table tells whether they are done.
    if (Clock::now() - topic->table_offsets_at < 1s) return false;
    topic->table_offsets_at = Clock::now();
    auto offsets = topic->table->LoadOffsets();
    if (!offsets.ok()) return false;
    topic->table_offsets = *offsets;
    for (const auto& [p, range] : *topic->targets) {
      if (range.second > range.first && Find(topic->table_offsets, name, p).value_or(-1) < range.second) return false;
    }
  }
  return true;
}

void Materializer::Impl::PublishStatus() {
  nlohmann::json topics = nlohmann::json::array();
  for (const auto& [name, topic] : topics_) {
    nlohmann::json partitions = nlohmann::json::array();
    bool waiting = false;
    for (const auto& [p, state] : topic->partitions) {
      nlohmann::json j = {{"partition", p}};
      const auto committed = state.buffer ? state.buffer->committed() : std::nullopt;
      j["committed_offset"] = committed ? nlohmann::json(*committed) : nlohmann::json(nullptr);
      j["next_offset"] = state.buffer && state.buffer->next_offset() ? nlohmann::json(*state.buffer->next_offset())
                                                                       : nlohmann::json(nullptr);
      j["buffered_records"] = state.buffer ? state.buffer->buffered_rows() : 0;
      j["buffered_bytes"] = state.buffer ? state.buffer->buffered_bytes() : 0;
      if (state.high_watermark) j["high_watermark"] = *state.high_watermark;
      if (!state.waiting_reason.empty()) {
        j["waiting"] = state.waiting_reason;
        waiting = true;
      }
      if (state.recovering) j["recovering"] = true;
      partitions.push_back(std::move(j));
    }
    nlohmann::json t = {{"topic", name},
                        {"table", topic->table->name()},
                        {"state", topic->suspended ? "suspended" : waiting ? "waiting" : "running"},
                        {"error_mode", topic->config.error_mode == ErrorMode::kSkip   ? "skip"
                                       : topic->config.error_mode == ErrorMode::kDlq ? "dlq"
                                                                                     : "suspend"},
                        {"partitions", std::move(partitions)}};
    t["error"] = topic->suspended ? nlohmann::json{{"position", topic->suspended_position},
                                                   {"reason", topic->suspended_reason}}
                                  : nlohmann::json(nullptr);
    if (!topic->commit_error.empty()) t["commit_error"] = topic->commit_error;
    topics.push_back(std::move(t));
  }
  nlohmann::json status = {
      {"version", kVersion},
      {"uptime_seconds", std::chrono::duration_cast<std::chrono::seconds>(Clock::now() - started_).count()},
      {"group_id", config_.kafka.group_id},
      {"topics", std::move(topics)}};
  std::lock_guard lock(status_mu_);
  status_ = std::move(status);
}

// --- The loop -------------------------------------------------------------------------------

Result<RunSummary> Materializer::Impl::Run(const RunOptions& options, const std::atomic<bool>& stop) {
  batch_mode_ = options.exit_when_caught_up;
  if (batch_mode_) {
    for (auto& [name, topic] : topics_) FLOE_RETURN_IF_ERROR(LoadTargets(*topic));
  }
  std::vector<std::string> subscriptions;
  for (const auto& t : config_.topics) subscriptions.push_back(SubscriptionFor(t));
  FLOE_RETURN_IF_ERROR(consumer_->Subscribe(subscriptions, this));
  PublishStatus();
  auto last_status = Clock::now();
  auto last_lag = Clock::now();
  auto last_housekeeping = Clock::now();
  while (!stop.load()) {
    auto record = consumer_->Poll(kPollTimeout);
    bool idle = true;
    if (!record.ok()) {
      spdlog::warn("kafka: {}", record.status().ToString());
    } else if (*record) {
      Handle(std::move(**record));
      idle = false;
    }
    // Everything below walks all partitions: at most every kHousekeepingInterval while
    // records flow, not once per record (that made 1,000 partitions 30× slower).
    const auto now = Clock::now();
    if (!idle && now - last_housekeeping < kHousekeepingInterval) continue;
    last_housekeeping = now;
    RecoverPartitions();
    ResumeWaitingPartitions();
    CommitDueTopics();
    if (now - last_status >= kStatusInterval) {
      PublishStatus();
      last_status = now;
    }
    if (now - last_lag >= kLagInterval) {
      UpdateLag();
      last_lag = now;
    }
    if (batch_mode_ && CaughtUp()) break;
  }
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
                                                         MetricsRegistry& metrics) {
  auto impl = std::make_unique<Impl>(config, catalog, metrics);
  FLOE_RETURN_IF_ERROR(impl->Init());
  return std::unique_ptr<Materializer>(new Materializer(std::move(impl)));
}

Result<RunSummary> Materializer::Run(const RunOptions& options, const std::atomic<bool>& stop) {
  return impl_->Run(options, stop);
}

nlohmann::json Materializer::StatusReport() const { return impl_->StatusReport(); }
bool Materializer::Healthy() const { return impl_->Healthy(); }

}  // namespace floe::pipeline
