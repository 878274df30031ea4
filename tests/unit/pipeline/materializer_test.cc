// The materializer's exactly-once and failure handling, driven through its seams
// (MaterializerSeams) by a fake consumer and a fake sink: no broker, no files. What each test
// proves is stated above it; the integration tier (tests/integration/) keeps the real broker,
// catalog and readers.
//
// Timing: retries back off from 0.5 s (core/backoff.h), so a few tests take seconds. No
// assertion depends on timing: tests that need to look while the materializer runs poll a
// condition with a generous deadline.
#include "floe/pipeline/materializer.h"

#include <arrow/buffer.h>
#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstring>
#include <filesystem>
#include <functional>
#include <future>
#include <random>
#include <set>
#include <thread>

#include "floe/catalog/iceberg_catalog.h"
#include "floe/core/metrics.h"
#include "fake_consumer.h"
#include "fake_sink.h"

namespace floe::pipeline {
namespace {

using namespace std::chrono_literals;
using fakes::CommitCall;
using fakes::DefaultValue;
using fakes::FakeConsumer;
using fakes::FakeSink;
using fakes::FakeTable;
using fakes::FlushSeen;

constexpr auto kDeadline = 30s;

bool WaitUntil(const std::function<bool()>& condition, std::chrono::milliseconds timeout = kDeadline) {
  const auto until = std::chrono::steady_clock::now() + timeout;
  while (std::chrono::steady_clock::now() < until) {
    if (condition()) return true;
    std::this_thread::sleep_for(10ms);
  }
  return condition();
}

std::string Str(const std::vector<kafka::TopicPartition>& tps) {
  std::string out;
  for (const auto& tp : tps) out += (out.empty() ? "" : ", ") + fakes::PositionName(tp.topic, tp.partition, tp.offset);
  return out;
}

bool Contains(const std::vector<kafka::TopicPartition>& tps, const std::string& topic, std::int32_t partition,
              std::optional<std::int64_t> offset = std::nullopt) {
  return std::any_of(tps.begin(), tps.end(), [&](const kafka::TopicPartition& tp) {
    return tp.topic == topic && tp.partition == partition && (!offset || tp.offset == *offset);
  });
}

// The partition's entry of a /status body, or null.
nlohmann::json PartitionStatus(const nlohmann::json& status, const std::string& topic, std::int32_t partition) {
  for (const auto& t : status.value("topics", nlohmann::json::array())) {
    if (t.value("topic", "") != topic) continue;
    for (const auto& p : t.value("partitions", nlohmann::json::array())) {
      if (p.value("partition", -1) == partition) return p;
    }
  }
  return nullptr;
}

nlohmann::json TopicStatus(const nlohmann::json& status, const std::string& topic) {
  for (const auto& t : status.value("topics", nlohmann::json::array())) {
    if (t.value("topic", "") == topic) return t;
  }
  return nullptr;
}

// Runs the materializer on its own thread; stops it (and waits) when it goes out of scope,
// also when an assertion returned early.
class BackgroundRun {
 public:
  BackgroundRun(Materializer& m, RunOptions options) {
    done_ = std::async(std::launch::async, [&m, options, this] { return m.Run(options, stop_); });
  }
  ~BackgroundRun() {
    stop_ = true;
    if (done_.valid()) done_.wait();
  }
  // Batch mode: waits for the run to end by itself. Otherwise: stops it first.
  Result<RunSummary> Finish(bool stop) {
    if (stop) stop_ = true;
    if (done_.wait_for(90s) != std::future_status::ready) {
      stop_ = true;
      done_.wait();
      return Status::Internal("the run did not end in time");
    }
    return done_.get();
  }
  bool Finished() const { return done_.wait_for(0s) == std::future_status::ready; }

 private:
  std::atomic<bool> stop_{false};
  std::future<Result<RunSummary>> done_;
};

class MaterializerTest : public ::testing::Test {
 protected:
  void SetUp() override {
    std::random_device rd;
    dir_ = std::filesystem::temp_directory_path() /
           ("floe-materializer-" + std::to_string(::getpid()) + "-" + std::to_string(rd()));
    std::filesystem::create_directories(dir_ / "wh");
    auto opened = catalog::IcebergCatalog::Open("sqlite:///" + (dir_ / "c.db").string(), (dir_ / "wh").string());
    ASSERT_TRUE(opened.ok()) << opened.status().ToString();
    catalog_ = std::move(*opened);
    config_.kafka.group_id = "floe-test";
    config_.warehouse = (dir_ / "wh").string();
    consumer_owned_ = std::make_unique<FakeConsumer>();
    consumer_ = consumer_owned_.get();
  }

  void TearDown() override {
    materializer_.reset();
    std::error_code ec;
    std::filesystem::remove_all(dir_, ec);
  }

  // A `value: string` topic whose commits happen only when the test means them to: at the end
  // of a batch run, on revoke, at shutdown (commit_interval and target_file_size out of reach).
  FakeTable& AddTopic(const std::string& name, std::int32_t partitions) {
    TopicConfig t;
    t.name = name;
    t.table = "kafka." + name;
    t.value = PayloadFormat::kString;
    t.key = PayloadFormat::kBytes;
    t.commit_interval = std::chrono::hours(1);
    t.target_file_size = 1LL << 30;
    t.error_mode = ErrorMode::kSuspend;
    t.formats = {TableFormat::kIceberg};
    config_.topics.push_back(t);
    consumer_->AddTopic(name, partitions);
    auto& table = tables_[name];
    table = std::make_shared<FakeTable>(t.table);
    return *table;
  }

  FakeTable& Table(const std::string& topic) { return *tables_.at(topic); }

  // Another writer's commit of [from, to): rows with the values the consumer's records have.
  void CommitAsOtherWriter(const std::string& topic, std::int32_t p, std::int64_t from, std::int64_t to) {
    Table(topic).CommitAsOtherWriter(topic, p, from, to, [&](std::int64_t o) { return DefaultValue(topic, p, o); });
  }

