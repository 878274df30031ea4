#pragma once
// The columns Floe adds to every table beside the record's value: where the record came
// from (topic, partition, offset), its timestamp, headers and raw key. Two layouts
// (docs/tables.md): `nested` puts them in one struct column `_kafka`; `tableflow` writes
// Confluent Tableflow's flat `$$topic`, `$$partition`, … columns for users migrating from it.
// The columnar module knows nothing of librdkafka: callers describe each record with plain
// views (RecordMetadata), which point into the consumed message without copies.
#include <arrow/array/builder_base.h>
#include <arrow/type_fwd.h>

#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string_view>
#include <vector>

#include "floe/columnar/builder_capacity.h"
#include "floe/core/result.h"

namespace floe::columnar {

enum class SystemColumnsLayout { kNested, kTableflow };

inline constexpr std::string_view kNestedSystemColumn = "_kafka";
// Tableflow layout: the offset column is what `floe` sorts files by and fencing reads.
inline constexpr std::string_view kTableflowOffsetColumn = "$$offset";

struct HeaderView {
  std::string_view key;
  std::optional<std::string_view> value;  // Kafka allows null header values
};

struct RecordMetadata {
  std::string_view topic;
  std::int32_t partition = 0;
  std::int64_t offset = 0;
  std::optional<std::int64_t> timestamp_ms;  // nullopt: the record has no timestamp
  std::string_view timestamp_type;           // "CreateTime" / "LogAppendTime"
  std::optional<std::int32_t> leader_epoch;
  std::optional<std::string_view> key;       // raw key bytes; nullopt = null key
  std::span<const HeaderView> headers;
};

class SystemColumnsBuilder {
 public:
  static Result<std::unique_ptr<SystemColumnsBuilder>> Make(SystemColumnsLayout layout,
                                                            arrow::MemoryPool* pool = arrow::default_memory_pool());
  // The Arrow fields this layout adds (no field ids: the table assigns those).
  static arrow::FieldVector Fields(SystemColumnsLayout layout);

  // Appends one row. Fails only when Arrow cannot allocate.
  Status Append(const RecordMetadata& record);
  // One array per Fields() entry with the rows since the last Finish; the builder restarts.
  Result<arrow::ArrayVector> Finish();
  std::int64_t num_rows() const { return rows_; }

 private:
  SystemColumnsBuilder() = default;
  Status AppendNested(const RecordMetadata& r);
  Status AppendFlat(const RecordMetadata& r);

  SystemColumnsLayout layout_ = SystemColumnsLayout::kNested;
  std::vector<std::unique_ptr<arrow::ArrayBuilder>> columns_;
  BuilderCapacity capacity_;  // the columns sized from the last batch
  std::int64_t rows_ = 0;
};

}  // namespace floe::columnar
