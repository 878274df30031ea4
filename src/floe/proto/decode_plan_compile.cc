// CompilePlan: descriptor -> Arrow types + field tables, in one walk. See decode_plan_internal.h.
#include <arrow/api.h>
#include <arrow/util/utf8.h>
#include <google/protobuf/descriptor.h>
#include <google/protobuf/descriptor.pb.h>
#include <google/protobuf/unknown_field_set.h>

#include <algorithm>
#include <charconv>
#include <cstring>

#include "floe/core/arrow_interop.h"
#include "floe/proto/decode_plan_internal.h"
#include "floe/proto/scalar_values_internal.h"
#include "floe/proto/type_mapping.h"
#include "floe/proto/wire_reader_internal.h"

namespace floe::proto::internal {

namespace gp = google::protobuf;
using FD = gp::FieldDescriptor;

namespace {

constexpr std::uint32_t kDenseLookupLimit = 2048;  // field numbers below this use a direct table
constexpr std::int32_t kDenseEnumRange = 4096;
constexpr int kConfluentFieldMeta = 1088;          // (confluent.field_meta), confluent/meta.proto
constexpr std::int32_t kDefaultDecimalPrecision = 38;

struct Wellknown {
  const char* name;
  Kind kind;
  Kind wrapped;
};
constexpr Wellknown kWellknown[] = {
    {"google.protobuf.Timestamp", Kind::kTimestamp, Kind::kInt64},
    {"google.protobuf.Duration", Kind::kDuration, Kind::kInt64},
    {"confluent.type.Decimal", Kind::kDecimal, Kind::kBytes},
    {"google.type.Date", Kind::kDate, Kind::kInt32},
    {"google.protobuf.DoubleValue", Kind::kWrapper, Kind::kDouble},
    {"google.protobuf.FloatValue", Kind::kWrapper, Kind::kFloat},
    {"google.protobuf.Int64Value", Kind::kWrapper, Kind::kInt64},
    {"google.protobuf.UInt64Value", Kind::kWrapper, Kind::kUInt64},
    {"google.protobuf.Int32Value", Kind::kWrapper, Kind::kInt32},
    {"google.protobuf.UInt32Value", Kind::kWrapper, Kind::kUInt32},
    {"google.protobuf.BoolValue", Kind::kWrapper, Kind::kBool},
    {"google.protobuf.StringValue", Kind::kWrapper, Kind::kString},
    {"google.protobuf.BytesValue", Kind::kWrapper, Kind::kBytes},
};

Kind ScalarKind(FD::Type type) {
  switch (type) {
    case FD::TYPE_INT32: return Kind::kInt32;
    case FD::TYPE_SINT32: return Kind::kSInt32;
    case FD::TYPE_SFIXED32: return Kind::kSFixed32;
    case FD::TYPE_INT64: return Kind::kInt64;
    case FD::TYPE_SINT64: return Kind::kSInt64;
    case FD::TYPE_SFIXED64: return Kind::kSFixed64;
    case FD::TYPE_UINT32: return Kind::kUInt32;
    case FD::TYPE_FIXED32: return Kind::kFixed32;
    case FD::TYPE_UINT64: return Kind::kUInt64;
    case FD::TYPE_FIXED64: return Kind::kFixed64;
    case FD::TYPE_BOOL: return Kind::kBool;
    case FD::TYPE_FLOAT: return Kind::kFloat;
    case FD::TYPE_DOUBLE: return Kind::kDouble;
    case FD::TYPE_STRING: return Kind::kString;
    case FD::TYPE_BYTES: return Kind::kBytes;
    case FD::TYPE_ENUM: return Kind::kEnum;
    default: return Kind::kMessage;
  }
}

std::shared_ptr<arrow::DataType> ScalarType(Kind k) {
  switch (k) {
    case Kind::kInt32: case Kind::kSInt32: case Kind::kSFixed32: return arrow::int32();
    case Kind::kInt64: case Kind::kSInt64: case Kind::kSFixed64: case Kind::kUInt32: case Kind::kFixed32:
    case Kind::kDuration: return arrow::int64();
    case Kind::kUInt64: case Kind::kFixed64: return arrow::decimal128(20, 0);
    case Kind::kBool: return arrow::boolean();
    case Kind::kFloat: return arrow::float32();
    case Kind::kDouble: return arrow::float64();
    case Kind::kString: case Kind::kEnum: return arrow::utf8();
    case Kind::kBytes: return arrow::binary();
    case Kind::kTimestamp: return arrow::timestamp(arrow::TimeUnit::MICRO, "UTC");
    case Kind::kDate: return arrow::date32();
    default: return nullptr;
  }
}

// The default as the bits its wire encoding would carry, so that defaults and decoded values
// take the same append path.
std::uint64_t DefaultBits(const FD& fd, Kind k) {
  switch (k) {
    case Kind::kInt32: case Kind::kSFixed32:
      return static_cast<std::uint64_t>(static_cast<std::int64_t>(fd.default_value_int32()));
    case Kind::kSInt32: {
      const auto n = static_cast<std::uint32_t>(fd.default_value_int32());
      return (n << 1) ^ static_cast<std::uint32_t>(fd.default_value_int32() >> 31);
    }
    case Kind::kInt64: case Kind::kSFixed64: return static_cast<std::uint64_t>(fd.default_value_int64());
    case Kind::kSInt64: {
      const auto n = static_cast<std::uint64_t>(fd.default_value_int64());
      return (n << 1) ^ static_cast<std::uint64_t>(fd.default_value_int64() >> 63);
    }
    case Kind::kUInt32: case Kind::kFixed32: return fd.default_value_uint32();
    case Kind::kUInt64: case Kind::kFixed64: return fd.default_value_uint64();
    case Kind::kBool: return fd.default_value_bool() ? 1 : 0;
    case Kind::kFloat: {
      const float f = fd.default_value_float();
      std::uint32_t bits = 0;
      std::memcpy(&bits, &f, 4);
      return bits;
    }
    case Kind::kDouble: {
      const double d = fd.default_value_double();
      std::uint64_t bits = 0;
      std::memcpy(&bits, &d, 8);
      return bits;
    }
    case Kind::kEnum:
      return static_cast<std::uint64_t>(static_cast<std::int64_t>(fd.default_value_enum()->number()));
    default: return 0;
  }
}

// (confluent.field_meta).params, read from the option's wire bytes: the generated FieldOptions
// does not know Confluent's extension, so the built pool keeps it as an unknown field.
void ReadFieldMetaParams(const FD& fd, std::string* precision, std::string* scale) {
  const gp::UnknownFieldSet& unknown = fd.options().GetReflection()->GetUnknownFields(fd.options());
  for (int i = 0; i < unknown.field_count(); ++i) {
    const gp::UnknownField& u = unknown.field(i);
    if (u.number() != kConfluentFieldMeta || u.type() != gp::UnknownField::TYPE_LENGTH_DELIMITED) continue;
    WireReader meta(u.length_delimited());
    std::uint32_t number = 0;
    std::uint8_t wire = 0;
    while (!meta.at_end() && meta.ReadTag(&number, &wire).ok()) {
      if (number != 2 || wire != kLengthDelimited) {
        if (!meta.Skip(number, wire, 0).ok()) return;
        continue;
      }
      std::string_view entry_bytes;
      if (!meta.ReadLengthDelimited(&entry_bytes).ok()) return;
      WireReader entry(entry_bytes);
      std::string_view key, value;
      while (!entry.at_end() && entry.ReadTag(&number, &wire).ok() && wire == kLengthDelimited) {
        std::string_view text;
        if (!entry.ReadLengthDelimited(&text).ok()) break;
        (number == 1 ? key : value) = text;
      }
      if (key == "precision") *precision = std::string(value);
      if (key == "scale") *scale = std::string(value);
    }
  }
}

class Compiler {
 public:
  explicit Compiler(Plan& plan) : plan_(plan) {}

