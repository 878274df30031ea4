// Fuzz target: the Confluent wire format of a record value (magic byte, 4-byte schema id),
// then the Protobuf message-index list that follows the id in Protobuf records. Both are
// checked against the rule they implement, not only for crashes.
#include <cstring>

#include "floe/proto/wire_format.h"
#include "floe/registry/wire_format.h"
#include "fuzz_check.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace floe;
  using namespace floe::fuzz;
  const std::string_view message(reinterpret_cast<const char*>(data), size);
  auto framed = registry::ParseWireFormat(message);
  const bool well_formed = size >= 5 && data[0] == 0 && data[1] < 0x80;
  Check(framed.ok() == well_formed, "ParseWireFormat accepts exactly magic 0 + a non-negative 32-bit id");
  if (!framed.ok()) {
    Check(framed.status().code() == StatusCode::kInvalidArgument, "a framing error is kInvalidArgument");
    return 0;
  }
  const std::int32_t id = static_cast<std::int32_t>((std::uint32_t{data[1]} << 24) | (std::uint32_t{data[2]} << 16) |
                                                    (std::uint32_t{data[3]} << 8) | std::uint32_t{data[4]});
  Check(framed->schema_id == id, "the schema id is bytes 1-4, big-endian");
  Check(framed->payload.data() == message.data() + 5 && framed->payload.size() == size - 5,
        "the payload is everything after the 5-byte header, in place");

  auto indexes = proto::ParseMessageIndexes(framed->payload);
  if (!indexes.ok()) {
    Check(indexes.status().code() == StatusCode::kInvalidArgument, "a message-index error is kInvalidArgument");
    return 0;
  }
  Check(!indexes->indexes.empty(), "message indexes are never empty ([0] for count 0)");
  Check(static_cast<std::int64_t>(indexes->indexes.size()) <= proto::kMaxMessageIndexes, "at most kMaxMessageIndexes");
  for (std::int32_t i : indexes->indexes) Check(i >= 0, "message indexes are not negative");
  const char* end = framed->payload.data() + framed->payload.size();
  Check(indexes->message.data() + indexes->message.size() == end, "the message is the rest of the payload");
  // The framing read back: re-encoding the indexes gives the bytes they were read from
  // (Confluent writes [0] as the single byte 0, which the list form [1, 0] also reads as).
  const std::string encoded = proto::EncodeMessageIndexes(indexes->indexes);
  const std::size_t used = framed->payload.size() - indexes->message.size();
  auto again = proto::ParseMessageIndexes(encoded);
  CheckOk(again.status(), "encoded message indexes parse");
  Check(again->indexes == indexes->indexes && again->message.empty(), "message indexes survive encode and parse");
  Check(used >= 1, "the index list takes at least one byte");
  return 0;
}
