#pragma once
// The benchmark's event: a 13-field record of the kind a product analytics topic carries
// (ids, strings, doubles, a timestamp, a decimal, a nested struct, an array, an optional
// field), in four payload formats with the same values (issue 13):
//   avro        Confluent framing + Avro binary (~150 bytes with the header)
//   protobuf    Confluent framing + message-index byte 0 + a proto3 message with the same fields
//               (google.protobuf.Timestamp, confluent.type.Decimal with precision/scale params)
//   json_schema Confluent framing + JSON text, the schema a JSON Schema with Connect annotations
//               (Timestamp on an integer of epoch millis, Decimal on a number)
//   json        the same JSON text, no framing and no registry (`value: json`)
// One deterministic generator is shared by the producer, the encode-only baseline and the
// microbenchmarks, so every figure measures the same bytes.
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "floe/avro/binary_writer.h"

namespace floe::bench {

enum class Format { kAvro, kProtobuf, kJsonSchema, kJson };

std::optional<Format> ParseFormat(std::string_view name);  // avro | protobuf | json_schema | json
std::string_view FormatName(Format format);
// The registry's schemaType of the format's schemas (AVRO, PROTOBUF, JSON); empty for json.
std::string_view SchemaType(Format format);

// The writer schema, as registered with the schema registry (Avro JSON, .proto text or JSON
// Schema); empty for schemaless json.
std::string_view EventSchema(Format format);
std::string_view EventSchemaJson();  // the Avro schema

// Appends event number `i` (Avro binary, no framing) to `w`. `ts_ms` is the event's
// timestamp field; the producer passes the produce time when it paces itself, so the field
// doubles as a freshness probe.
void EncodeEvent(std::uint64_t i, std::int64_t ts_ms, avro::BinaryWriter& w);

// Appends event `i` in `format` without any framing: what Floe's decoder is handed (Avro
// binary, the Protobuf message bytes after the message index, JSON text).
void AppendEvent(Format format, std::uint64_t i, std::int64_t ts_ms, std::string& out);

// Appends the whole Kafka value: the Confluent header (magic 0, schema id big-endian) and, for
// Protobuf, the message-index array [0] (one byte 0), then the event; json has no framing.
void AppendFramedEvent(Format format, std::int32_t schema_id, std::uint64_t i, std::int64_t ts_ms, std::string& out);

// Confluent wire-format header: magic byte 0, then the schema id big-endian.
void WriteConfluentHeader(std::int32_t schema_id, avro::BinaryWriter& w);

// `count` events starting at `first`, each encoded on its own (no framing): the in-memory
// input of the encode-only baseline and the microbenchmarks.
std::vector<std::string> EncodeEvents(std::uint64_t first, std::uint64_t count, std::int64_t base_ms);
std::vector<std::string> EncodeEvents(Format format, std::uint64_t first, std::uint64_t count, std::int64_t base_ms);

// Bytes of framing AppendFramedEvent puts before the event (5 or 6; 0 for json).
std::size_t FramingBytes(Format format);

}  // namespace floe::bench