  // Fills plan_.messages[index] with the fields of `d`, whose values go to the struct builder
  // `builder` (-1: columns or a map entry); returns their Arrow fields.
  Result<arrow::FieldVector> Message(const gp::Descriptor& d, std::uint32_t index, std::int64_t builder,
                                     const std::string& path, bool map_entry) {
    if (stack_.size() >= static_cast<std::size_t>(kMaxDepth)) {
      return Status::InvalidArgument(Where(path) + ": messages nested deeper than " + std::to_string(kMaxDepth) + " levels");
    }
    if (d.field_count() == 0) {
      return Status::InvalidArgument(Where(path) + ": message '" + d.full_name() +
                                     "' has no fields, which a table cannot store");
    }
    stack_.push_back({&d, ""});
    MessagePlan m;
    m.builder = builder;
    arrow::FieldVector arrow_fields;
    std::uint32_t max_number = 0;
    for (int i = 0; i < d.field_count(); ++i) {
      const FD& fd = *d.field(i);
      stack_.back().second = fd.name();
      Field f;
      FLOE_ASSIGN_OR_RETURN(auto arrow_field, CompileField(fd, path, map_entry, &f));
      max_number = std::max(max_number, f.number);
      if (const gp::OneofDescriptor* oneof = fd.real_containing_oneof()) {
        if (static_cast<std::size_t>(oneof->index()) >= m.oneofs.size()) m.oneofs.resize(oneof->index() + 1);
        f.oneof = oneof->index();
        m.oneofs[oneof->index()].push_back(static_cast<std::uint32_t>(i));
      }
      m.fields.push_back(std::move(f));
      arrow_fields.push_back(std::move(arrow_field));
    }
    if (max_number < kDenseLookupLimit) {
      m.dense.assign(max_number + 1, 0);
      for (std::size_t i = 0; i < m.fields.size(); ++i) m.dense[m.fields[i].number] = static_cast<std::uint32_t>(i + 1);
    } else {
      for (std::size_t i = 0; i < m.fields.size(); ++i) m.sparse.emplace_back(m.fields[i].number, static_cast<std::uint32_t>(i));
      std::sort(m.sparse.begin(), m.sparse.end());
    }
    plan_.messages[index] = std::move(m);
    stack_.pop_back();
    return arrow_fields;
  }

