#pragma once
// A sink::TableSink without files or a catalog, for driving the materializer in unit tests
// (STYLE.md, "Fakes at the seams"). The table's state lives in a FakeTable that the test
// keeps (the materializer owns the FakeSink in front of it), so the test can script it,
// play another writer, and read what was committed after the run.
//
// It keeps the sink contract of table_sink.h: a commit lands all its taken partitions and
// their offsets at once, or nothing (a scripted failure changes nothing); fencing is the real
// sink::Fence, so a partition whose table offset is not the flush's `expected` is reported in
// CommitReport.fenced and its rows are not written. EnsureColumns accepts every schema.
// Rows are read back from the batches' `_kafka` struct (the nested system-column layout)
// and the raw `value` column, so the test sees which record every committed row came from.
#include <arrow/api.h>

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <ostream>
#include <string>
#include <utility>
#include <vector>

#include "floe/columnar/system_columns.h"
#include "floe/sink/fencing.h"
#include "floe/sink/table_sink.h"

namespace floe::pipeline::fakes {

struct CommittedRow {
  std::string topic;
  std::int32_t partition = 0;
  std::int64_t offset = 0;
  std::optional<std::string> value;
  std::string writer;  // "floe" (through the sink), or "other" (FakeTable::CommitAsOtherWriter)
};

// One PartitionFlush as the sink received it.
struct FlushSeen {
  std::string topic;
  std::int32_t partition = 0;
  std::optional<std::int64_t> expected;
  std::int64_t next_offset = 0;
  std::int64_t rows = 0;
  bool operator==(const FlushSeen&) const = default;
};

inline std::ostream& operator<<(std::ostream& os, const FlushSeen& f) {
  return os << f.topic << "/" << f.partition << " expected " << (f.expected ? std::to_string(*f.expected) : "none")
            << " next " << f.next_offset << " rows " << f.rows;
}

struct CommitCall {
  std::vector<FlushSeen> flushes;
  Status status;                             // the scripted failure, else OK
  std::vector<sink::FencedPartition> fenced;  // when OK
};

// Reads a flushed batch back into rows (nested layout: `_kafka` struct, raw `value`).
inline Result<std::vector<CommittedRow>> RowsOf(const arrow::RecordBatch& batch) {
  auto kafka = std::dynamic_pointer_cast<arrow::StructArray>(
      batch.GetColumnByName(std::string(columnar::kNestedSystemColumn)));
  if (!kafka) return Status::Internal("fake sink: the batch has no _kafka struct column: " + batch.schema()->ToString());
  auto topics = std::dynamic_pointer_cast<arrow::StringArray>(kafka->GetFieldByName("topic"));
  auto partitions = std::dynamic_pointer_cast<arrow::Int32Array>(kafka->GetFieldByName("partition"));
  auto offsets = std::dynamic_pointer_cast<arrow::Int64Array>(kafka->GetFieldByName("offset"));
  if (!topics || !partitions || !offsets) return Status::Internal("fake sink: unexpected _kafka fields");
  std::shared_ptr<arrow::BinaryArray> values;  // StringArray is a BinaryArray; absent for tombstones
  if (auto column = batch.GetColumnByName("value")) {
    values = std::dynamic_pointer_cast<arrow::BinaryArray>(column);
    if (!values) return Status::Internal("fake sink: value column of type " + column->type()->ToString());
  }
  std::vector<CommittedRow> rows;
  for (std::int64_t i = 0; i < batch.num_rows(); ++i) {
    CommittedRow row{topics->GetString(i), partitions->Value(i), offsets->Value(i), std::nullopt, "floe"};
    if (values && values->IsValid(i)) row.value = values->GetString(i);
    rows.push_back(std::move(row));
  }
  return rows;
}

class FakeTable {
 public:
  static constexpr int kForever = -1;

  explicit FakeTable(std::string name) : name_(std::move(name)) {}
  const std::string& name() const { return name_; }

  // --- Scripting (any thread) ---------------------------------------------------------------

  // The next `times` calls fail with `status` (kForever: until ClearFailures).
  void FailLoadOffsets(Status status, int times = kForever) { Script(load_failures_, std::move(status), times); }
  void FailCommits(Status status, int times = kForever) { Script(commit_failures_, std::move(status), times); }
  void FailEnsureColumns(Status status, int times = kForever) { Script(ensure_failures_, std::move(status), times); }
  void ClearFailures() {
    std::lock_guard lock(mu_);
    load_failures_ = commit_failures_ = ensure_failures_ = Failures{};
  }

  // Another writer commits records [from, to) of a partition: their rows and its offset.
  void CommitAsOtherWriter(const std::string& topic, std::int32_t partition, std::int64_t from, std::int64_t to,
                           const std::function<std::string(std::int64_t)>& value_of) {
    std::lock_guard lock(mu_);
    for (std::int64_t o = from; o < to; ++o) rows_.push_back({topic, partition, o, value_of(o), "other"});
    offsets_[topic][partition] = to;
  }

  // Runs once, at the start of the next Commit (before fencing): a writer racing this one.
  void BeforeNextCommit(std::function<void(FakeTable&)> hook) {
    std::lock_guard lock(mu_);
    before_next_commit_ = std::move(hook);
  }

