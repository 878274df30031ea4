// Decode / Validate: wire bytes -> builders through the plan. See decode_plan_internal.h for
// the two passes (scan into slots, emit in field order) and why.
#include <arrow/array/builder_binary.h>
#include <arrow/array/builder_decimal.h>
#include <arrow/array/builder_nested.h>
#include <arrow/array/builder_primitive.h>
#include <arrow/util/decimal.h>
#include <arrow/util/utf8.h>

#include <algorithm>
#include <array>
#include <cstring>

#include "floe/core/arrow_interop.h"
#include "floe/proto/decode_plan_internal.h"
#include "floe/proto/scalar_values_internal.h"
#include "floe/proto/wire_reader_internal.h"

namespace floe::proto::internal {

namespace {

// Appends only when decoding; Validate instantiates the same code without the builders.
#define FLOE_PROTO_APPEND(expr)                          \
  do {                                                    \
    if constexpr (kAppend) {                              \
      FLOE_RETURN_IF_ARROW_ERROR(expr);                   \
    }                                                     \
  } while (0)

template <bool kAppend>
class Runner {
 public:
  Runner(const Plan& plan, std::span<arrow::ArrayBuilder* const> builders, Scratch& scratch, const char* base)
      : plan_(plan), builders_(builders), scratch_(scratch), base_(base) {
    if (scratch_.frames.size() < static_cast<std::size_t>(kMaxDepth) + 2) scratch_.frames.resize(kMaxDepth + 2);
  }

  // The message whose bytes are the occurrence `first` and, when `chain` is given, the ones
  // linked after it: several occurrences of a singular message field merge, which is the
  // same as reading their concatenation.
  Status Message(const MessagePlan& m, const Occurrence* first, const std::vector<Occurrence>* chain, int depth) {
    if (depth > kMaxDepth) [[unlikely]] {
      return Status::InvalidArgument("messages nested deeper than " + std::to_string(kMaxDepth) + " levels");
    }
    Frame& f = scratch_.frames[static_cast<std::size_t>(depth)];
    f.slots.assign(m.fields.size(), Slot{});
    f.chain.resize(1);
    for (const Occurrence* o = first; o != nullptr; o = Next(o, chain)) {
      FLOE_RETURN_IF_ERROR(Scan(m, *o, f, depth));
    }
    if (m.builder >= 0) FLOE_PROTO_APPEND(Cast<arrow::StructBuilder>(m.builder)->Append());
    for (std::size_t i = 0; i < m.fields.size(); ++i) {
      FLOE_RETURN_IF_ERROR(EmitField(m.fields[i], f, f.slots[i], depth));
    }
    return Status::OK();
  }

 private:
  template <typename B>
  B* Cast(std::int64_t index) const { return static_cast<B*>(builders_[static_cast<std::size_t>(index)]); }
  static const Occurrence* Next(const Occurrence* o, const std::vector<Occurrence>* chain) {
    return chain != nullptr && o->next != 0 ? &(*chain)[o->next] : nullptr;
  }
  std::size_t At(const char* p) const { return static_cast<std::size_t>(p - base_); }