  std::uint32_t NewBuilder() { return plan_.builder_count++; }
  std::uint32_t NewMessage() {
    plan_.messages.emplace_back();
    return static_cast<std::uint32_t>(plan_.messages.size() - 1);
  }

 private:
  static std::string Where(const std::string& path) { return path.empty() ? "the message" : "field '" + path + "'"; }

  Result<std::shared_ptr<arrow::Field>> CompileField(const FD& fd, const std::string& parent, bool map_entry, Field* f) {
    f->number = static_cast<std::uint32_t>(fd.number());
    f->path = parent.empty() ? fd.name() : parent + "." + fd.name();
    f->builder = NewBuilder();
    if (fd.is_map()) {
      f->shape = Shape::kMap;
      f->kind = Kind::kMessage;
      f->wire = kLengthDelimited;
      f->message = NewMessage();
      FLOE_ASSIGN_OR_RETURN(auto kv, Message(*fd.message_type(), f->message, -1, f->path + "{}", true));
      return arrow::field(fd.name(), arrow::map(kv[0]->type(), kv[1]->WithName("value")), false);
    }
    if (fd.is_repeated()) {
      f->shape = Shape::kRepeated;
      f->item = NewBuilder();
      FLOE_ASSIGN_OR_RETURN(auto type, Value(fd, f->path + "[]", f));
      f->packable = !IsMessageLike(f->kind) && f->wire != kLengthDelimited;
      return arrow::field(fd.name(), arrow::list(arrow::field("element", type, false)), false);
    }
    f->item = f->builder;
    FLOE_ASSIGN_OR_RETURN(auto type, Value(fd, f->path, f));
    const bool oneof = fd.real_containing_oneof() != nullptr;
    if (map_entry) {  // map keys and values have no presence: absent = the default
      f->shape = Shape::kImplicit;
      f->has_default = true;
    } else if (fd.is_required()) {
      f->shape = Shape::kRequired;
    } else if (fd.has_presence()) {
      f->shape = Shape::kOptional;
      f->has_default = fd.has_default_value() && !oneof && !IsMessageLike(f->kind);
    } else {
      f->shape = Shape::kImplicit;
      f->has_default = true;
    }
    return arrow::field(fd.name(), type, f->shape == Shape::kOptional);
  }

  // The kind, wire type, default and Arrow type of one value of `fd` (one element if repeated).
  Result<std::shared_ptr<arrow::DataType>> Value(const FD& fd, const std::string& path, Field* f) {
    f->kind = ScalarKind(fd.type());
    if (f->kind != Kind::kMessage) {
      f->wire = WireOf(f->kind);
      f->default_bits = DefaultBits(fd, f->kind);
      if (f->kind == Kind::kString || f->kind == Kind::kBytes) f->default_text = fd.default_value_string();
      if (f->kind == Kind::kString && !arrow::util::ValidateUTF8(f->default_text)) {  // proto2 escapes allow it
        return Status::InvalidArgument(Where(path) + ": its declared default is not valid UTF-8");
      }
      if (f->kind == Kind::kEnum) f->enum_names = Enum(*fd.enum_type());
      return ScalarType(f->kind);
    }
    const gp::Descriptor& type = *fd.message_type();
    f->wire = fd.type() == FD::TYPE_GROUP ? kStartGroup : kLengthDelimited;
    if (fd.type() == FD::TYPE_MESSAGE) {
      for (const Wellknown& w : kWellknown) {
        if (type.full_name() != w.name) continue;
        f->kind = w.kind;
        f->wrapped = w.wrapped;
        if (f->kind == Kind::kWrapper) return ScalarType(f->wrapped);
        if (f->kind == Kind::kDecimal) return Decimal(fd, path, f);
        return ScalarType(f->kind);
      }
    }
    for (std::size_t i = 0; i < stack_.size(); ++i) {
      if (stack_[i].first != &type) continue;
      std::string cycle;
      for (std::size_t j = i; j < stack_.size(); ++j) cycle += stack_[j].first->full_name() + "." + stack_[j].second + " -> ";
      return Status::InvalidArgument(Where(path) + ": recursive message types cannot be stored as columns: " + cycle +
                                     type.full_name());
    }
    f->message = NewMessage();
    FLOE_ASSIGN_OR_RETURN(auto children, Message(type, f->message, f->item, path, false));
    return arrow::struct_(children);
  }