  Materializer& Make() {
    MaterializerSeams seams;
    seams.consumer = std::move(consumer_owned_);
    seams.open_sink = [this](const TopicConfig& topic) -> Result<std::unique_ptr<sink::TableSink>> {
      auto it = tables_.find(topic.name);
      if (it == tables_.end()) return Status::NotFound("no fake table for " + topic.name);
      return std::unique_ptr<sink::TableSink>(std::make_unique<FakeSink>(it->second));
    };
    auto made = Materializer::Make(config_, *catalog_, metrics_, std::move(seams));
    EXPECT_TRUE(made.ok()) << made.status().ToString();
    materializer_ = std::move(*made);
    return *materializer_;
  }

  Result<RunSummary> RunBatch() {
    std::atomic<bool> stop{false};
    return materializer_->Run(RunOptions{.exit_when_caught_up = true}, stop);
  }

  // Every offset of [0, high) of the partition is in the table exactly once, with the value
  // of the record at that offset; rows below `floe_from` came from the other writer, the rest
  // through the materializer.
  void ExpectExactlyOnce(const std::string& topic, std::int32_t p, std::int64_t high, std::int64_t floe_from = 0) {
    SCOPED_TRACE(topic + "/" + std::to_string(p));
    std::map<std::int64_t, int> counts;
    for (const auto& row : Table(topic).rows()) {
      if (row.topic != topic || row.partition != p) continue;
      ++counts[row.offset];
      EXPECT_EQ(row.value, DefaultValue(topic, p, row.offset));
      EXPECT_EQ(row.writer, row.offset < floe_from ? "other" : "floe") << "offset " << row.offset;
    }
    for (std::int64_t o = 0; o < high; ++o) EXPECT_EQ(counts[o], 1) << "offset " << o;
    EXPECT_EQ(counts.size(), static_cast<std::size_t>(high)) << "rows beyond the log's end";
    EXPECT_EQ(sink::Find(Table(topic).offsets(), topic, p), high);
  }

