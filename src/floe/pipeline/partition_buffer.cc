#include "floe/pipeline/partition_buffer.h"

#include <algorithm>
#include <arrow/api.h>
#include <arrow/util/byte_size.h>

#include "floe/core/arrow_interop.h"
#include "floe/pipeline/payload_formats.h"

namespace floe::pipeline {

namespace {

// What a record costs in memory once decoded, roughly: its bytes plus per-row overhead of
// the system columns. Only a first guess for the open segment: a closed segment counts what
// its columns really take, and teaches the guess for the next one (CloseSegment).
std::int64_t RecordCost(const kafka::Record& record, const std::vector<kafka::Header>& headers) {
  std::int64_t bytes = 64 + static_cast<std::int64_t>(record.topic().size());
  if (auto v = record.value()) bytes += static_cast<std::int64_t>(v->size());
  if (auto k = record.key()) bytes += static_cast<std::int64_t>(k->size());
  for (const auto& h : headers) bytes += 16 + static_cast<std::int64_t>(h.key.size() + (h.value ? h.value->size() : 0));
  return bytes;
}

// A segment this long says what a row of its schema really costs; a shorter one is noise.
constexpr std::int64_t kRowsToLearnCost = 1000;

}  // namespace

PartitionBuffer::PartitionBuffer(const TopicConfig& topic, const WriterSchemas& schemas, std::int32_t partition)
    : topic_(topic), schemas_(schemas), partition_(partition) {}

Result<std::unique_ptr<PartitionBuffer>> PartitionBuffer::Make(const TopicConfig& topic, const WriterSchemas& schemas,
                                                               std::int32_t partition,
                                                               std::optional<std::int64_t> committed) {
  std::unique_ptr<PartitionBuffer> b(new PartitionBuffer(topic, schemas, partition));
  b->committed_ = committed;
  b->next_offset_ = committed;
  if (auto key = KeyField(topic)) {
    FLOE_ASSIGN_OR_RETURN(auto payload, UnframedKeyPayloadSchema(topic.key, key->name()));
    FLOE_ASSIGN_OR_RETURN(b->key_, payload->NewDecoder());
  }
  const auto layout = topic.system_columns == SystemColumns::kTableflow ? columnar::SystemColumnsLayout::kTableflow
                                                                        : columnar::SystemColumnsLayout::kNested;
  FLOE_ASSIGN_OR_RETURN(b->system_, columnar::SystemColumnsBuilder::Make(layout));
  return b;
}

Result<columnar::ValueDecoder*> PartitionBuffer::ValueDecoderFor(const WriterSchema& schema) {
  if (!schema.payload) return nullptr;  // tombstones
  auto& slot = decoders_[schema.payload.get()];
  if (!slot) {
    FLOE_ASSIGN_OR_RETURN(slot, schema.payload->NewDecoder());
  }
  return slot.get();
}

Result<columnar::ValueDecoder*> PartitionBuffer::KeyDecoderFor(const WriterSchema& schema) {
  if (key_) return key_.get();
  if (schema.key == nullptr) return nullptr;  // null keys: the table's key column stays null
  auto& slot = registry_keys_[schema.key->payload.get()];
  if (!slot) {
    FLOE_ASSIGN_OR_RETURN(slot, schema.key->payload->NewDecoder());
  }
  return slot.get();
}

Status PartitionBuffer::Append(const kafka::Record& record, const WriterSchema& schema, std::string_view payload,
                               std::optional<std::string_view> key_payload) {
  const auto key = record.key();
  if (segment_schema_ != &schema) {
    FLOE_RETURN_IF_ERROR(CloseSegment());
    FLOE_ASSIGN_OR_RETURN(segment_values_, ValueDecoderFor(schema));
    FLOE_ASSIGN_OR_RETURN(segment_key_, KeyDecoderFor(schema));
    segment_schema_ = &schema;
  }
  // The key is checked before anything is appended, so that a bad key leaves the buffer untouched.
  if (segment_key_ != nullptr && key_payload) {
    auto checked = segment_key_->Validate(*key_payload);
    if (!checked.ok()) return checked.WithContext("key");
  }
  if (segment_values_ != nullptr) FLOE_RETURN_IF_ERROR(segment_values_->Append(payload));

  // From here on only allocation can fail.
  if (segment_key_ != nullptr) {
    FLOE_RETURN_IF_ERROR(key_payload ? segment_key_->Append(*key_payload) : segment_key_->AppendNull());
  }
  // Scratch vectors kept across records: one partition's records are appended by one thread at a time.
  record.Headers(headers_);
  header_views_.clear();
  for (const auto& h : headers_) header_views_.push_back({h.key, h.value});
  columnar::RecordMetadata meta;
  meta.topic = record.topic();
  meta.partition = record.partition();
  meta.offset = record.offset();
  if (record.timestamp_type() != "NoTimestampType" && record.timestamp_ms() >= 0) meta.timestamp_ms = record.timestamp_ms();
  meta.timestamp_type = record.timestamp_type();
  meta.leader_epoch = record.leader_epoch();
  meta.key = key;
  meta.headers = header_views_;
  FLOE_RETURN_IF_ERROR(system_->Append(meta));
  ++segment_rows_;
  ++rows_;
  const auto cost = static_cast<std::int64_t>(static_cast<double>(RecordCost(record, headers_)) * cost_scale_);
  bytes_ += cost;
  segment_bytes_ += cost;
  Advance(record.offset());
  if (record.timestamp_ms() >= 0) newest_timestamp_ms_ = std::max(newest_timestamp_ms_.value_or(0), record.timestamp_ms());
  return Status::OK();
}

void PartitionBuffer::Pass(const kafka::Record& record) { Advance(record.offset()); }

void PartitionBuffer::SkipByOperator(std::int64_t offset) {
  Advance(offset);
  operator_skipped_.push_back(offset);
}

void PartitionBuffer::Advance(std::int64_t offset) {
  if (!has_unflushed()) oldest_ = std::chrono::steady_clock::now();
  next_offset_ = offset + 1;
}

Status PartitionBuffer::CloseSegment() {
  if (segment_rows_ == 0) return Status::OK();
  arrow::FieldVector fields;
  arrow::ArrayVector arrays;
  if (segment_values_ != nullptr) {
    FLOE_ASSIGN_OR_RETURN(auto values, segment_values_->Flush());
    for (int i = 0; i < values->num_columns(); ++i) {
      fields.push_back(values->schema()->field(i));
      arrays.push_back(values->column(i));
    }
  }
  if (segment_key_ != nullptr) {
    FLOE_ASSIGN_OR_RETURN(auto keys, segment_key_->Flush());
    fields.push_back(keys->schema()->field(0));
    arrays.push_back(keys->column(0));
  }
  FLOE_ASSIGN_OR_RETURN(auto system, system_->Finish());
  const auto system_fields = columnar::SystemColumnsBuilder::Fields(
      topic_.system_columns == SystemColumns::kTableflow ? columnar::SystemColumnsLayout::kTableflow
                                                         : columnar::SystemColumnsLayout::kNested);
  for (std::size_t i = 0; i < system.size(); ++i) {
    fields.push_back(system_fields[i]);
    arrays.push_back(system[i]);
  }
  for (const auto& a : arrays) {
    if (a->length() != segment_rows_) {
      return Status::Internal("segment columns disagree on the row count (" + std::to_string(a->length()) + " vs " +
                              std::to_string(segment_rows_) + ")");
    }
  }
  closed_.push_back(arrow::RecordBatch::Make(arrow::schema(fields), segment_rows_, arrays));
  // buffer_memory and target_file_size count what the columns take, not the guess: decoded
  // Arrow columns of the bench's events are ~1.5x the records' bytes, so with the guess alone
  // Floe held 83 MiB of columns at a 64 MiB budget.
  const auto actual = arrow::util::TotalBufferSize(*closed_.back());
  if (segment_rows_ >= kRowsToLearnCost && segment_bytes_ > 0) {
    cost_scale_ = std::clamp(cost_scale_ * static_cast<double>(actual) / static_cast<double>(segment_bytes_), 0.25, 16.0);
  }
  bytes_ += actual - segment_bytes_;
  segment_bytes_ = 0;
  segment_rows_ = 0;
  segment_schema_ = nullptr;
  segment_values_ = nullptr;
  segment_key_ = nullptr;
  return Status::OK();
}

Result<const PartitionBuffer::Flush*> PartitionBuffer::BeginFlush() {
  if (flushing_ || !has_unflushed()) return Status::Internal("partition " + std::to_string(partition_) + ": nothing to flush");
  FLOE_RETURN_IF_ERROR(CloseSegment());
  flush_ = Flush{};
  flush_.expected = committed_;
  flush_.next_offset = *next_offset_;
  flush_.batches = std::move(closed_);
  flush_.operator_skipped = std::move(operator_skipped_);
  flush_.rows = rows_;
  flush_.bytes = bytes_;
  flush_.newest_timestamp_ms = newest_timestamp_ms_;
  flush_.oldest = oldest_;
  closed_.clear();
  operator_skipped_.clear();
  newest_timestamp_ms_.reset();
  flushing_ = true;
  return &flush_;
}

void PartitionBuffer::EndFlush(bool committed) {
  if (!flushing_) return;
  flushing_ = false;
  if (committed) {
    rows_ -= flush_.rows;
    bytes_ -= flush_.bytes;
    committed_ = flush_.next_offset;
  } else {
    // In front of what came since: the next flush begins at committed_ again, with every row.
    closed_.insert(closed_.begin(), flush_.batches.begin(), flush_.batches.end());
    operator_skipped_.insert(operator_skipped_.begin(), flush_.operator_skipped.begin(), flush_.operator_skipped.end());
    if (flush_.newest_timestamp_ms) {
      newest_timestamp_ms_ = std::max(newest_timestamp_ms_.value_or(*flush_.newest_timestamp_ms), *flush_.newest_timestamp_ms);
    }
    oldest_ = flush_.oldest;
  }
  flush_ = Flush{};
}

void PartitionBuffer::Reset(std::optional<std::int64_t> committed) {
  // Open segment builders are flushed and dropped, so no half segment survives.
  (void)CloseSegment();
  closed_.clear();
  flushing_ = false;
  flush_ = Flush{};
  rows_ = 0;
  bytes_ = 0;
  segment_bytes_ = 0;
  committed_ = committed;
  next_offset_ = committed;
  operator_skipped_.clear();  // the skipped record comes again and suspends again: skip it again
  newest_timestamp_ms_.reset();
  ++resets_;
}

}  // namespace floe::pipeline
