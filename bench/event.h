#pragma once
// The benchmark's event: a ~12-field Avro record of the kind a product analytics topic
// carries (ids, strings, doubles, a timestamp, a decimal, a nested struct, an array, an
// optional field), ~150 bytes encoded. One deterministic generator is shared by the
// producer, the encode-only baseline and the microbenchmarks, so every figure measures
// the same bytes.
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "floe/avro/binary_writer.h"

namespace floe::bench {

// The writer schema, as registered with the schema registry.
std::string_view EventSchemaJson();

// Appends event number `i` (Avro binary, no framing) to `w`. `ts_ms` is the event's
// timestamp-millis field; the producer passes the produce time when it paces itself, so
// the field doubles as a freshness probe.
void EncodeEvent(std::uint64_t i, std::int64_t ts_ms, avro::BinaryWriter& w);

// Confluent wire-format header: magic byte 0, then the schema id big-endian.
void WriteConfluentHeader(std::int32_t schema_id, avro::BinaryWriter& w);

// `count` events starting at `first`, each encoded on its own (no framing): the in-memory
// input of the encode-only baseline and the microbenchmarks.
std::vector<std::string> EncodeEvents(std::uint64_t first, std::uint64_t count, std::int64_t base_ms);

}  // namespace floe::bench