  // Pass 1: where each field's values are. Checks the structure of this message's bytes.
  Status Scan(const MessagePlan& m, const Occurrence& span, Frame& f, int depth) {
    WireReader in(span.data, span.data + span.size, base_);
    while (!in.at_end()) {
      const std::size_t tag_at = in.offset();
      std::uint32_t number = 0;
      std::uint8_t wire = 0;
      FLOE_RETURN_IF_ERROR(in.ReadTag(&number, &wire));
      const std::int64_t index = m.Lookup(number);
      if (index < 0) {  // unknown: a newer writer's field, skipped like libprotobuf does
        Status st = in.Skip(number, wire, depth);
        if (!st.ok()) return st.WithContext("unknown field " + std::to_string(number));
        continue;
      }
      const Field& field = m.fields[static_cast<std::size_t>(index)];
      Occurrence v;
      v.wire = wire;
      Status st;
      if (wire == field.wire || (wire == kLengthDelimited && field.packable)) {
        switch (wire) {
          case kVarint: st = in.ReadVarint(&v.bits); break;
          case kFixed64: st = in.ReadFixed64(&v.bits); break;
          case kFixed32: {
            std::uint32_t bits = 0;
            st = in.ReadFixed32(&bits);
            v.bits = bits;
            break;
          }
          default: {  // length-delimited, or a group's contents
            std::string_view bytes;
            st = wire == kStartGroup ? in.Skip(number, wire, depth + 1, &bytes) : in.ReadLengthDelimited(&bytes);
            v.data = bytes.data();
            v.size = static_cast<std::uint32_t>(bytes.size());
          }
        }
      } else {
        // libprotobuf would keep it as an unknown field; here it means the bytes were not
        // written with this schema, so the record is refused rather than silently emptied.
        st = in.Invalid(tag_at, std::string("wire type ") + WireTypeName(wire) + " where its type needs " +
                                    WireTypeName(field.wire));
      }
      if (!st.ok()) return st.WithContext("field '" + field.path + "' (number " + std::to_string(number) + ")");
      if (field.oneof >= 0) [[unlikely]] {
        for (std::uint32_t member : m.oneofs[static_cast<std::size_t>(field.oneof)]) {
          if (member == static_cast<std::uint32_t>(index) || f.slots[member].head == 0) continue;
          FLOE_RETURN_IF_ERROR(CheckDiscarded(m.fields[member], f, f.slots[member], depth));
          f.slots[member] = Slot{};
        }
      }
      Slot& slot = f.slots[static_cast<std::size_t>(index)];
      if (field.kind == Kind::kString && field.shape != Shape::kRepeated && slot.head != 0) [[unlikely]] {
        FLOE_RETURN_IF_ERROR(CheckUtf8(field, f.chain[slot.head]));  // written again: the last wins
      }
      Record(field, slot, v, f);
    }
    return Status::OK();
  }

  // A value the wire replaces (a singular string written again, a oneof member replaced by
  // another) never reaches a column, but libprotobuf parses it before dropping it and refuses
  // the whole message when it is malformed (invalid UTF-8, a broken nested message). It is
  // checked here too, so that a record is never accepted that libprotobuf, and so the
  // producer's consumers, would refuse (type_mapping.h: only ever stricter).
  Status CheckDiscarded(const Field& field, const Frame& f, const Slot& s, int depth) {
    if (field.kind != Kind::kString && !IsMessageLike(field.kind)) return Status::OK();
    Runner<false> check(plan_, {}, scratch_, base_);  // frames past `depth` are free while scanning
    return check.EmitField(field, f, s, depth);
  }

  Status CheckUtf8(const Field& field, const Occurrence& v) const {
    if (!arrow::util::ValidateUTF8(std::string_view(v.data, v.size))) [[unlikely]] {
      return Status::InvalidArgument("field '" + field.path + "' is not valid UTF-8 (the string at byte " +
                                     std::to_string(v.data == nullptr ? 0 : At(v.data)) + ")");
    }
    return Status::OK();
  }

  static void Record(const Field& field, Slot& slot, const Occurrence& v, Frame& f) {
    const bool last_wins = !IsMessageLike(field.kind) && field.shape != Shape::kRepeated && field.shape != Shape::kMap;
    if (last_wins && slot.head != 0) {
      f.chain[slot.head] = v;
      return;
    }
    f.chain.push_back(v);
    const auto at = static_cast<std::uint32_t>(f.chain.size() - 1);
    if (slot.head == 0) {
      slot.head = at;
    } else {
      f.chain[slot.tail].next = at;
    }
    slot.tail = at;
  }