  // --- What the table holds and saw (any thread) --------------------------------------------

  sink::TopicOffsets offsets() const { return Locked(offsets_); }
  std::vector<CommittedRow> rows() const { return Locked(rows_); }
  std::vector<CommitCall> commit_calls() const { return Locked(commit_calls_); }
  int load_offsets_calls() const { return Locked(load_offsets_calls_); }
  int ensure_columns_calls() const { return Locked(ensure_columns_calls_); }

  // How many committed rows each offset of the partition has.
  std::map<std::int64_t, int> RowCounts(const std::string& topic, std::int32_t partition) const {
    std::lock_guard lock(mu_);
    std::map<std::int64_t, int> out;
    for (const auto& r : rows_) {
      if (r.topic == topic && r.partition == partition) ++out[r.offset];
    }
    return out;
  }

  // --- What FakeSink calls --------------------------------------------------------------------

  Result<sink::TopicOffsets> LoadOffsets() {
    std::lock_guard lock(mu_);
    ++load_offsets_calls_;
    if (auto failure = Take(load_failures_)) return *failure;
    return offsets_;
  }

  Result<sink::SchemaChange> EnsureColumns(const schema::Schema&) {
    std::lock_guard lock(mu_);
    ++ensure_columns_calls_;
    if (auto failure = Take(ensure_failures_)) return *failure;
    return sink::SchemaChange{};
  }

  Result<sink::CommitReport> Commit(const std::vector<sink::PartitionFlush>& flushes) {
    std::function<void(FakeTable&)> hook;
    {
      std::lock_guard lock(mu_);
      hook = std::exchange(before_next_commit_, nullptr);
    }
    if (hook) hook(*this);

    // Rows first, outside the lock: a batch the fake cannot read is an error of the test setup.
    std::vector<std::vector<CommittedRow>> rows_by_flush;
    CommitCall call;
    for (const auto& f : flushes) {
      std::vector<CommittedRow> rows;
      for (const auto& batch : f.batches) {
        FLOE_ASSIGN_OR_RETURN(auto more, RowsOf(*batch));
        rows.insert(rows.end(), more.begin(), more.end());
      }
      call.flushes.push_back({f.topic, f.partition, f.expected, f.next_offset, static_cast<std::int64_t>(rows.size())});
      rows_by_flush.push_back(std::move(rows));
    }

    std::lock_guard lock(mu_);
    if (auto failure = Take(commit_failures_)) {
      call.status = *failure;
      commit_calls_.push_back(std::move(call));
      return *failure;
    }
    const sink::FenceOutcome fence = sink::Fence(offsets_, flushes);
    sink::CommitReport report;
    report.attempts = 1;
    report.fenced = fence.fenced;
    call.fenced = fence.fenced;
    commit_calls_.push_back(std::move(call));
    if (fence.nothing_to_commit()) return report;
    for (std::size_t i : fence.taken) {
      report.rows += static_cast<std::int64_t>(rows_by_flush[i].size());
      rows_.insert(rows_.end(), rows_by_flush[i].begin(), rows_by_flush[i].end());
    }
    offsets_ = fence.next;
    report.committed = true;
    report.snapshot_id = ++snapshots_;
    report.files = static_cast<std::int64_t>(fence.taken.size());
    return report;
  }

 private:
  struct Failures {
    Status status;
    int remaining = 0;  // kForever: until cleared
  };

  template <typename T>
  T Locked(const T& field) const {
    std::lock_guard lock(mu_);
    return field;
  }

  void Script(Failures& failures, Status status, int times) {
    std::lock_guard lock(mu_);
    failures = Failures{std::move(status), times};
  }

  static std::optional<Status> Take(Failures& failures) {
    if (failures.remaining == 0) return std::nullopt;
    if (failures.remaining > 0) --failures.remaining;
    return failures.status;
  }

  const std::string name_;
  mutable std::mutex mu_;
  sink::TopicOffsets offsets_;
  std::vector<CommittedRow> rows_;
  std::vector<CommitCall> commit_calls_;
  Failures load_failures_;
  Failures commit_failures_;
  Failures ensure_failures_;
  std::function<void(FakeTable&)> before_next_commit_;
  int load_offsets_calls_ = 0;
  int ensure_columns_calls_ = 0;
  std::int64_t snapshots_ = 0;
};

// What the materializer owns: a TableSink in front of the test's FakeTable.
class FakeSink final : public sink::TableSink {
 public:
  explicit FakeSink(std::shared_ptr<FakeTable> table) : table_(std::move(table)) {}
  std::string name() const override { return table_->name(); }
  Result<sink::TopicOffsets> LoadOffsets() override { return table_->LoadOffsets(); }
  // The fake keeps rows, not columns: as far as schemaless topics can tell, it has none yet.
  Result<std::optional<schema::Schema>> Columns() override { return std::optional<schema::Schema>(); }
  Result<sink::SchemaChange> EnsureColumns(const schema::Schema& columns) override {
    return table_->EnsureColumns(columns);
  }
  Result<sink::CommitReport> Commit(const std::vector<sink::PartitionFlush>& flushes) override {
    return table_->Commit(flushes);
  }

 private:
  std::shared_ptr<FakeTable> table_;
};

}  // namespace floe::pipeline::fakes