  Result<std::shared_ptr<arrow::DataType>> Decimal(const FD& fd, const std::string& path, Field* f) {
    std::string precision_text, scale_text;
    ReadFieldMetaParams(fd, &precision_text, &scale_text);
    f->precision = kDefaultDecimalPrecision;
    f->scale = 0;
    auto parse = [&](const std::string& text, const char* what, std::int32_t* out) -> Status {
      if (text.empty()) return Status::OK();
      auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), *out);
      if (ec != std::errc() || end != text.data() + text.size()) {
        return Status::InvalidArgument(Where(path) + ": (confluent.field_meta).params " + what + " '" + text +
                                       "' is not a number");
      }
      return Status::OK();
    };
    FLOE_RETURN_IF_ERROR(parse(precision_text, "precision", &f->precision));
    FLOE_RETURN_IF_ERROR(parse(scale_text, "scale", &f->scale));
    if (f->precision < 1 || f->precision > 38 || f->scale < 0 || f->scale > f->precision) {
      return Status::InvalidArgument(Where(path) + ": decimal(" + std::to_string(f->precision) + ", " +
                                     std::to_string(f->scale) +
                                     ") cannot be stored: precision must be 1..38 and scale 0..precision");
    }
    return arrow::decimal128(f->precision, f->scale);
  }

  std::uint32_t Enum(const gp::EnumDescriptor& type) {
    EnumNames names;
    names.type = &type;
    std::int32_t lo = type.value(0)->number(), hi = lo;
    for (int i = 0; i < type.value_count(); ++i) {
      lo = std::min(lo, type.value(i)->number());
      hi = std::max(hi, type.value(i)->number());
    }
    names.min = lo;
    if (static_cast<std::int64_t>(hi) - lo < kDenseEnumRange) {
      names.dense.assign(static_cast<std::size_t>(hi - lo + 1), nullptr);
      for (int i = 0; i < type.value_count(); ++i) {  // with aliases, the first name wins (as in libprotobuf)
        auto& slot = names.dense[static_cast<std::size_t>(type.value(i)->number() - lo)];
        if (slot == nullptr) slot = &type.value(i)->name();
      }
    }
    plan_.enums.push_back(std::move(names));
    return static_cast<std::uint32_t>(plan_.enums.size() - 1);
  }

  Plan& plan_;
  std::vector<std::pair<const gp::Descriptor*, std::string>> stack_;  // messages being compiled, and their field
};

}  // namespace

std::int64_t MessagePlan::Lookup(std::uint32_t number) const {
  if (!dense.empty() || sparse.empty()) {
    return number < dense.size() ? static_cast<std::int64_t>(dense[number]) - 1 : -1;
  }
  auto it = std::lower_bound(sparse.begin(), sparse.end(), std::make_pair(number, std::uint32_t{0}));
  return it != sparse.end() && it->first == number ? static_cast<std::int64_t>(it->second) : -1;
}

Result<std::shared_ptr<const Plan>> CompilePlan(const gp::Descriptor& message, const std::string& key_column) {
  arrow::util::InitializeUTF8();
  auto plan = std::make_shared<Plan>();
  Compiler compiler(*plan);
  const std::uint32_t root = compiler.NewMessage();
  plan->root_is_struct = !key_column.empty();
  const std::int64_t root_builder = plan->root_is_struct ? std::int64_t{compiler.NewBuilder()} : std::int64_t{-1};
  FLOE_ASSIGN_OR_RETURN(auto fields, compiler.Message(message, root, root_builder, "", false));
  plan->columns = plan->root_is_struct ? arrow::schema({arrow::field(key_column, arrow::struct_(fields), true)})
                                       : arrow::schema(fields);
  return std::shared_ptr<const Plan>(std::move(plan));
}

}  // namespace floe::proto::internal

namespace floe::proto {

Result<std::shared_ptr<arrow::Schema>> ToArrowSchema(const google::protobuf::Descriptor& message) {
  FLOE_ASSIGN_OR_RETURN(auto plan, internal::CompilePlan(message));
  return plan->columns;
}

}  // namespace floe::proto
