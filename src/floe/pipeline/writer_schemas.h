#pragma once
// The schemas records of one topic are written with, and what each asks of the table.
// Avro values carry a Schema Registry id (Confluent wire format); every id is fetched once,
// parsed once and turned once into (a) the Arrow columns its records decode into and (b)
// the table columns it needs — value fields, the decoded key, the system columns — as an
// Iceberg schema that the table writer merges into the table's (schema/evolution.h).
// string/bytes values and tombstones have one fixed writer schema each.
#include <arrow/type_fwd.h>

#include <cstdint>
#include <map>
#include <memory>
#include <string_view>

#include "floe/avro/schema.h"
#include "floe/core/config.h"
#include "floe/core/result.h"
#include "floe/registry/client.h"
#include "floe/schema/types.h"

namespace floe::pipeline {

inline constexpr std::string_view kKeyColumn = "key";
inline constexpr std::string_view kRawValueColumn = "value";
inline constexpr std::int32_t kRawSchemaId = -1;        // string / bytes values
inline constexpr std::int32_t kTombstoneSchemaId = -2;  // null values

struct WriterSchema {
  std::int32_t id = kRawSchemaId;
  avro::NodePtr avro;                       // Avro values only
  std::shared_ptr<arrow::Schema> columns;   // the batch a segment of such records becomes
  schema::Schema table_columns;             // the same as Iceberg columns (ids not final)
};

class WriterSchemas {
 public:
  // `registry` may be null for topics whose value format needs none.
  WriterSchemas(const TopicConfig& topic, registry::Client* registry);

  struct Resolved {
    const WriterSchema* schema = nullptr;
    std::string_view payload;  // the bytes to decode (after the wire-format header)
  };
  // For a non-null value. kInvalidArgument: bad framing or a schema Floe cannot map (the
  // record is bad); kNotFound: unknown schema id (bad record); kUnavailable: the registry is
  // unreachable (retry later, never skip).
  Result<Resolved> Resolve(std::string_view value);
  const WriterSchema& tombstone() const { return *tombstone_; }

  // The Arrow fields a segment has besides its value columns: key (when decoded) and
  // system columns, in table order.
  const arrow::FieldVector& extra_fields() const { return extra_fields_; }

 private:
  Result<std::unique_ptr<WriterSchema>> Make(std::int32_t id, avro::NodePtr avro,
                                             std::shared_ptr<arrow::Schema> value_columns) const;
  Result<const WriterSchema*> AvroSchema(std::int32_t id);

  const TopicConfig& topic_;
  registry::Client* registry_;
  arrow::FieldVector extra_fields_;
  std::unique_ptr<WriterSchema> raw_;
  std::unique_ptr<WriterSchema> tombstone_;
  std::map<std::int32_t, std::unique_ptr<WriterSchema>> by_id_;
  Status init_;
};

// The key column's Arrow field for a topic, or nullptr when keys stay raw bytes in the
// system columns only (key: bytes with the nested layout).
std::shared_ptr<arrow::Field> KeyField(const TopicConfig& topic);

}  // namespace floe::pipeline
