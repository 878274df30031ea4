#pragma once
// The decode plan: a message descriptor compiled once into flat per-message field tables
// that decode wire bytes straight into Arrow builders. Private to the module; callers use
// payload_schema.h.
//
// Why a plan (as for Avro, avro/decode_plan.h): decoding is Floe's hot loop. Everything that
// does not depend on the bytes — field number -> field, its wire type, its builder, its
// default, enum names, decimal scale — is decided here, so decoding a field is a table lookup,
// a switch on a small kind and an append. No DynamicMessage, no reflection per record.
//
// Why two passes per message: Protobuf fields come in any order, a singular field may come
// several times (the last one wins; a message field merges, i.e. its occurrences are read as
// one concatenation), and the elements of a repeated field may be interleaved with other
// fields. Arrow builders need values in column order. So each message is first *scanned*
// into per-field slots (where the last value is, or the chain of all occurrences), then its
// fields are *emitted* in declaration order from the slots, recursing into nested messages
// one at a time with a scratch frame per nesting depth.
//
// The Arrow types come out of the same compilation (Plan::columns), so plan and builders
// cannot disagree; type_mapping.h documents them.
#include <arrow/type_fwd.h>

#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "floe/core/result.h"

namespace google::protobuf {
class Descriptor;
class EnumDescriptor;
}  // namespace google::protobuf

namespace floe::proto::internal {

enum class Kind : std::uint8_t {
  kInt32, kSInt32, kSFixed32, kInt64, kSInt64, kSFixed64, kUInt32, kFixed32, kUInt64, kFixed64,
  kBool, kFloat, kDouble, kString, kBytes, kEnum,
  // Message-like: their values are sub-messages on the wire.
  kMessage, kTimestamp, kDuration, kDecimal, kDate, kWrapper,
};
inline bool IsMessageLike(Kind k) { return k >= Kind::kMessage; }

enum class Shape : std::uint8_t {
  kImplicit,  // no presence: absent -> the default (proto3 scalars; map keys and values)
  kRequired,  // proto2 `required`: absent is an error
  kOptional,  // presence: absent -> the declared proto2 default if any, else null
  kRepeated,  // list; scalars packed or not
  kMap,       // map; `message` is the entry (key, value)
};

struct EnumNames {
  const google::protobuf::EnumDescriptor* type = nullptr;
  std::int32_t min = 0;
  std::vector<const std::string*> dense;  // number - min -> name; empty when the range is too sparse
};

struct Field {
  std::uint32_t number = 0;
  Kind kind = Kind::kInt32;
  Kind wrapped = Kind::kInt32;  // kWrapper: the kind of the wrapped `value` (field 1)
  Shape shape = Shape::kImplicit;
  std::uint8_t wire = 0;        // the wire type of one value
  bool packable = false;        // repeated numeric: may also come packed (length-delimited)
  bool has_default = false;     // absent -> default_bits / default_text rather than null/error
  std::uint64_t default_bits = 0;  // the default as its wire value would be (varint or fixed bits)
  std::string default_text;        // string/bytes default
  std::uint32_t builder = 0;  // index into the decoder's builder table: the field's own builder
  std::uint32_t item = 0;     // the builder each value goes to (a list's values; else == builder)
  std::uint32_t message = 0;  // kMessage, kMap: index into Plan::messages
  std::uint32_t enum_names = 0;  // kEnum (also a kWrapper never wraps an enum): index into Plan::enums
  std::int32_t oneof = -1;       // index into MessagePlan::oneofs, or -1
  std::int32_t precision = 0;    // kDecimal
  std::int32_t scale = 0;
  std::string path;  // for error messages: "order.lines[].amount"
};

struct MessagePlan {
  std::vector<Field> fields;  // declaration order = column order
  std::vector<std::uint32_t> dense;  // field number -> index + 1 (0: unknown), for small numbers
  std::vector<std::pair<std::uint32_t, std::uint32_t>> sparse;  // (number, index), sorted, for the rest
  std::int64_t builder = -1;  // its struct builder; -1 for top-level columns and map entries
  // Each oneof's member field indexes: a value for one member clears the others, as setting a
  // oneof member does in libprotobuf (the last one on the wire is the one set).
  std::vector<std::vector<std::uint32_t>> oneofs;

  // The index of the field with this number, or -1 (an unknown field: skipped).
  std::int64_t Lookup(std::uint32_t number) const;
};

struct Plan {
  std::vector<MessagePlan> messages;  // [0] is the root
  std::vector<EnumNames> enums;
  std::shared_ptr<arrow::Schema> columns;
  std::uint32_t builder_count = 0;
  bool root_is_struct = false;  // the key form: one struct column
};

// `key_column` empty: one column per field of `message`; else one nullable struct column of
// that name. Refuses recursive messages (naming the cycle), empty messages and bad decimals.
Result<std::shared_ptr<const Plan>> CompilePlan(const google::protobuf::Descriptor& message,
                                                const std::string& key_column = {});

// Per-decoder scratch: a frame of slots per nesting depth, reused across records.
struct Occurrence {
  std::uint64_t bits = 0;       // varint or fixed value
  const char* data = nullptr;   // length-delimited (or group) contents
  std::uint32_t size = 0;
  std::uint8_t wire = 0;
  std::uint32_t next = 0;       // the next occurrence of the same field in Frame::chain (0: none)
};
struct Slot {
  std::uint32_t head = 0;  // 1-based into Frame::chain; 0: absent
  std::uint32_t tail = 0;
};
struct MapKey {
  std::uint64_t value = 0;  // integer and bool keys, normalized (two encodings of one key compare equal)
  std::string_view text;    // string keys
  std::uint32_t entry = 0;  // the entry's position among the map's entries
};
struct Frame {
  std::vector<Slot> slots;
  std::vector<Occurrence> chain;  // [0] unused, so that 0 means none
  std::vector<MapKey> keys;       // a map field's keys, for de-duplication
  std::vector<std::uint8_t> keep;
};
struct Scratch {
  std::vector<Frame> frames;
};

// One message (the bytes after the message indexes) appended as one row, to the builders the
// plan's builder indexes name. Validate (kAppend = false) reads and checks exactly as Decode
// does but touches no builder. On error Decode may have appended part of the row.
Status Decode(const Plan& plan, std::span<arrow::ArrayBuilder* const> builders, Scratch& scratch,
              std::string_view message);
Status Validate(const Plan& plan, Scratch& scratch, std::string_view message);

}  // namespace floe::proto::internal
