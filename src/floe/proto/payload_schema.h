#pragma once
// Protobuf as a payload format of the decoder seam (columnar/value_decoder.h): Confluent
// Protobuf values and keys, decoded straight from the wire bytes into Arrow builders through a
// decode plan compiled once per message (types: type_mapping.h).
//
// A Protobuf record names its message per record, so picking the PayloadSchema is per record:
//   1. registry/wire_format: magic byte 0, schema id N -> the rest;
//   2. ParseMessageIndexes(rest) (wire_format.h) -> indexes, message bytes;
//   3. the ProtoSchema of id N (schema.h; parse once per id and cache it: it owns the pool);
//   4. schema->MessageFor(indexes, topic's `message:`) -> descriptor;
//   5. the PayloadSchema for (id, descriptor) — cache it too: building one compiles the plan,
//      and its columns are the writer schema the table is evolved to;
//   6. decoder->Append(message bytes): the bytes after the indexes, not the whole payload.
// SelectMessage does steps 2 and 4. Descriptors are pointers into the ProtoSchema's pool: the
// PayloadSchema keeps its ProtoSchema alive, so callers may drop theirs. ProtoSchema and
// PayloadSchema are immutable and may be shared between threads; decoders may not.
#include <memory>
#include <string>
#include <string_view>

#include "floe/columnar/value_decoder.h"
#include "floe/core/result.h"
#include "floe/proto/schema.h"

namespace google::protobuf {
class Descriptor;
}  // namespace google::protobuf

namespace floe::proto {

struct SelectedMessage {
  const google::protobuf::Descriptor* message = nullptr;
  std::string_view bytes;  // the message bytes, for ValueDecoder::Append
};
// `payload` starts right after the schema id; `configured_name` is the topic's `message:`
// (ProtoSchema::MessageFor says when it applies). Errors are kInvalidArgument (a bad record).
Result<SelectedMessage> SelectMessage(const ProtoSchema& schema, std::string_view payload,
                                      std::string_view configured_name = {});

// A message's fields as columns, one per field. Append takes the message bytes; AppendNull is
// kUnsupported (a tombstone has no columns). `message` must belong to `schema`'s pool.
Result<std::shared_ptr<const columnar::PayloadSchema>> MessagePayloadSchema(std::shared_ptr<const ProtoSchema> schema,
                                                                            const google::protobuf::Descriptor* message);

// A message as one nullable struct column `column`: for keys. A null row is a null key.
Result<std::shared_ptr<const columnar::PayloadSchema>> FieldPayloadSchema(std::shared_ptr<const ProtoSchema> schema,
                                                                          const google::protobuf::Descriptor* message,
                                                                          const std::string& column);

}  // namespace floe::proto