  // Pass 2: one field's value(s), in column order.
  Status EmitField(const Field& field, const Frame& f, const Slot& s, int depth) {
    switch (field.shape) {
      case Shape::kRepeated: {
        FLOE_PROTO_APPEND(Cast<arrow::ListBuilder>(field.builder)->Append());
        for (std::uint32_t k = s.head; k != 0; k = f.chain[k].next) {
          const Occurrence& o = f.chain[k];
          if (IsMessageLike(field.kind)) {
            FLOE_RETURN_IF_ERROR(MessageLike(field, &o, nullptr, depth));
          } else if (o.wire == kLengthDelimited && field.packable) {
            FLOE_RETURN_IF_ERROR(Packed(field, o));
          } else {
            FLOE_RETURN_IF_ERROR(Scalar(field, field.kind, o));
          }
        }
        return Status::OK();
      }
      case Shape::kMap: return Map(field, f, s, depth);
      default: break;
    }
    if (s.head != 0) {
      if (IsMessageLike(field.kind)) return MessageLike(field, &f.chain[s.head], &f.chain, depth);
      return Scalar(field, field.kind, f.chain[s.head]);
    }
    if (field.shape == Shape::kRequired) [[unlikely]] {
      return Status::InvalidArgument("field '" + field.path + "' is required but absent");
    }
    if (field.has_default) {
      if (IsMessageLike(field.kind)) return MessageLike(field, nullptr, nullptr, depth);  // the empty message
      Occurrence d;
      d.bits = field.default_bits;
      d.data = field.default_text.data();
      d.size = static_cast<std::uint32_t>(field.default_text.size());
      return Scalar(field, field.kind, d);
    }
    FLOE_PROTO_APPEND(Cast<arrow::ArrayBuilder>(field.item)->AppendNull());
    return Status::OK();
  }

  Status Packed(const Field& field, const Occurrence& o) {
    WireReader in(o.data, o.data + o.size, base_);
    while (!in.at_end()) {
      Occurrence v;
      Status st;
      if (field.wire == kVarint) {
        st = in.ReadVarint(&v.bits);
      } else if (field.wire == kFixed64) {
        st = in.ReadFixed64(&v.bits);
      } else {
        std::uint32_t bits = 0;
        st = in.ReadFixed32(&bits);
        v.bits = bits;
      }
      if (!st.ok()) return st.WithContext("packed field '" + field.path + "'");
      FLOE_RETURN_IF_ERROR(Scalar(field, field.kind, v));
    }
    return Status::OK();
  }

  Status Scalar(const Field& field, Kind kind, const Occurrence& v) {
    switch (kind) {
      case Kind::kInt32: case Kind::kSInt32: case Kind::kSFixed32:
        FLOE_PROTO_APPEND(Cast<arrow::Int32Builder>(field.item)->Append(AsInt32(kind, v.bits)));
        return Status::OK();
      case Kind::kInt64: case Kind::kSInt64: case Kind::kSFixed64: case Kind::kUInt32: case Kind::kFixed32:
        FLOE_PROTO_APPEND(Cast<arrow::Int64Builder>(field.item)->Append(AsInt64(kind, v.bits)));
        return Status::OK();
      case Kind::kUInt64: case Kind::kFixed64:
        FLOE_PROTO_APPEND(Cast<arrow::Decimal128Builder>(field.item)->Append(arrow::Decimal128(0, v.bits)));
        return Status::OK();
      case Kind::kBool:
        FLOE_PROTO_APPEND(Cast<arrow::BooleanBuilder>(field.item)->Append(v.bits != 0));
        return Status::OK();
      case Kind::kFloat: {
        float x = 0;
        const auto bits = static_cast<std::uint32_t>(v.bits);
        std::memcpy(&x, &bits, 4);
        FLOE_PROTO_APPEND(Cast<arrow::FloatBuilder>(field.item)->Append(x));
        return Status::OK();
      }
      case Kind::kDouble: {
        double x = 0;
        std::memcpy(&x, &v.bits, 8);
        FLOE_PROTO_APPEND(Cast<arrow::DoubleBuilder>(field.item)->Append(x));
        return Status::OK();
      }
      case Kind::kString:
        FLOE_RETURN_IF_ERROR(CheckUtf8(field, v));
        FLOE_PROTO_APPEND(Cast<arrow::StringBuilder>(field.item)->Append(std::string_view(v.data, v.size)));
        return Status::OK();
      case Kind::kBytes:
        FLOE_PROTO_APPEND(Cast<arrow::BinaryBuilder>(field.item)->Append(std::string_view(v.data, v.size)));
        return Status::OK();
      case Kind::kEnum: {
        const auto number = static_cast<std::int32_t>(v.bits);
        const std::string* name = EnumName(plan_.enums[field.enum_names], number);
        if constexpr (kAppend) {
          auto* b = Cast<arrow::StringBuilder>(field.item);
          // An open (proto3) enum may carry numbers this schema does not declare: keep the number.
          FLOE_RETURN_IF_ARROW_ERROR(name != nullptr ? b->Append(*name) : b->Append(std::to_string(number)));
        }
        return Status::OK();
      }
      default: return Status::Internal("corrupt Protobuf decode plan: scalar kind " + std::to_string(int(kind)));
    }
  }