  std::filesystem::path dir_;
  std::unique_ptr<catalog::IcebergCatalog> catalog_;
  FloeConfig config_;
  MetricsRegistry metrics_;
  std::map<std::string, std::shared_ptr<FakeTable>> tables_;
  std::unique_ptr<FakeConsumer> consumer_owned_;
  FakeConsumer* consumer_ = nullptr;  // owned by the materializer once made
  std::unique_ptr<Materializer> materializer_;  // last: destroyed first
};

// (1) Each partition starts where the table says (through tp.offset in OnAssigned, not a
// seek); partitions the table has never seen start at the beginning; every record ends in the
// table once, the table's offsets are the log ends, and batch mode commits both partitions in
// one snapshot and then exits.
TEST_F(MaterializerTest, AssignmentStartsAtTheTableOffsetsAndCommitsEachRecordOnce) {
  AddTopic("orders", 2);
  consumer_->ProduceN("orders", 0, 10);
  consumer_->ProduceN("orders", 1, 5);
  CommitAsOtherWriter("orders", 0, 0, 3);  // an earlier run committed 0..2
  Make();

  auto summary = RunBatch();
  ASSERT_TRUE(summary.ok()) << summary.status().ToString();

  const auto starts = consumer_->start_offsets();
  EXPECT_TRUE(Contains(starts, "orders", 0, 3)) << Str(starts);
  EXPECT_TRUE(Contains(starts, "orders", 1, kafka::kOffsetBeginning)) << Str(starts);
  EXPECT_EQ(starts.size(), 2u) << Str(starts);
  EXPECT_TRUE(consumer_->seeks().empty()) << Str(consumer_->seeks());
  EXPECT_TRUE(consumer_->misuse().empty());

  ExpectExactlyOnce("orders", 0, 10, /*floe_from=*/3);
  ExpectExactlyOnce("orders", 1, 5);
  const auto calls = Table("orders").commit_calls();
  ASSERT_EQ(calls.size(), 1u);
  EXPECT_EQ(calls[0].flushes, (std::vector<FlushSeen>{{"orders", 0, 3, 10, 7}, {"orders", 1, std::nullopt, 5, 5}}));
  EXPECT_EQ(summary->records_written, 12);
  EXPECT_EQ(summary->commits, 1);
  EXPECT_TRUE(summary->suspended.empty());
  // Group offsets follow the table (lag monitoring only).
  const auto group = consumer_->group_commits();
  EXPECT_TRUE(Contains(group, "orders", 0, 10)) << Str(group);
  EXPECT_TRUE(Contains(group, "orders", 1, 5)) << Str(group);
  EXPECT_TRUE(consumer_->closed());
}

// (2) The table's offsets cannot be read when partitions are assigned: they are "recovering"
// in /status, what the consumer delivers meanwhile is dropped (nothing buffered, nothing
// committed), and once the table answers they are seeked to its offsets and every record is
// committed once.
TEST_F(MaterializerTest, PartitionsRecoverWhenTheTableOffsetsCannotBeReadOnAssignment) {
  AddTopic("orders", 2);
  consumer_->ProduceN("orders", 0, 6);
  consumer_->ProduceN("orders", 1, 6);
  CommitAsOtherWriter("orders", 0, 0, 3);
  Table("orders").FailLoadOffsets(Status::Unavailable("catalog unreachable"));
  Materializer& m = Make();

  BackgroundRun run(m, RunOptions{.exit_when_caught_up = true});
  nlohmann::json status;
  ASSERT_TRUE(WaitUntil([&] {
    status = m.StatusReport();
    for (int p : {0, 1}) {
      const auto s = PartitionStatus(status, "orders", p);
      if (s.is_null() || s.value("phase", "") != "recovering") return false;
    }
    return consumer_->AllDelivered();
  })) << status.dump();
  for (int p : {0, 1}) {
    const auto s = PartitionStatus(status, "orders", p);
    EXPECT_EQ(s.value("recovering", false), true) << s.dump();
    EXPECT_EQ(s.value("buffered_records", -1), 0) << s.dump();
  }
  // Not knowing where to start, the partitions were assigned at the beginning and read: all
  // 12 records were delivered and dropped.
  EXPECT_TRUE(Contains(consumer_->start_offsets(), "orders", 0, kafka::kOffsetBeginning));
  EXPECT_TRUE(Contains(consumer_->start_offsets(), "orders", 1, kafka::kOffsetBeginning));
  EXPECT_GE(consumer_->delivered(), 12);
  EXPECT_TRUE(Table("orders").commit_calls().empty());
  EXPECT_FALSE(run.Finished());

  Table("orders").ClearFailures();
  auto summary = run.Finish(/*stop=*/false);
  ASSERT_TRUE(summary.ok()) << summary.status().ToString();

  const auto seeks = consumer_->seeks();
  EXPECT_TRUE(Contains(seeks, "orders", 0, 3)) << Str(seeks);
  EXPECT_TRUE(Contains(seeks, "orders", 1, kafka::kOffsetBeginning)) << Str(seeks);
  ExpectExactlyOnce("orders", 0, 6, /*floe_from=*/3);
  ExpectExactlyOnce("orders", 1, 6);
  EXPECT_EQ(summary->records_written, 9);
  EXPECT_TRUE(consumer_->misuse().empty()) << consumer_->misuse().front();
}

// (3) A commit failing with kUnavailable is retried after a backoff with the same data (same
// expected and next offsets, same rows): nothing lost, nothing twice, one snapshot.
TEST_F(MaterializerTest, CommitFailingWithUnavailableIsRetriedWithTheSameData) {
  AddTopic("orders", 2);
  consumer_->ProduceN("orders", 0, 5);
  consumer_->ProduceN("orders", 1, 4);
  Table("orders").FailCommits(Status::Unavailable("object store unreachable"), 2);
  Materializer& m = Make();

  auto summary = RunBatch();
  ASSERT_TRUE(summary.ok()) << summary.status().ToString();

  const auto calls = Table("orders").commit_calls();
  ASSERT_EQ(calls.size(), 3u);
  const std::vector<FlushSeen> expected{{"orders", 0, std::nullopt, 5, 5}, {"orders", 1, std::nullopt, 4, 4}};
  for (const auto& call : calls) EXPECT_EQ(call.flushes, expected);
  EXPECT_EQ(calls[0].status.code(), StatusCode::kUnavailable);
  EXPECT_EQ(calls[1].status.code(), StatusCode::kUnavailable);
  EXPECT_TRUE(calls[2].status.ok());
  ExpectExactlyOnce("orders", 0, 5);
  ExpectExactlyOnce("orders", 1, 4);
  EXPECT_EQ(summary->records_written, 9);
  EXPECT_EQ(summary->commits, 1);
  EXPECT_TRUE(summary->suspended.empty());
  // Group offsets only after the commit that landed.
  const auto group = consumer_->group_commits();
  EXPECT_EQ(group.size(), 2u) << Str(group);
  EXPECT_TRUE(m.Healthy());
  EXPECT_FALSE(TopicStatus(m.StatusReport(), "orders").contains("commit_error"));
}

// (3b) Batch mode does not retry a failing commit forever: once the table's commits have
// failed for batch_commit_give_up in a row, the run ends with an error naming the table and
// the last failure; nothing was committed, so nothing is lost.
TEST_F(MaterializerTest, BatchRunGivesUpOnCommitsFailingForTooLong) {
  AddTopic("orders", 1);
  consumer_->ProduceN("orders", 0, 5);
  Table("orders").FailCommits(Status::IoError("AccessDenied: s3:PutObject"), 1000);
  Materializer& m = Make();
  std::atomic<bool> stop{false};
  auto summary = m.Run(RunOptions{.exit_when_caught_up = true, .batch_commit_give_up = std::chrono::milliseconds(1200)},
                       stop);
  ASSERT_FALSE(summary.ok());
  EXPECT_EQ(summary.status().code(), StatusCode::kUnavailable);
  EXPECT_NE(summary.status().message().find("giving up (--exit-when-caught-up)"), std::string::npos);
  EXPECT_NE(summary.status().message().find("AccessDenied: s3:PutObject"), std::string::npos);
  EXPECT_GE(Table("orders").commit_calls().size(), 2u);  // retried before giving up
  EXPECT_TRUE(consumer_->group_commits().empty());
}

// (4) A commit failing with a permanent error suspends the topic: RunSummary.suspended names
// it with the positions it could not commit, its table and offsets are untouched, its
// partitions are paused, the commit is not retried (not even at shutdown or on the final
// revoke), and another topic goes on.
TEST_F(MaterializerTest, CommitFailingPermanentlySuspendsOnlyThatTopic) {
  AddTopic("orders", 2);
  AddTopic("payments", 1);
  consumer_->ProduceN("orders", 0, 6);
  consumer_->ProduceN("orders", 1, 3);
  consumer_->ProduceN("payments", 0, 4);
  CommitAsOtherWriter("orders", 0, 0, 2);
  Table("orders").FailCommits(Status::InvalidArgument("column 'value' cannot hold this type"));
  Materializer& m = Make();

  auto summary = RunBatch();
  ASSERT_TRUE(summary.ok()) << summary.status().ToString();

  ASSERT_EQ(summary->suspended.size(), 1u);
  const std::string& why = summary->suspended[0];
  EXPECT_EQ(why.rfind("orders: ", 0), 0u) << why;
  EXPECT_NE(why.find("orders/0@2..5"), std::string::npos) << why;
  EXPECT_NE(why.find("orders/1@0..2"), std::string::npos) << why;
  EXPECT_NE(why.find("cannot commit"), std::string::npos) << why;
  EXPECT_NE(why.find("cannot hold this type"), std::string::npos) << why;

  EXPECT_EQ(Table("orders").commit_calls().size(), 1u);
  EXPECT_EQ(Table("orders").offsets(), (sink::TopicOffsets{{"orders", {{0, 2}}}}));
  EXPECT_EQ(Table("orders").rows().size(), 2u);  // the other writer's only
  const auto paused = consumer_->paused();
  EXPECT_TRUE(Contains(paused, "orders", 0) && Contains(paused, "orders", 1)) << Str(paused);
  EXPECT_FALSE(Contains(paused, "payments", 0)) << Str(paused);
  const auto group = consumer_->group_commits();
  EXPECT_FALSE(Contains(group, "orders", 0) || Contains(group, "orders", 1)) << Str(group);

  ExpectExactlyOnce("payments", 0, 4);
  EXPECT_EQ(summary->records_written, 4);

  const auto status = m.StatusReport();
  const auto orders = TopicStatus(status, "orders");
  EXPECT_EQ(orders.value("state", ""), "suspended") << orders.dump();
  EXPECT_NE(orders["error"].value("reason", "").find("cannot commit"), std::string::npos) << orders.dump();
  EXPECT_EQ(TopicStatus(status, "payments").value("state", ""), "running");
}

// (5) Another writer moved a partition on between this member's read and its commit: the
// commit is fenced for that partition only, its buffer is dropped, the consumer is seeked to
// the table's offset, and the records after it are then committed once. The other partition
// commits in the first snapshot.
TEST_F(MaterializerTest, FencedPartitionStartsOverFromTheTableOffset) {
  AddTopic("orders", 2);
  consumer_->ProduceN("orders", 0, 10);
  consumer_->ProduceN("orders", 1, 4);
  Table("orders").BeforeNextCommit([this](FakeTable&) { CommitAsOtherWriter("orders", 0, 0, 6); });
  Make();

  auto summary = RunBatch();
  ASSERT_TRUE(summary.ok()) << summary.status().ToString();

  const auto calls = Table("orders").commit_calls();
  ASSERT_EQ(calls.size(), 2u);
  EXPECT_EQ(calls[0].flushes,
            (std::vector<FlushSeen>{{"orders", 0, std::nullopt, 10, 10}, {"orders", 1, std::nullopt, 4, 4}}));
  ASSERT_EQ(calls[0].fenced.size(), 1u);
  EXPECT_EQ(calls[0].fenced[0].partition, 0);
  EXPECT_EQ(calls[0].fenced[0].table_offset, 6);
  EXPECT_EQ(calls[1].flushes, (std::vector<FlushSeen>{{"orders", 0, 6, 10, 4}}));
  EXPECT_TRUE(calls[1].fenced.empty());

  EXPECT_TRUE(Contains(consumer_->seeks(), "orders", 0, 6)) << Str(consumer_->seeks());
  ExpectExactlyOnce("orders", 0, 10, /*floe_from=*/6);
  ExpectExactlyOnce("orders", 1, 4);
  EXPECT_EQ(summary->records_written, 8);
  EXPECT_EQ(summary->commits, 2);
  EXPECT_TRUE(consumer_->misuse().empty()) << consumer_->misuse().front();
}

// (6) An orderly revoke commits what is buffered before the partitions go (nothing else
// would have committed: commit_interval is an hour away); assigned again, the partition starts
// at the table's offset, and the rest is committed at shutdown, each record once.
TEST_F(MaterializerTest, RevokeCommitsBufferedRecordsBeforeThePartitionsGo) {
  AddTopic("orders", 2);
  consumer_->ProduceN("orders", 0, 5);
  consumer_->ProduceN("orders", 1, 5);
  Materializer& m = Make();

  BackgroundRun run(m, RunOptions{});
  nlohmann::json status;
  ASSERT_TRUE(WaitUntil([&] {
    status = m.StatusReport();
    const auto p0 = PartitionStatus(status, "orders", 0);
    const auto p1 = PartitionStatus(status, "orders", 1);
    return !p0.is_null() && !p1.is_null() && p0.value("buffered_records", 0) == 5 &&
           p1.value("buffered_records", 0) == 5;
  })) << status.dump();
  EXPECT_TRUE(Table("orders").commit_calls().empty());

  consumer_->ScheduleRevoke({{"orders", 0, 0}}, /*lost=*/false);
  ASSERT_TRUE(WaitUntil([&] { return consumer_->rebalances_done() == 2; }));
  // Committed inside OnRevoked: the whole topic's buffers, both partitions.
  ExpectExactlyOnce("orders", 0, 5);
  ExpectExactlyOnce("orders", 1, 5);
  EXPECT_EQ(Table("orders").commit_calls().size(), 1u);

  consumer_->ProduceN("orders", 0, 3);
  consumer_->ProduceN("orders", 1, 2);
  consumer_->ScheduleAssign({{"orders", 0, 0}});
  ASSERT_TRUE(WaitUntil([&] { return consumer_->rebalances_done() == 3 && consumer_->AllDelivered(); }));
  const auto starts = consumer_->start_offsets();
  ASSERT_EQ(starts.size(), 3u) << Str(starts);
  EXPECT_EQ(starts[2].offset, 5) << Str(starts);

  auto summary = run.Finish(/*stop=*/true);
  ASSERT_TRUE(summary.ok()) << summary.status().ToString();
  ExpectExactlyOnce("orders", 0, 8);
  ExpectExactlyOnce("orders", 1, 7);
  EXPECT_EQ(summary->records_written, 15);
  EXPECT_EQ(summary->commits, 2);  // the revoke, the shutdown
  EXPECT_TRUE(consumer_->misuse().empty()) << consumer_->misuse().front();
}

// A lost assignment is not committed (someone else may own it already): the buffered records
// are dropped, and when the partition comes back it is read again from the table's offset.
TEST_F(MaterializerTest, LostPartitionIsNotCommittedAndIsReadAgainFromTheTable) {
  AddTopic("orders", 1);
  consumer_->ProduceN("orders", 0, 5);
  Materializer& m = Make();

  BackgroundRun run(m, RunOptions{});
  nlohmann::json status;
  ASSERT_TRUE(WaitUntil([&] {
    status = m.StatusReport();
    const auto p0 = PartitionStatus(status, "orders", 0);
    return !p0.is_null() && p0.value("buffered_records", 0) == 5;
  })) << status.dump();

  consumer_->ScheduleRevoke({{"orders", 0, 0}}, /*lost=*/true);
  ASSERT_TRUE(WaitUntil([&] { return consumer_->rebalances_done() == 2; }));
  EXPECT_TRUE(Table("orders").commit_calls().empty());

  consumer_->ScheduleAssign({{"orders", 0, 0}});
  ASSERT_TRUE(WaitUntil([&] { return consumer_->rebalances_done() == 3 && consumer_->AllDelivered(); }));
  EXPECT_EQ(consumer_->start_offsets().back().offset, kafka::kOffsetBeginning);

  auto summary = run.Finish(/*stop=*/true);
  ASSERT_TRUE(summary.ok()) << summary.status().ToString();
  ExpectExactlyOnce("orders", 0, 5);
  EXPECT_EQ(summary->records_written, 5);
  EXPECT_EQ(summary->commits, 1);
}

// A record that needs the table's schema while the catalog is unreachable is never skipped:
// its partition is paused and seeked back to it, resumed after the backoff, and the record
// comes again and is written once.
TEST_F(MaterializerTest, RecordWaitingForTheTableIsReplayedAfterTheBackoff) {
  AddTopic("orders", 1);
  consumer_->ProduceN("orders", 0, 5);
  Table("orders").FailEnsureColumns(Status::Unavailable("catalog unreachable"), 1);
  Make();

  auto summary = RunBatch();
  ASSERT_TRUE(summary.ok()) << summary.status().ToString();

  EXPECT_TRUE(Contains(consumer_->paused(), "orders", 0, 0)) << Str(consumer_->paused());
  EXPECT_TRUE(Contains(consumer_->seeks(), "orders", 0, 0)) << Str(consumer_->seeks());
  EXPECT_TRUE(Contains(consumer_->resumed(), "orders", 0)) << Str(consumer_->resumed());
  EXPECT_EQ(Table("orders").ensure_columns_calls(), 2);
  ExpectExactlyOnce("orders", 0, 5);
  EXPECT_EQ(summary->records_written, 5);
  EXPECT_TRUE(consumer_->misuse().empty()) << consumer_->misuse().front();
}

}  // namespace
}  // namespace floe::pipeline

