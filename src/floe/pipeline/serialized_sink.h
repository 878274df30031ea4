#pragma once
// One topic's TableSink used from two threads: a worker commits the topic's files while the
// poll thread may need the same table (EnsureColumns for a new writer schema, LoadOffsets on
// an assignment, Columns for schemaless inference). The sinks keep per-table state (cached
// log state, the Delta side of a dual sink) and are not thread-safe, so every call goes
// through one mutex per topic: the poll thread waits for a running commit of that topic only
// in these rare cases, never for other topics' commits.
#include <memory>
#include <mutex>

#include "floe/sink/table_sink.h"

namespace floe::pipeline {

class SerializedSink final : public sink::TableSink {
 public:
  explicit SerializedSink(std::unique_ptr<sink::TableSink> sink) : sink_(std::move(sink)) {}

  std::string name() const override { return sink_->name(); }  // fixed at construction
  Result<sink::TopicOffsets> LoadOffsets() override {
    std::lock_guard lock(mu_);
    return sink_->LoadOffsets();
  }
  Result<std::optional<schema::Schema>> Columns() override {
    std::lock_guard lock(mu_);
    return sink_->Columns();
  }
  Result<sink::SchemaChange> EnsureColumns(const schema::Schema& columns) override {
    std::lock_guard lock(mu_);
    return sink_->EnsureColumns(columns);
  }
  Result<sink::CommitReport> Commit(const std::vector<sink::PartitionFlush>& flushes) override {
    std::lock_guard lock(mu_);
    return sink_->Commit(flushes);
  }

 private:
  std::mutex mu_;
  std::unique_ptr<sink::TableSink> sink_;
};

}  // namespace floe::pipeline