  Status MessageLike(const Field& field, const Occurrence* first, const std::vector<Occurrence>* chain, int depth) {
    if (field.kind == Kind::kMessage) return Message(plan_.messages[field.message], first, chain, depth + 1);
    // Well-known types: fields 1..3 of a small message, last one wins, others skipped.
    std::array<Occurrence, 4> got{};
    std::array<bool, 4> has{};
    const std::array<std::uint8_t, 4> wires = WellknownWires(field);
    for (const Occurrence* o = first; o != nullptr; o = Next(o, chain)) {
      WireReader in(o->data, o->data + o->size, base_);
      while (!in.at_end()) {
        const std::size_t tag_at = in.offset();
        std::uint32_t number = 0;
        std::uint8_t wire = 0;
        Status st = in.ReadTag(&number, &wire);
        if (st.ok() && number <= 3 && wires[number] != 0xff && wire == wires[number]) {
          Occurrence& v = got[number];
          if (has[number] && field.kind == Kind::kWrapper && field.wrapped == Kind::kString) {
            FLOE_RETURN_IF_ERROR(CheckUtf8(field, v));  // a StringValue written again: the last wins
          }
          has[number] = true;
          if (wire == kVarint) {
            st = in.ReadVarint(&v.bits);
          } else if (wire == kFixed64) {
            st = in.ReadFixed64(&v.bits);
          } else if (wire == kFixed32) {
            std::uint32_t bits = 0;
            st = in.ReadFixed32(&bits);
            v.bits = bits;
          } else {
            std::string_view bytes;
            st = in.ReadLengthDelimited(&bytes);
            v.data = bytes.data();
            v.size = static_cast<std::uint32_t>(bytes.size());
          }
        } else if (st.ok() && number <= 3 && wires[number] != 0xff) {
          st = in.Invalid(tag_at, "field " + std::to_string(number) + " has wire type " + WireTypeName(wire) +
                                      " where it needs " + WireTypeName(wires[number]));
        } else if (st.ok()) {
          st = in.Skip(number, wire, depth + 1);
        }
        if (!st.ok()) return st.WithContext("field '" + field.path + "'");
      }
    }
    if (field.kind == Kind::kWrapper) {
      if (!has[1]) {  // an empty wrapper holds the wrapped type's default
        got[1] = Occurrence{};
      }
      return Scalar(field, field.wrapped, got[1]);
    }
    Result<WellknownValue> value = ConvertWellknown(field, got, has);
    if (!value.ok()) return value.status().WithContext("field '" + field.path + "'");
    if constexpr (kAppend) {
      switch (field.kind) {
        case Kind::kTimestamp:
          FLOE_RETURN_IF_ARROW_ERROR(Cast<arrow::TimestampBuilder>(field.item)->Append(value->integer));
          break;
        case Kind::kDuration:
          FLOE_RETURN_IF_ARROW_ERROR(Cast<arrow::Int64Builder>(field.item)->Append(value->integer));
          break;
        case Kind::kDate:
          FLOE_RETURN_IF_ARROW_ERROR(
              Cast<arrow::Date32Builder>(field.item)->Append(static_cast<std::int32_t>(value->integer)));
          break;
        default:
          FLOE_RETURN_IF_ARROW_ERROR(Cast<arrow::Decimal128Builder>(field.item)->Append(value->decimal));
      }
    }
    return Status::OK();
  }