namespace floe::pipeline {
namespace {

// Known bugs in src/floe/pipeline/, reproduced here: enable each test once its bug is fixed.

// A topic suspended because its data cannot be committed keeps that data buffered for good,
// and its bytes still count against buffer_memory: once they pass it, back-pressure pauses
// every partition of every topic and never resumes (the total can no longer fall to half),
// so healthy topics stop too. "Errors never stop the process ... while the rest goes on"
// (materializer.h) says payments should go on.
TEST_F(MaterializerTest, TopicWhoseCommitIsBlockedDoesNotStallOtherTopics) {
  config_.buffer_memory = 1000;  // ~90 bytes a record here: orders' 20 records pass it
  AddTopic("orders", 1);
  AddTopic("payments", 1);
  config_.topics.back().commit_interval = std::chrono::milliseconds(50);
  consumer_->ProduceN("orders", 0, 20);
  Table("orders").FailCommits(Status::InvalidArgument("column 'value' cannot hold this type"));
  Materializer& m = Make();

  BackgroundRun run(m, RunOptions{});
  ASSERT_TRUE(WaitUntil([&] { return TopicStatus(m.StatusReport(), "orders").value("state", "") == "suspended"; }));
  consumer_->ProduceN("payments", 0, 3);
  EXPECT_TRUE(WaitUntil([&] { return Table("payments").rows().size() == 3; }))
      << "payments/0 paused: " << consumer_->IsPaused("payments", 0) << "; pauses: " << Str(consumer_->paused());
  auto summary = run.Finish(/*stop=*/true);
  ASSERT_TRUE(summary.ok()) << summary.status().ToString();
  ExpectExactlyOnce("payments", 0, 3);
}

// A partition of a suspended topic assigned again (after a rebalance) gets phase "suspended"
// but is never paused, so the consumer fetches and drops its records for as long as the
// process runs (partition_phase.h: kSuspended means paused).
TEST_F(MaterializerTest, PartitionOfASuspendedTopicAssignedAgainIsPaused) {
  AddTopic("orders", 1);
  config_.topics.back().commit_interval = std::chrono::milliseconds(10);
  consumer_->ProduceN("orders", 0, 3);
  Table("orders").FailCommits(Status::InvalidArgument("column 'value' cannot hold this type"));
  Materializer& m = Make();

  BackgroundRun run(m, RunOptions{});
  ASSERT_TRUE(WaitUntil([&] { return TopicStatus(m.StatusReport(), "orders").value("state", "") == "suspended"; }));
  consumer_->ScheduleRevoke({{"orders", 0, 0}}, /*lost=*/false);
  consumer_->ScheduleAssign({{"orders", 0, 0}});
  consumer_->ProduceN("orders", 0, 2);
  EXPECT_TRUE(WaitUntil([&] { return consumer_->rebalances_done() == 3 && consumer_->IsPaused("orders", 0); }, 5s))
      << "position " << consumer_->Position("orders", 0).value_or(-1) << " of " << consumer_->High("orders", 0);
  auto summary = run.Finish(/*stop=*/true);
  ASSERT_TRUE(summary.ok()) << summary.status().ToString();
}

// Operator commands (docs/admin-api.md): a topic suspended because its data could not be
// committed is resumed once the cause is gone, reads again from its committed offset and
// commits every record once; a skip is refused there (no single record is at fault), and so
// are commands naming an unknown topic or a topic that is not suspended.
TEST_F(MaterializerTest, ResumeRetriesASuspendedTopicFromItsCommittedOffset) {
  AddTopic("orders", 1);
  config_.topics.back().commit_interval = std::chrono::milliseconds(10);
  consumer_->ProduceN("orders", 0, 5);
  CommitAsOtherWriter("orders", 0, 0, 2);
  Table("orders").FailCommits(Status::InvalidArgument("column 'value' cannot hold this type"));
  Materializer& m = Make();

  BackgroundRun run(m, RunOptions{});
  ASSERT_TRUE(WaitUntil([&] { return TopicStatus(m.StatusReport(), "orders").value("state", "") == "suspended"; }));
  auto skip = m.Skip("orders", 0, 2);
  ASSERT_FALSE(skip.ok());
  EXPECT_EQ(skip.status().code(), StatusCode::kConflict);
  EXPECT_NE(skip.status().message().find("not at one record"), std::string::npos) << skip.status().message();
  auto unknown = m.Resume("nope");
  ASSERT_FALSE(unknown.ok());
  EXPECT_EQ(unknown.status().code(), StatusCode::kNotFound);

  Table("orders").ClearFailures();  // the operator fixed the table
  auto resumed = m.Resume("orders");
  ASSERT_TRUE(resumed.ok()) << resumed.status().ToString();
  EXPECT_EQ(*resumed, (nlohmann::json{{"topic", "orders"}, {"resumed_partitions", {0}}}));
  ASSERT_TRUE(WaitUntil([&] { return sink::Find(Table("orders").offsets(), "orders", 0) == 5; }));
  // /status is refreshed about once a second.
  EXPECT_TRUE(WaitUntil([&] { return TopicStatus(m.StatusReport(), "orders").value("state", "") == "running"; }));
  auto again = m.Resume("orders");
  ASSERT_FALSE(again.ok());
  EXPECT_EQ(again.status().code(), StatusCode::kConflict);
  auto summary = run.Finish(/*stop=*/true);
  ASSERT_TRUE(summary.ok()) << summary.status().ToString();
  EXPECT_TRUE(summary->suspended.empty());  // resumed: the run does not end as "suspended"
  ExpectExactlyOnce("orders", 0, 5, /*floe_from=*/2);
  // After the run, commands are refused at once rather than left waiting.
  auto late = m.Resume("orders");
  ASSERT_FALSE(late.ok());
  EXPECT_EQ(late.status().code(), StatusCode::kUnavailable);
}

// /status's progress fields (docs/admin-api.md): once the watermarks are read and everything is
// committed, lag and backlog are 0, last_commit names the snapshot, freshness is measured from
// the newest committed record's Kafka timestamp (the fake's are from 2023: years old), and
// /metrics has the freshness gauge and the commit-duration histogram.
TEST_F(MaterializerTest, StatusShowsLagBacklogFreshnessAndTheLastCommit) {
  AddTopic("orders", 2);
  config_.topics.back().commit_interval = std::chrono::milliseconds(10);
  consumer_->ProduceN("orders", 0, 6);
  consumer_->ProduceN("orders", 1, 4);
  Materializer& m = Make();

  BackgroundRun run(m, RunOptions{});
  nlohmann::json topic;
  ASSERT_TRUE(WaitUntil([&] {
    topic = TopicStatus(m.StatusReport(), "orders");
    return !topic.is_null() && topic.value("backlog_records", nlohmann::json()) == 0 &&
           topic["last_commit"].is_object() && PartitionStatus(m.StatusReport(), "orders", 0).value("lag", -1) == 0 &&
           PartitionStatus(m.StatusReport(), "orders", 1).value("lag", -1) == 0;
  })) << topic.dump();
  EXPECT_FALSE(topic["catching_up"].get<bool>());
  EXPECT_FALSE(topic.contains("eta_seconds"));
  EXPECT_TRUE(topic["records_per_second"].is_number());
  EXPECT_GT(topic["freshness_seconds"].get<double>(), 365.0 * 86400);
  EXPECT_EQ(topic["last_commit"]["time"].get<std::string>().size(), 20u);  // 2026-12-05T08:01:02Z
  EXPECT_GE(topic["last_commit"]["rows"].get<std::int64_t>(), 1);
  const std::string scrape = metrics_.RenderPrometheus();
  EXPECT_NE(scrape.find("floe_table_freshness_seconds{table=\"kafka.orders\"}"), std::string::npos);
  EXPECT_NE(scrape.find("floe_commit_duration_seconds_count{table=\"kafka.orders\"}"), std::string::npos);
  EXPECT_NE(scrape.find("floe_records_per_second{topic=\"orders\"}"), std::string::npos);
  auto summary = run.Finish(/*stop=*/true);
  ASSERT_TRUE(summary.ok()) << summary.status().ToString();
}

}  // namespace
}  // namespace floe::pipeline

