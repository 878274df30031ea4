#pragma once
// libprotobuf as the oracle: random messages built with DynamicMessage, and a canonical text
// of a message field (by the mapping rules of type_mapping.h) and of an Arrow value, so that
// decoded columns can be compared with what libprotobuf parsed from the same bytes.
#include <arrow/api.h>
#include <arrow/util/decimal.h>
#include <google/protobuf/descriptor.h>
#include <google/protobuf/dynamic_message.h>
#include <gtest/gtest.h>
#include <google/protobuf/message.h>

#include <algorithm>
#include <chrono>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "oracle_canon.h"
#include "proto_test_util.h"

namespace floe::proto::testing {

namespace gp = google::protobuf;

// The scale of every confluent.type.Decimal field in the oracle schemas.
inline constexpr int kOracleDecimalScale = kOracleDecimalScaleForCanon;

class Filler {
 public:
  explicit Filler(std::uint64_t seed) : rng_(seed) {}

  void Fill(gp::Message* m, int depth = 0) {
    const gp::Descriptor* d = m->GetDescriptor();
    const std::string& name = d->full_name();
    if (name == "google.protobuf.Timestamp") return SetSecondsNanos(m, Range(-62135596800, 253402300799), false);
    if (name == "google.protobuf.Duration") return SetSecondsNanos(m, Range(-315576000000, 315576000000), true);
    if (name == "google.type.Date") return FillDate(m);
    if (name == "confluent.type.Decimal") return FillDecimal(m);
    for (int i = 0; i < d->oneof_decl_count(); ++i) {
      const gp::OneofDescriptor* o = d->oneof_decl(i);
      if (o->is_synthetic()) continue;
      const int pick = static_cast<int>(Range(-1, o->field_count() - 1));
      if (pick >= 0) FillField(m, o->field(pick), depth);
    }
    for (int i = 0; i < d->field_count(); ++i) {
      const gp::FieldDescriptor* fd = d->field(i);
      if (fd->real_containing_oneof() != nullptr) continue;
      if (fd->is_repeated()) {
        const auto n = Range(0, depth > 3 ? 1 : 3);
        for (std::int64_t k = 0; k < n; ++k) Add(m, fd, depth);
      } else if (fd->is_required() || Chance(fd->has_presence() ? 50 : 80)) {
        FillField(m, fd, depth);
      }
    }
  }

  std::int64_t Range(std::int64_t lo, std::int64_t hi) { return std::uniform_int_distribution<std::int64_t>(lo, hi)(rng_); }
  bool Chance(int percent) { return Range(0, 99) < percent; }
  std::mt19937_64& rng() { return rng_; }

 private:
  std::uint64_t Bits() {
    switch (Range(0, 5)) {  // edges are where encodings differ
      case 0: return 0;
      case 1: return ~std::uint64_t{0};
      case 2: return std::uint64_t{1} << Range(0, 63);
      case 3: return static_cast<std::uint64_t>(Range(-300, 300));
      default: return rng_();
    }
  }
  std::string Text() {
    static const char* kPieces[] = {"a", "é", "日本", "😀", " ", "z9", "\"q\"", "\\"};
    std::string s;
    for (auto n = Range(0, 4); n > 0; --n) s += kPieces[Range(0, 7)];
    return s;
  }
  std::string Binary() {
    std::string s;
    for (auto n = Range(0, 6); n > 0; --n) s.push_back(static_cast<char>(Range(0, 255)));
    return s;
  }

