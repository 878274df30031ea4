#pragma once
// The schemas records of one topic are written with, and what each asks of the table.
// Registry formats (payload_formats.h) carry a Schema Registry id (Confluent wire format);
// every id is fetched once, parsed once and turned once into (a) a PayloadSchema, the columns
// its records decode into and their decoders (columnar/value_decoder.h), and (b) the table
// columns it needs — value fields, the decoded key, the system columns — as an Iceberg schema
// that the sink merges into the table's (schema/evolution.h). string/bytes values and
// tombstones have one fixed writer schema each. Schemaless JSON values (`value: json`) have
// the schema inferred so far (writer_schemas_inferred.cc): it starts as the table's columns
// and widens when a record brings a property or type it lacks.
#include <arrow/type_fwd.h>

#include <cstdint>
#include <map>
#include <memory>
#include <string_view>

#include "floe/columnar/value_decoder.h"
#include "floe/core/config.h"
#include "floe/core/result.h"
#include "floe/json/inference.h"
#include "floe/pipeline/payload_formats.h"
#include "floe/registry/client.h"
#include "floe/schema/types.h"
#include "floe/sink/table_sink.h"

namespace floe::pipeline {

inline constexpr std::string_view kKeyColumn = "key";
inline constexpr std::string_view kRawValueColumn = "value";
inline constexpr std::int32_t kRawSchemaId = -1;        // string / bytes values
inline constexpr std::int32_t kTombstoneSchemaId = -2;  // null values
inline constexpr std::int32_t kInferredSchemaId = -3;   // schemaless JSON values

// The writer schema of a registry key (`key: avro`), which becomes the `key` column.
struct KeySchema {
  std::int32_t id = 0;
  std::shared_ptr<const columnar::PayloadSchema> payload;  // one column, `key`
  std::shared_ptr<arrow::Field> field;  // `key`, of the schema's Arrow type
};

struct WriterSchema {
  std::int32_t id = kRawSchemaId;
  std::shared_ptr<const columnar::PayloadSchema> payload;  // null for tombstones
  std::shared_ptr<arrow::Schema> columns;   // the value columns a segment of such records has
  const KeySchema* key = nullptr;           // a registry key that is not null: its schema
  schema::Schema table_columns;             // value, key and system columns as Iceberg columns (ids not final)
  int inferred = -1;                        // schemaless JSON: which inferred type (WriterSchemas::inferred_)
};

class WriterSchemas {
 public:
  // `registry` may be null for topics whose value format needs none. `table` is where
  // schemaless JSON topics read the columns inferred before (may be null for other formats).
  WriterSchemas(const TopicConfig& topic, registry::Client* registry, sink::TableSink* table = nullptr);

  struct Resolved {
    const WriterSchema* schema = nullptr;
    std::string_view payload;  // the bytes to decode (after the wire-format header)
  };
  // For a non-null value. kInvalidArgument: bad framing or a schema Floe cannot map (the
  // record is bad); kNotFound: unknown schema id (bad record); kUnavailable: the registry is
  // unreachable (retry later, never skip).
  Result<Resolved> Resolve(std::string_view value);
  const WriterSchema& tombstone() const { return *tombstone_; }

  // The table now holds `schema`'s columns. For schemaless JSON, a widened type becomes the
  // one later records are checked against only then: a widening the table refuses (e.g.
  // long to double) fails that record alone, not every record after it.
  void Accepted(const WriterSchema& schema);

  // A registry key (`key: avro`): the key's schema and payload, like Resolve for values.
  struct ResolvedKey {
    const KeySchema* schema = nullptr;
    std::string_view payload;
  };
  Result<ResolvedKey> ResolveKey(std::string_view key);
  // The writer schema for records with this value schema and this key schema (cached: a
  // segment is made of records that share both).
  Result<const WriterSchema*> WithKey(const WriterSchema* value, const KeySchema* key);

  // The Arrow fields a segment has besides its value columns: key (when decoded) and
  // system columns, in table order.
  const arrow::FieldVector& extra_fields() const { return extra_fields_; }

 private:
  Result<std::unique_ptr<WriterSchema>> Make(std::int32_t id, std::shared_ptr<const columnar::PayloadSchema> payload,
                                             const KeySchema* key = nullptr) const;
  // The registry schema `id` parsed for `role`, cached (failures are not: kUnavailable retries).
  Result<RegistrySchema*> Parsed(std::int32_t id, PayloadRole role);
  // Schemaless JSON (writer_schemas_inferred.cc).
  Result<Resolved> ResolveInferred(std::string_view value);
  Status SeedInferred();
  Result<const WriterSchema*> InferredSchema(json::JsonType type);

  const TopicConfig& topic_;
  registry::Client* registry_;
  arrow::FieldVector extra_fields_;
  std::unique_ptr<WriterSchema> raw_;
  std::unique_ptr<WriterSchema> tombstone_;
  std::map<std::pair<std::int32_t, PayloadRole>, std::unique_ptr<RegistrySchema>> parsed_;
  // By schema id and variant (payload_formats.h: Protobuf message index).
  std::map<std::pair<std::int32_t, std::string>, std::unique_ptr<WriterSchema>> by_id_;
  std::map<std::pair<std::int32_t, std::string>, std::unique_ptr<KeySchema>> keys_by_id_;
  // Resolve's last answer (entries of by_id_ are never removed once made).
  const WriterSchema* last_resolved_ = nullptr;
  std::pair<std::int32_t, std::string> last_resolved_id_;
  std::map<std::pair<const WriterSchema*, const KeySchema*>, std::unique_ptr<WriterSchema>> with_key_;
  // Schemaless JSON: every type inferred so far with its writer schema (kept: segments and
  // caches point at them), and the one the table holds (null until read from the table).
  struct Inferred {
    json::JsonType type;
    std::unique_ptr<WriterSchema> schema;
  };
  sink::TableSink* table_;
  std::unique_ptr<json::Inference> inference_;
  std::vector<Inferred> inferred_;
  int accepted_ = -1;
  Status init_;
};

// The key column's Arrow field for a topic, or nullptr when keys stay raw bytes in the
// system columns only (key: bytes with the nested layout) or when its type comes from each
// key's schema (registry keys, KeySchema::field).
std::shared_ptr<arrow::Field> KeyField(const TopicConfig& topic);

}  // namespace floe::pipeline