  // Map entries, de-duplicated: for a key written twice the last entry wins (protobuf map
  // semantics), and every entry is still checked.
  Status Map(const Field& field, const Frame& f, const Slot& s, int depth) {
    const MessagePlan& entry = plan_.messages[field.message];
    Frame& owner = scratch_.frames[static_cast<std::size_t>(depth)];
    owner.keys.clear();
    std::uint32_t n = 0;
    for (std::uint32_t k = s.head; k != 0; k = f.chain[k].next, ++n) {
      Frame& ef = scratch_.frames[static_cast<std::size_t>(depth) + 1];
      ef.slots.assign(entry.fields.size(), Slot{});
      ef.chain.resize(1);
      FLOE_RETURN_IF_ERROR(Scan(entry, f.chain[k], ef, depth + 1));
      const Field& key = entry.fields[0];
      MapKey mk;
      mk.entry = n;
      if (ef.slots[0].head != 0) {
        const Occurrence& o = ef.chain[ef.slots[0].head];
        mk.value = NormalizedKey(key.kind, o.bits);
        mk.text = std::string_view(o.data, o.size);
      } else {
        mk.value = NormalizedKey(key.kind, key.default_bits);
      }
      owner.keys.push_back(mk);
    }
    owner.keep.assign(n, 1);
    if (n > 1) {
      std::sort(owner.keys.begin(), owner.keys.end(), [](const MapKey& a, const MapKey& b) {
        if (a.value != b.value) return a.value < b.value;
        if (a.text != b.text) return a.text < b.text;
        return a.entry < b.entry;
      });
      for (std::size_t i = 0; i + 1 < owner.keys.size(); ++i) {
        if (owner.keys[i].value == owner.keys[i + 1].value && owner.keys[i].text == owner.keys[i + 1].text) {
          owner.keep[owner.keys[i].entry] = 0;
        }
      }
    }
    FLOE_PROTO_APPEND(Cast<arrow::MapBuilder>(field.builder)->Append());
    std::uint32_t i = 0;
    for (std::uint32_t k = s.head; k != 0; k = f.chain[k].next, ++i) {
      if (owner.keep[i]) {
        FLOE_RETURN_IF_ERROR(Message(entry, &f.chain[k], nullptr, depth + 1));
      } else {
        Runner<false> check(plan_, builders_, scratch_, base_);
        FLOE_RETURN_IF_ERROR(check.Message(entry, &f.chain[k], nullptr, depth + 1));
      }
    }
    return Status::OK();
  }

  template <bool>
  friend class Runner;  // Runner<true> checks discarded values with Runner<false>

  const Plan& plan_;
  std::span<arrow::ArrayBuilder* const> builders_;
  Scratch& scratch_;
  const char* base_;
};

#undef FLOE_PROTO_APPEND

}  // namespace

namespace {

// Spans are 32-bit (a Kafka record is far smaller); a larger buffer is refused, not truncated.
Status CheckSize(std::string_view message) {
  if (message.size() > UINT32_MAX) [[unlikely]] {
    return Status::InvalidArgument("a Protobuf message of " + std::to_string(message.size()) + " bytes is over 4 GiB");
  }
  return Status::OK();
}

}  // namespace

Status Decode(const Plan& plan, std::span<arrow::ArrayBuilder* const> builders, Scratch& scratch,
              std::string_view message) {
  FLOE_RETURN_IF_ERROR(CheckSize(message));
  Occurrence root;
  root.data = message.data();
  root.size = static_cast<std::uint32_t>(message.size());
  return Runner<true>(plan, builders, scratch, message.data()).Message(plan.messages[0], &root, nullptr, 0);
}

Status Validate(const Plan& plan, Scratch& scratch, std::string_view message) {
  FLOE_RETURN_IF_ERROR(CheckSize(message));
  Occurrence root;
  root.data = message.data();
  root.size = static_cast<std::uint32_t>(message.size());
  return Runner<false>(plan, {}, scratch, message.data()).Message(plan.messages[0], &root, nullptr, 0);
}

}  // namespace floe::proto::internal