  void FillField(gp::Message* m, const gp::FieldDescriptor* fd, int depth) {
    const gp::Reflection* r = m->GetReflection();
    const std::uint64_t b = Bits();
    switch (fd->cpp_type()) {
      case gp::FieldDescriptor::CPPTYPE_INT32: return r->SetInt32(m, fd, static_cast<std::int32_t>(b));
      case gp::FieldDescriptor::CPPTYPE_INT64: return r->SetInt64(m, fd, static_cast<std::int64_t>(b));
      case gp::FieldDescriptor::CPPTYPE_UINT32: return r->SetUInt32(m, fd, static_cast<std::uint32_t>(b));
      case gp::FieldDescriptor::CPPTYPE_UINT64: return r->SetUInt64(m, fd, b);
      case gp::FieldDescriptor::CPPTYPE_BOOL: return r->SetBool(m, fd, b & 1);
      case gp::FieldDescriptor::CPPTYPE_FLOAT: return r->SetFloat(m, fd, static_cast<float>(Range(-1000, 1000)) / 8);
      case gp::FieldDescriptor::CPPTYPE_DOUBLE: return r->SetDouble(m, fd, static_cast<double>(Range(-100000, 100000)) / 7);
      case gp::FieldDescriptor::CPPTYPE_STRING:
        return r->SetString(m, fd, fd->type() == gp::FieldDescriptor::TYPE_STRING ? Text() : Binary());
      case gp::FieldDescriptor::CPPTYPE_ENUM: return r->SetEnumValue(m, fd, EnumNumber(fd));
      case gp::FieldDescriptor::CPPTYPE_MESSAGE: return Fill(r->MutableMessage(m, fd), depth + 1);
    }
  }
  void Add(gp::Message* m, const gp::FieldDescriptor* fd, int depth) {
    const gp::Reflection* r = m->GetReflection();
    if (fd->is_map()) {  // a small key space, so that keys repeat (the last entry must win)
      gp::Message* entry = r->AddMessage(m, fd);
      const gp::FieldDescriptor* key = fd->message_type()->map_key();
      const std::int64_t k = Range(0, 3);
      switch (key->cpp_type()) {
        case gp::FieldDescriptor::CPPTYPE_STRING: entry->GetReflection()->SetString(entry, key, "k" + std::to_string(k)); break;
        case gp::FieldDescriptor::CPPTYPE_BOOL: entry->GetReflection()->SetBool(entry, key, k & 1); break;
        case gp::FieldDescriptor::CPPTYPE_INT32: entry->GetReflection()->SetInt32(entry, key, static_cast<std::int32_t>(k - 2)); break;
        case gp::FieldDescriptor::CPPTYPE_INT64: entry->GetReflection()->SetInt64(entry, key, k - 2); break;
        case gp::FieldDescriptor::CPPTYPE_UINT32: entry->GetReflection()->SetUInt32(entry, key, static_cast<std::uint32_t>(k)); break;
        default: entry->GetReflection()->SetUInt64(entry, key, ~std::uint64_t{0} - static_cast<std::uint64_t>(k)); break;
      }
      if (Chance(85)) FillField(entry, fd->message_type()->map_value(), depth);
      return;
    }
    const std::uint64_t b = Bits();
    switch (fd->cpp_type()) {
      case gp::FieldDescriptor::CPPTYPE_INT32: return r->AddInt32(m, fd, static_cast<std::int32_t>(b));
      case gp::FieldDescriptor::CPPTYPE_INT64: return r->AddInt64(m, fd, static_cast<std::int64_t>(b));
      case gp::FieldDescriptor::CPPTYPE_UINT32: return r->AddUInt32(m, fd, static_cast<std::uint32_t>(b));
      case gp::FieldDescriptor::CPPTYPE_UINT64: return r->AddUInt64(m, fd, b);
      case gp::FieldDescriptor::CPPTYPE_BOOL: return r->AddBool(m, fd, b & 1);
      case gp::FieldDescriptor::CPPTYPE_FLOAT: return r->AddFloat(m, fd, static_cast<float>(Range(-1000, 1000)) / 4);
      case gp::FieldDescriptor::CPPTYPE_DOUBLE: return r->AddDouble(m, fd, static_cast<double>(Range(-1000, 1000)) / 3);
      case gp::FieldDescriptor::CPPTYPE_STRING:
        return r->AddString(m, fd, fd->type() == gp::FieldDescriptor::TYPE_STRING ? Text() : Binary());
      case gp::FieldDescriptor::CPPTYPE_ENUM: return r->AddEnumValue(m, fd, EnumNumber(fd));
      case gp::FieldDescriptor::CPPTYPE_MESSAGE: return Fill(r->AddMessage(m, fd), depth + 1);
    }
  }
  int EnumNumber(const gp::FieldDescriptor* fd) {
    const gp::EnumDescriptor* e = fd->enum_type();
    if (e->file()->syntax() == gp::FileDescriptor::SYNTAX_PROTO3 && Chance(20)) return static_cast<int>(Range(-5, 100));  // open enums keep any number
    return e->value(static_cast<int>(Range(0, e->value_count() - 1)))->number();
  }
  void SetSecondsNanos(gp::Message* m, std::int64_t seconds, bool duration) {
    const gp::Descriptor* d = m->GetDescriptor();
    std::int32_t nanos = static_cast<std::int32_t>(Range(0, 999999999));
    if (duration && seconds < 0) nanos = -nanos;
    m->GetReflection()->SetInt64(m, d->FindFieldByName("seconds"), seconds);
    m->GetReflection()->SetInt32(m, d->FindFieldByName("nanos"), nanos);
  }
  void FillDate(gp::Message* m) {
    const gp::Descriptor* d = m->GetDescriptor();
    const auto y = Range(1, 9999), mo = Range(1, 12), day = Range(1, 28);
    m->GetReflection()->SetInt32(m, d->FindFieldByName("year"), static_cast<std::int32_t>(y));
    m->GetReflection()->SetInt32(m, d->FindFieldByName("month"), static_cast<std::int32_t>(mo));
    m->GetReflection()->SetInt32(m, d->FindFieldByName("day"), static_cast<std::int32_t>(day));
  }
  void FillDecimal(gp::Message* m) {  // values that fit decimal(18, 2) at any scale 0..2
    const gp::Descriptor* d = m->GetDescriptor();
    const std::int64_t v = Range(-999999999999999, 999999999999999);
    std::string bytes;
    for (int i = 7; i >= 0; --i) bytes.push_back(static_cast<char>((static_cast<std::uint64_t>(v) >> (8 * i)) & 0xff));
    m->GetReflection()->SetString(m, d->FindFieldByName("value"), bytes);
    m->GetReflection()->SetUInt32(m, d->FindFieldByName("precision"), static_cast<std::uint32_t>(Range(0, 40)));
    m->GetReflection()->SetInt32(m, d->FindFieldByName("scale"), static_cast<std::int32_t>(Range(0, kOracleDecimalScale)));
  }

  std::mt19937_64 rng_;
};

struct Oracle {
  testing::TestDecoder decoder;
  gp::DynamicMessageFactory factory;
  const gp::Message* prototype = nullptr;
};

inline void Prepare(Oracle& o, const char* text, const std::string& message) {
  o.decoder = testing::MakeDecoder(text, message);
  ASSERT_TRUE(o.decoder.decoder);
  o.prototype = o.factory.GetPrototype(o.decoder.message);
}

inline std::vector<std::string> RandomPayloads(Oracle& o, std::uint64_t seed, int count, bool concatenate) {
  Filler filler(seed);
  std::vector<std::string> out;
  for (int i = 0; i < count; ++i) {
    std::string bytes;
    // A concatenation of serialized messages is their merge: singular fields last-wins, repeated
    // ones appended, messages merged, oneofs switched, map keys replaced, out of field order.
    for (int parts = concatenate ? static_cast<int>(filler.Range(1, 3)) : 1; parts > 0; --parts) {
      std::unique_ptr<gp::Message> m(o.prototype->New());
      filler.Fill(m.get());
      bytes += m->SerializeAsString();
    }
    out.push_back(std::move(bytes));
  }
  return out;
}

}  // namespace floe::proto::testing
