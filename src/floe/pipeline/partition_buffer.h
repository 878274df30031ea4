#pragma once
// What one Kafka partition has consumed since its last commit: decoded rows, not yet in
// any file, and the offsets they span. Rows come in segments: consecutive records with
// the same writer schema share one decoder; a new schema id (or a run of tombstones) closes
// the segment as one RecordBatch of that schema's columns plus key and system columns.
// Batches are conformed to the table schema only when they are written (columnar/conform.h).
//
// Offsets: `committed` is where the table says this partition stands (nullopt: no Floe
// commit has covered it yet) — the fencing value of the next commit; `next_offset` is the
// offset after the last record consumed, written or not (skipped and dead-lettered records
// move it too, so the commit records that they were dealt with).
#include <arrow/type_fwd.h>

#include <chrono>
#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "floe/columnar/system_columns.h"
#include "floe/core/config.h"
#include "floe/core/result.h"
#include "floe/kafka/consumer.h"
#include "floe/columnar/value_decoder.h"
#include "floe/pipeline/writer_schemas.h"

namespace floe::pipeline {

class PartitionBuffer {
 public:
  static Result<std::unique_ptr<PartitionBuffer>> Make(const TopicConfig& topic, const WriterSchemas& schemas,
                                                       std::int32_t partition, std::optional<std::int64_t> committed);

  std::int32_t partition() const { return partition_; }
  std::optional<std::int64_t> committed() const { return committed_; }
  // Where reading goes on: the offset after the last consumed record, else `committed`.
  std::optional<std::int64_t> next_offset() const { return next_offset_; }
  bool has_uncommitted() const { return next_offset_ != committed_; }
  // Consumed since the last commit and not in the flush under way (if any).
  bool has_unflushed() const { return next_offset_ != (flushing_ ? flush_.next_offset : committed_); }
  // Everything buffered, the flush under way included (buffer_memory counts it until it is
  // committed): closed segments by what their columns take, the open one estimated.
  std::int64_t buffered_rows() const { return rows_; }
  std::int64_t buffered_bytes() const { return bytes_; }
  // What the next flush would take (target_file_size).
  std::int64_t unflushed_bytes() const { return bytes_ - (flushing_ ? flush_.bytes : 0); }
  // When the oldest unflushed record was consumed (for commit_interval).
  std::chrono::steady_clock::time_point oldest() const { return oldest_; }

  // Appends one record whose value is `payload` under `schema` (a tombstone: the writer
  // schemas' tombstone(), payload ignored). `key_payload` is the key to decode: the record's
  // key, or for a registry key the bytes after the wire-format header (schema.key says which
  // schema). All or nothing: on error nothing changed.
  Status Append(const kafka::Record& record, const WriterSchema& schema, std::string_view payload,
                std::optional<std::string_view> key_payload);
  // A record consumed but not written (skipped, dead-lettered): offsets move past it.
  void Pass(const kafka::Record& record);
  // The consumer moved on to `next` past offsets it never returns (transaction markers, records
  // of aborted transactions): offsets move there, so the next commit records them as dealt with
  // and a partition ending in a marker still reaches its end offset. No-op unless `next` is ahead.
  void PassTo(std::int64_t next) {
    if (next > next_offset_.value_or(-1)) Advance(next - 1);
  }
  // An operator skipped the record at `offset`, the next one to read (POST .../skip): offsets
  // move past it and the next commit records it (sink::PartitionFlush::skipped).
  void SkipByOperator(std::int64_t offset);
  const std::vector<std::int64_t>& operator_skipped() const { return operator_skipped_; }
  // The newest Kafka timestamp (ms) among records consumed since the last flush (freshness).
  std::optional<std::int64_t> newest_timestamp_ms() const { return newest_timestamp_ms_; }

  // A flush: the rows buffered so far, handed to a commit that runs on a worker thread while
  // this buffer goes on taking records (materializer_commits.cc). One at a time; the rows
  // stay buffered until EndFlush says the commit covered them, so a failed write or commit
  // loses nothing.
  struct Flush {
    std::optional<std::int64_t> expected;  // committed() when the flush began: the fencing value
    std::int64_t next_offset = 0;          // the offset after the last flushed record
    std::vector<std::shared_ptr<arrow::RecordBatch>> batches;  // writer-schema columns + key + system columns
    std::vector<std::int64_t> operator_skipped;
    std::int64_t rows = 0;
    std::int64_t bytes = 0;
    std::optional<std::int64_t> newest_timestamp_ms;
    std::chrono::steady_clock::time_point oldest{};
  };
  // Needs has_unflushed() and no flush under way.
  Result<const Flush*> BeginFlush();
  bool flushing() const { return flushing_; }
  const Flush& flush() const { return flush_; }
  // The flush's commit covered it (committed() moves to its next_offset), or did not (its
  // rows go back in front of what came since, for the next attempt).
  void EndFlush(bool committed);
  // Forgets everything buffered, the flush included, and starts again at `committed` (lost
  // assignment, fencing).
  void Reset(std::optional<std::int64_t> committed);
  // How many times Reset ran: records read before a reset are not this buffer's to append.
  std::uint64_t resets() const { return resets_; }

 private:
  PartitionBuffer(const TopicConfig& topic, const WriterSchemas& schemas, std::int32_t partition);
  Status CloseSegment();
  Result<columnar::ValueDecoder*> ValueDecoderFor(const WriterSchema& schema);
  Result<columnar::ValueDecoder*> KeyDecoderFor(const WriterSchema& schema);
  void Advance(std::int64_t offset);

  const TopicConfig& topic_;
  const WriterSchemas& schemas_;
  std::int32_t partition_;
  std::optional<std::int64_t> committed_;
  std::optional<std::int64_t> next_offset_;
  std::int64_t rows_ = 0;
  std::int64_t bytes_ = 0;
  std::chrono::steady_clock::time_point oldest_{};
  std::vector<std::int64_t> operator_skipped_;
  std::optional<std::int64_t> newest_timestamp_ms_;
  bool flushing_ = false;
  Flush flush_;
  std::uint64_t resets_ = 0;

  // The open segment.
  const WriterSchema* segment_schema_ = nullptr;
  columnar::ValueDecoder* segment_values_ = nullptr;  // null for tombstones
  columnar::ValueDecoder* segment_key_ = nullptr;     // null when the segment has no key column
  std::int64_t segment_rows_ = 0;
  std::int64_t segment_bytes_ = 0;  // the open segment's share of bytes_ (estimated)
  double cost_scale_ = 1.0;         // decoded bytes per estimated byte, from the last long segment
  std::unique_ptr<columnar::ValueDecoder> key_;  // string/bytes keys with a column of their own
  std::map<const columnar::PayloadSchema*, std::unique_ptr<columnar::ValueDecoder>> registry_keys_;
  std::unique_ptr<columnar::SystemColumnsBuilder> system_;
  // Decoders by payload schema, kept across segments so a schema switching back and forth is
  // compiled once.
  std::map<const columnar::PayloadSchema*, std::unique_ptr<columnar::ValueDecoder>> decoders_;
  std::vector<std::shared_ptr<arrow::RecordBatch>> closed_;
  // Append's scratch for a record's headers, reused so a record with headers allocates nothing.
  std::vector<kafka::Header> headers_;
  std::vector<columnar::HeaderView> header_views_;
};

}  // namespace floe::pipeline