namespace floe::pipeline {
namespace {

// Commits on the worker pool (`workers:`, materializer_commits.cc).

// Lets a FakeTable hook hold a commit on its worker until the test releases it.
class CommitGate {
 public:
  // A hook that holds the commit it runs in.
  std::function<void(FakeTable&)> Hold() {
    return [this](FakeTable&) {
      holding_ = true;
      released_.wait();
    };
  }
  bool holding() const { return holding_.load(); }
  void Release() {
    if (!released_flag_.exchange(true)) release_.set_value();
  }

 private:
  std::promise<void> release_;
  std::shared_future<void> released_ = release_.get_future().share();
  std::atomic<bool> holding_{false};
  std::atomic<bool> released_flag_{false};
};

// Releases the gate when an assertion ends the test early: declared after the BackgroundRun,
// it runs before the run is stopped (whose shutdown waits for the held commit).
struct ReleaseOnExit {
  CommitGate& gate;
  ~ReleaseOnExit() { gate.Release(); }
};

// One topic's commit is slow (a large burst on one partition; here the table holds the commit
// until the test lets it go): the poll thread goes on reading every partition, that topic's
// other partition included, and another topic's commits land meanwhile, more than once.
// Afterwards every record of both topics is in its table once.
TEST_F(MaterializerTest, SlowCommitOfOneTopicDoesNotStallOtherTopicsOrPolling) {
  config_.workers = 2;
  AddTopic("big", 2);
  AddTopic("small", 1);
  for (auto& t : config_.topics) t.commit_interval = std::chrono::milliseconds(50);
  consumer_->ProduceN("big", 0, 5000);  // the burst
  CommitGate gate;
  Table("big").BeforeNextCommit(gate.Hold());
  Materializer& m = Make();
  BackgroundRun run(m, RunOptions{});
  ReleaseOnExit release_on_exit{gate};

  ASSERT_TRUE(WaitUntil([&] { return gate.holding(); }));
  consumer_->ProduceN("small", 0, 3);
  consumer_->ProduceN("big", 1, 4);
  EXPECT_TRUE(WaitUntil([&] { return Table("small").rows().size() == 3u; }));
  consumer_->ProduceN("small", 0, 2);
  EXPECT_TRUE(WaitUntil([&] { return Table("small").rows().size() == 5u; }));
  EXPECT_TRUE(WaitUntil([&] {
    const auto p1 = PartitionStatus(m.StatusReport(), "big", 1);
    return !p1.is_null() && p1.value("buffered_records", 0) == 4;
  }));
  EXPECT_TRUE(gate.holding());
  EXPECT_TRUE(Table("big").rows().empty());  // its commit is still held

  gate.Release();
  EXPECT_TRUE(WaitUntil([&] { return Table("big").rows().size() == 5004u; }));
  auto summary = run.Finish(/*stop=*/true);
  ASSERT_TRUE(summary.ok()) << summary.status().ToString();
  ExpectExactlyOnce("big", 0, 5000);
  ExpectExactlyOnce("big", 1, 4);
  ExpectExactlyOnce("small", 0, 5);
  // big's first commit took partition 0's rows only; partition 1's came in a later one.
  const auto calls = Table("big").commit_calls();
  ASSERT_GE(calls.size(), 2u);
  ASSERT_EQ(calls[0].flushes.size(), 1u);
  EXPECT_EQ(calls[0].flushes[0].partition, 0);
  EXPECT_TRUE(consumer_->misuse().empty()) << consumer_->misuse().front();
}

// buffer_memory is held against Arrow's memory too (core/memory_pool.h ArrowMemoryHeld). Memory
// that others hold and no commit gives back (here a buffer the test keeps; in production a
// compaction or a Delta checkpoint) must not stop reading for good: with records buffered,
// fetching pauses until they are committed; with nothing buffered it resumes.
TEST_F(MaterializerTest, ArrowMemoryHeldElsewhereNeverStopsReading) {
  config_.buffer_memory = 1 << 20;
  AddTopic("orders", 1);
  config_.topics.back().commit_interval = 20ms;
  constexpr std::int64_t kHeld = 4 << 20;  // four times the budget, for the whole run
  auto held = arrow::AllocateBuffer(kHeld);
  ASSERT_TRUE(held.ok()) << held.status().ToString();
  std::memset((*held)->mutable_data(), 1, kHeld);
  Materializer& m = Make();
  BackgroundRun run(m, RunOptions{});
  // In waves: each one is read while earlier ones' memory is over the budget (fetching pauses
  // as soon as anything is buffered), and only a resume lets the next one in.
  for (std::size_t wave = 1; wave <= 3; ++wave) {
    consumer_->ProduceN("orders", 0, 100);
    EXPECT_TRUE(WaitUntil([&] { return Table("orders").rows().size() == 100 * wave; }))
        << "wave " << wave << ": " << Table("orders").rows().size() << " rows; paused: " << Str(consumer_->paused());
  }
  const std::string scrape = metrics_.RenderPrometheus();
  const auto at = scrape.find("\nfloe_arrow_memory_bytes ");
  ASSERT_NE(at, std::string::npos) << scrape;
  EXPECT_GE(std::stod(scrape.substr(at + 25)), static_cast<double>(kHeld));
  auto summary = run.Finish(/*stop=*/true);
  ASSERT_TRUE(summary.ok()) << summary.status().ToString();
  ExpectExactlyOnce("orders", 0, 300);
  EXPECT_TRUE(consumer_->misuse().empty()) << consumer_->misuse().front();
}

// With four workers and commits every few milliseconds while records keep arriving, each
// partition's rows reach the table in offset order, once each, and each commit's flush of a
// partition begins where the previous one ended (the commit is one ordered step per table,
// while the poll thread keeps reading into the next flush).
TEST_F(MaterializerTest, CommitsOnWorkersKeepEachPartitionInOrder) {
  config_.workers = 4;
  AddTopic("orders", 4);
  AddTopic("payments", 2);
  for (auto& t : config_.topics) t.commit_interval = std::chrono::milliseconds(5);
  Materializer& m = Make();
  BackgroundRun run(m, RunOptions{});
  constexpr int kRounds = 300;
  for (int round = 0; round < kRounds; ++round) {
    for (int p = 0; p < 4; ++p) consumer_->ProduceN("orders", p, 3);
    for (int p = 0; p < 2; ++p) consumer_->ProduceN("payments", p, 2);
    if (round % 50 == 0) std::this_thread::sleep_for(20ms);
  }
  ASSERT_TRUE(WaitUntil([&] {
    return Table("orders").rows().size() == 4u * 3 * kRounds && Table("payments").rows().size() == 2u * 2 * kRounds;
  }));
  auto summary = run.Finish(/*stop=*/true);
  ASSERT_TRUE(summary.ok()) << summary.status().ToString();
  for (const auto& [topic, partitions, per_round] :
       {std::tuple<std::string, int, int>{"orders", 4, 3}, std::tuple<std::string, int, int>{"payments", 2, 2}}) {
    for (int p = 0; p < partitions; ++p) {
      ExpectExactlyOnce(topic, p, static_cast<std::int64_t>(per_round) * kRounds);
      std::int64_t next = 0;
      for (const auto& row : Table(topic).rows()) {
        if (row.partition != p) continue;
        EXPECT_EQ(row.offset, next) << topic << "/" << p;
        next = row.offset + 1;
      }
      std::optional<std::int64_t> committed;
      for (const auto& call : Table(topic).commit_calls()) {
        for (const auto& f : call.flushes) {
          if (f.partition != p) continue;
          EXPECT_EQ(f.expected, committed) << topic << "/" << p;
          committed = f.next_offset;
        }
      }
    }
  }
  EXPECT_GT(summary->commits, 2);
}

// A commit that fails while records keep arriving gives its rows back in front of them: the
// next attempt carries the failed rows and the new ones, from the same offset.
TEST_F(MaterializerTest, FailedCommitOnAWorkerIsRetriedWithTheRowsThatCameSince) {
  config_.workers = 2;
  AddTopic("orders", 1);
  config_.topics.back().commit_interval = std::chrono::milliseconds(10);
  consumer_->ProduceN("orders", 0, 5);
  Table("orders").FailCommits(Status::Unavailable("object store unreachable"), 1);
  CommitGate gate;
  Table("orders").BeforeNextCommit(gate.Hold());
  Materializer& m = Make();
  BackgroundRun run(m, RunOptions{});
  ReleaseOnExit release_on_exit{gate};
  ASSERT_TRUE(WaitUntil([&] { return gate.holding(); }));
  consumer_->ProduceN("orders", 0, 3);
  ASSERT_TRUE(WaitUntil([&] {
    const auto p0 = PartitionStatus(m.StatusReport(), "orders", 0);
    return !p0.is_null() && p0.value("buffered_records", 0) == 8;
  }));
  gate.Release();
  ASSERT_TRUE(WaitUntil([&] { return sink::Find(Table("orders").offsets(), "orders", 0) == 8; }));
  auto summary = run.Finish(/*stop=*/true);
  ASSERT_TRUE(summary.ok()) << summary.status().ToString();
  ExpectExactlyOnce("orders", 0, 8);
  const auto calls = Table("orders").commit_calls();
  ASSERT_GE(calls.size(), 2u);
  EXPECT_EQ(calls[0].flushes, (std::vector<FlushSeen>{{"orders", 0, std::nullopt, 5, 5}}));
  EXPECT_EQ(calls[0].status.code(), StatusCode::kUnavailable);
  EXPECT_EQ(calls[1].flushes, (std::vector<FlushSeen>{{"orders", 0, std::nullopt, 8, 8}}));
}

// Records are decoded off the poll thread, a batch at a time (pipeline/decode_stage.h). A
// record the decoder refuses in the middle of such a batch (not UTF-8 under `value: string`) is
// skipped in its place under error_mode skip: every other record of its partition, those of the
// same batch after it included, is in the table once, in order, and the other partition goes on.
TEST_F(MaterializerTest, RecordRefusedByTheDecoderIsSkippedInPlace) {
  AddTopic("orders", 2);
  config_.topics.back().error_mode = ErrorMode::kSkip;
  constexpr std::int64_t kBad = 1234;
  for (std::int64_t o = 0; o < 3000; ++o) {
    consumer_->Produce("orders", 0, o == kBad ? std::string("\xff\xfe") : fakes::DefaultValue("orders", 0, o));
  }
  consumer_->ProduceN("orders", 1, 3000);
  Make();
  auto summary = RunBatch();
  ASSERT_TRUE(summary.ok()) << summary.status().ToString();
  EXPECT_EQ(summary->records_skipped, 1);
  EXPECT_TRUE(summary->suspended.empty());
  std::int64_t expected = 0;
  std::size_t p0_rows = 0;
  for (const auto& row : Table("orders").rows()) {
    if (row.partition != 0) continue;
    if (expected == kBad) ++expected;
    EXPECT_EQ(row.offset, expected);
    EXPECT_EQ(row.value, fakes::DefaultValue("orders", 0, row.offset));
    expected = row.offset + 1;
    ++p0_rows;
  }
  EXPECT_EQ(p0_rows, 2999u);
  EXPECT_EQ(sink::Find(Table("orders").offsets(), "orders", 0), 3000);
  ExpectExactlyOnce("orders", 1, 3000);
}

// The same refused record under error_mode suspend: what came before it in its partition is
// committed, nothing after it is, and the topic is suspended at exactly that record.
TEST_F(MaterializerTest, RecordRefusedByTheDecoderSuspendsAtThatRecord) {
  AddTopic("orders", 2);
  constexpr std::int64_t kBad = 1234;
  for (std::int64_t o = 0; o < 3000; ++o) {
    consumer_->Produce("orders", 0, o == kBad ? std::string("\xff\xfe") : fakes::DefaultValue("orders", 0, o));
  }
  consumer_->ProduceN("orders", 1, 10);
  Materializer& m = Make();
  auto summary = RunBatch();
  ASSERT_TRUE(summary.ok()) << summary.status().ToString();
  ASSERT_EQ(summary->suspended.size(), 1u);
  EXPECT_NE(summary->suspended[0].find("orders/0@1234"), std::string::npos) << summary->suspended[0];
  EXPECT_NE(summary->suspended[0].find("UTF-8"), std::string::npos) << summary->suspended[0];
  EXPECT_EQ(sink::Find(Table("orders").offsets(), "orders", 0), kBad);
  std::set<std::int64_t> p0;
  for (const auto& row : Table("orders").rows()) {
    if (row.partition != 0) continue;
    EXPECT_TRUE(p0.insert(row.offset).second) << "offset " << row.offset << " twice";
  }
  EXPECT_EQ(p0.size(), static_cast<std::size_t>(kBad));
  EXPECT_EQ(*p0.rbegin(), kBad - 1);
  const auto orders = TopicStatus(m.StatusReport(), "orders");
  EXPECT_EQ(orders.value("state", ""), "suspended") << orders.dump();
}

}  // namespace
}  // namespace floe::pipeline
