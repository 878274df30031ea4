#include "event.h"

#include <google/protobuf/io/coded_stream.h>

#include <array>
#include <charconv>
#include <cstdio>
#include <cstring>

namespace floe::bench {
namespace {

constexpr std::string_view kSchema = R"({
  "type": "record", "name": "Event", "namespace": "floe.bench",
  "fields": [
    {"name": "event_id", "type": "string"},
    {"name": "user_id", "type": "long"},
    {"name": "session_id", "type": "string"},
    {"name": "event_type", "type": {"type": "enum", "name": "EventType",
                                    "symbols": ["VIEW", "CLICK", "ADD_TO_CART", "PURCHASE", "SEARCH"]}},
    {"name": "page", "type": "string"},
    {"name": "country", "type": "string"},
    {"name": "duration_ms", "type": "double"},
    {"name": "score", "type": "double"},
    {"name": "ts", "type": {"type": "long", "logicalType": "timestamp-millis"}},
    {"name": "price", "type": {"type": "bytes", "logicalType": "decimal", "precision": 12, "scale": 2}},
    {"name": "device", "type": {"type": "record", "name": "Device", "fields": [
      {"name": "os", "type": "string"},
      {"name": "app_version", "type": "string"},
      {"name": "mobile", "type": "boolean"}]}},
    {"name": "tags", "type": {"type": "array", "items": "string"}},
    {"name": "referrer", "type": ["null", "string"], "default": null}
  ]
})";

// The same fields as a proto3 message, as Confluent's ProtobufSerializer would register it:
// Event is the file's first message (message index [0]); the timestamp a well-known
// Timestamp, the decimal Confluent's Decimal with its precision and scale as field_meta
// params; referrer has presence (proto3 optional), like Avro's ["null", "string"].
constexpr std::string_view kProtoSchema = R"(syntax = "proto3";
package floe.bench;

import "google/protobuf/timestamp.proto";
import "confluent/meta.proto";
import "confluent/type/decimal.proto";

message Event {
  string event_id = 1;
  int64 user_id = 2;
  string session_id = 3;
  EventType event_type = 4;
  string page = 5;
  string country = 6;
  double duration_ms = 7;
  double score = 8;
  google.protobuf.Timestamp ts = 9;
  confluent.type.Decimal price = 10 [(confluent.field_meta) = { params: [ { key: "precision", value: "12" }, { key: "scale", value: "2" } ] }];
  Device device = 11;
  repeated string tags = 12;
  optional string referrer = 13;

  message Device {
    string os = 1;
    string app_version = 2;
    bool mobile = 3;
  }
}

enum EventType {
  VIEW = 0;
  CLICK = 1;
  ADD_TO_CART = 2;
  PURCHASE = 3;
  SEARCH = 4;
}
)";

// The same fields as a JSON Schema, as Kafka Connect's JsonSchemaConverter writes them: the
// timestamp an integer of epoch milliseconds titled Connect Timestamp, the decimal a number
// titled Connect Decimal with its scale and precision, referrer nullable; the Avro schema's
// non-null fields are required.
constexpr std::string_view kJsonSchema = R"({
  "$schema": "http://json-schema.org/draft-07/schema#",
  "title": "floe.bench.Event",
  "type": "object",
  "properties": {
    "event_id": {"type": "string"},
    "user_id": {"type": "integer", "connect.type": "int64"},
    "session_id": {"type": "string"},
    "event_type": {"type": "string", "enum": ["VIEW", "CLICK", "ADD_TO_CART", "PURCHASE", "SEARCH"]},
    "page": {"type": "string"},
    "country": {"type": "string"},
    "duration_ms": {"type": "number", "connect.type": "float64"},
    "score": {"type": "number", "connect.type": "float64"},
    "ts": {"type": "integer", "connect.type": "int64", "connect.version": 1,
           "title": "org.apache.kafka.connect.data.Timestamp"},
    "price": {"type": "number", "connect.type": "bytes", "connect.version": 1,
              "title": "org.apache.kafka.connect.data.Decimal",
              "connect.parameters": {"scale": "2", "connect.decimal.precision": "12"}},
    "device": {
      "type": "object",
      "title": "floe.bench.Device",
      "properties": {
        "os": {"type": "string"},
        "app_version": {"type": "string"},
        "mobile": {"type": "boolean"}
      },
      "required": ["os", "app_version", "mobile"]
    },
    "tags": {"type": "array", "items": {"type": "string"}},
    "referrer": {"oneOf": [{"type": "null"}, {"type": "string"}]}
  },
  "required": ["event_id", "user_id", "session_id", "event_type", "page", "country", "duration_ms", "score",
               "ts", "price", "device", "tags"]
})";

constexpr std::array<std::string_view, 5> kEventTypes = {"VIEW", "CLICK", "ADD_TO_CART", "PURCHASE", "SEARCH"};
constexpr std::array<std::string_view, 8> kPages = {
    "/home", "/search?q=shoes", "/product/12345", "/cart", "/checkout/payment",
    "/account/orders", "/category/outdoor/tents", "/help/returns"};
constexpr std::array<std::string_view, 10> kCountries = {"DE", "FR", "US", "JP", "BR", "IN", "GB", "ES", "IT", "CA"};
constexpr std::array<std::string_view, 4> kOs = {"android", "ios", "windows", "macos"};
constexpr std::array<std::string_view, 5> kVersions = {"5.2.0", "5.2.1", "5.3.0", "6.0.0-rc1", "4.9.9"};
constexpr std::array<std::string_view, 6> kTags = {"promo", "returning", "beta", "ab:v2", "newsletter", "vip"};
constexpr std::array<std::string_view, 3> kReferrers = {
    "https://www.example.com/blog/post", "https://search.example.org/?q=tents", "https://social.example.net/feed"};

// splitmix64: a cheap, well-mixed hash of the event number, so fields vary like real data
// (dictionary encoding and zstd see realistic cardinalities) but every run is identical.
std::uint64_t Mix(std::uint64_t x) {
  x += 0x9e3779b97f4a7c15ULL;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
  return x ^ (x >> 31);
}

void WriteHex(std::uint64_t v, int digits, char* out) {
  static constexpr char kHex[] = "0123456789abcdef";
  for (int d = digits - 1; d >= 0; --d, v >>= 4) out[d] = kHex[v & 15];
}

// Event number i's values, computed once and written by each format.
struct Fields {
  char uuid[36];
  std::uint64_t user = 0;
  char session[16];
  int event_type = 0;
  std::string_view page, country;
  double duration_ms = 0, score = 0;
  std::int64_t ts_ms = 0;
  std::int64_t price_unscaled = 0;  // decimal(12, 2)
  std::string_view os, version;
  bool mobile = false;
  int ntags = 0;
  std::string_view tags[2];
  std::string_view referrer;  // empty: null
};

void MakeFields(std::uint64_t i, std::int64_t ts_ms, Fields& f) {
  const std::uint64_t h = Mix(i);
  const std::uint64_t h2 = Mix(h);
  char* uuid = f.uuid;  // 8-4-4-4-12, from two hashes
  WriteHex(h >> 32, 8, uuid);
  uuid[8] = '-';
  WriteHex(h >> 16, 4, uuid + 9);
  uuid[13] = '-';
  WriteHex(h, 4, uuid + 14);
  uuid[18] = '-';
  WriteHex(h2 >> 48, 4, uuid + 19);
  uuid[23] = '-';
  WriteHex(h2, 12, uuid + 24);
  f.user = (h2 >> 20) % 1'000'000;
  WriteHex(Mix(f.user ^ (i >> 6)), 16, f.session);  // a user's session spans ~64 events
  f.event_type = static_cast<int>(h % 5);
  f.page = kPages[(h >> 8) % kPages.size()];
  f.country = kCountries[(h >> 12) % kCountries.size()];
  f.duration_ms = static_cast<double>((h >> 16) % 600'000) / 10.0;
  f.score = static_cast<double>(h2 % 10'000) / 10'000.0;
  f.ts_ms = ts_ms;
  f.price_unscaled = static_cast<std::int64_t>((h2 >> 8) % 10'000'000);  // up to 99,999.99
  f.os = kOs[(h >> 20) % kOs.size()];
  f.version = kVersions[(h >> 24) % kVersions.size()];
  f.mobile = ((h >> 28) & 3) < 2;
  f.ntags = static_cast<int>((h >> 30) % 3);
  for (int t = 0; t < f.ntags; ++t) f.tags[t] = kTags[(h >> (32 + 4 * t)) % kTags.size()];
  f.referrer = ((h >> 44) & 1) ? kReferrers[(h >> 45) % kReferrers.size()] : std::string_view();
}

// A decimal's unscaled value as big-endian two's complement, minimal length (Avro's decimal
// on bytes and Confluent's Decimal.value alike). Returns the length, written at buf + 8 - n.
int DecimalBytes(std::int64_t unscaled, char (&buf)[8]) {
  for (int i = 7; i >= 0; --i) buf[i] = static_cast<char>(static_cast<std::uint64_t>(unscaled) >> (8 * (7 - i)));
  int start = 0;
  // Drop leading bytes that only repeat the sign.
  while (start < 7 && ((buf[start] == 0 && (buf[start + 1] & 0x80) == 0) ||
                       (buf[start] == '\xff' && (buf[start + 1] & 0x80) != 0))) {
    ++start;
  }
  return 8 - start;
}

// ---- Avro -------------------------------------------------------------------------------

void WriteAvro(const Fields& f, avro::BinaryWriter& w) {
  w.WriteString(std::string_view(f.uuid, 36));
  w.WriteLong(static_cast<std::int64_t>(f.user));
  w.WriteString(std::string_view(f.session, 16));
  w.WriteEnum(f.event_type);
  w.WriteString(f.page);
  w.WriteString(f.country);
  w.WriteDouble(f.duration_ms);
  w.WriteDouble(f.score);
  w.WriteLong(f.ts_ms);
  char dec[8];
  const int n = DecimalBytes(f.price_unscaled, dec);
  w.WriteBytes(std::string_view(dec + 8 - n, n));
  w.WriteString(f.os);
  w.WriteString(f.version);
  w.WriteBoolean(f.mobile);
  if (f.ntags > 0) {
    w.WriteBlockCount(f.ntags);
    for (int t = 0; t < f.ntags; ++t) w.WriteString(f.tags[t]);
  }
  w.WriteBlockCount(0);
  if (!f.referrer.empty()) {
    w.WriteUnionBranch(1);
    w.WriteString(f.referrer);
  } else {
    w.WriteUnionBranch(0);
  }
}

// ---- Protobuf: the wire format by hand, with libprotobuf's CodedOutputStream primitives ----
// Fields in number order, proto3 defaults (0, "", false, empty) left out, as libprotobuf's own
// serializer writes them. Nested messages' sizes are computed first (no second buffer).

using Coded = google::protobuf::io::CodedOutputStream;
constexpr std::uint32_t kVarint = 0, kFixed64 = 1, kLen = 2;

constexpr std::uint32_t Tag(std::uint32_t field, std::uint32_t wire) { return (field << 3) | wire; }

struct ProtoOut {
  std::uint8_t* p;
  void Varint(std::uint32_t field, std::uint64_t v) {
    if (v == 0) return;
    p = Coded::WriteTagToArray(Tag(field, kVarint), p);
    p = Coded::WriteVarint64ToArray(v, p);
  }
  void Double(std::uint32_t field, double v) {
    if (v == 0) return;
    std::uint64_t bits;
    std::memcpy(&bits, &v, 8);
    p = Coded::WriteTagToArray(Tag(field, kFixed64), p);
    p = Coded::WriteLittleEndian64ToArray(bits, p);
  }
  void Bytes(std::uint32_t field, std::string_view s, bool always = false) {
    if (s.empty() && !always) return;
    p = Coded::WriteTagToArray(Tag(field, kLen), p);
    p = Coded::WriteVarint32ToArray(static_cast<std::uint32_t>(s.size()), p);
    p = Coded::WriteRawToArray(s.data(), static_cast<int>(s.size()), p);
  }
  void MessageHeader(std::uint32_t field, std::size_t size) {
    p = Coded::WriteTagToArray(Tag(field, kLen), p);
    p = Coded::WriteVarint32ToArray(static_cast<std::uint32_t>(size), p);
  }
};

std::size_t VarintField(std::uint64_t v) { return v == 0 ? 0 : 1 + Coded::VarintSize64(v); }  // fields < 16
std::size_t BytesField(std::string_view s) { return s.empty() ? 0 : 1 + Coded::VarintSize32(s.size()) + s.size(); }

void WriteProto(const Fields& f, std::string& out) {
  const std::int64_t seconds = f.ts_ms / 1000;
  const std::int32_t nanos = static_cast<std::int32_t>(f.ts_ms % 1000) * 1'000'000;
  const std::size_t ts_size = VarintField(static_cast<std::uint64_t>(seconds)) + VarintField(static_cast<std::uint64_t>(nanos));
  char dec[8];
  const int dec_n = DecimalBytes(f.price_unscaled, dec);
  const std::string_view dec_value(dec + 8 - dec_n, dec_n);
  const std::size_t price_size = BytesField(dec_value) + VarintField(12) + VarintField(2);
  const std::size_t device_size = BytesField(f.os) + BytesField(f.version) + VarintField(f.mobile ? 1 : 0);

  const std::size_t old = out.size();
  out.resize(old + 512);  // an event is < 300 bytes
  ProtoOut w{reinterpret_cast<std::uint8_t*>(out.data() + old)};
  w.Bytes(1, std::string_view(f.uuid, 36));
  w.Varint(2, f.user);
  w.Bytes(3, std::string_view(f.session, 16));
  w.Varint(4, static_cast<std::uint64_t>(f.event_type));
  w.Bytes(5, f.page);
  w.Bytes(6, f.country);
  w.Double(7, f.duration_ms);
  w.Double(8, f.score);
  w.MessageHeader(9, ts_size);
  w.Varint(1, static_cast<std::uint64_t>(seconds));
  w.Varint(2, static_cast<std::uint64_t>(nanos));
  w.MessageHeader(10, price_size);
  w.Bytes(1, dec_value);
  w.Varint(2, 12);
  w.Varint(3, 2);
  w.MessageHeader(11, device_size);
  w.Bytes(1, f.os);
  w.Bytes(2, f.version);
  w.Varint(3, f.mobile ? 1 : 0);
  for (int t = 0; t < f.ntags; ++t) w.Bytes(12, f.tags[t], true);
  if (!f.referrer.empty()) w.Bytes(13, f.referrer, true);  // presence: null is absent
  out.resize(static_cast<std::size_t>(reinterpret_cast<char*>(w.p) - out.data()));
}

// ---- JSON: a direct writer (no DOM); the event's strings need no escaping, but the writer
// escapes anyway so that it stays correct if they change. ----

void JsonString(std::string_view s, std::string& out) {
  out.push_back('"');
  std::size_t run = 0;
  for (std::size_t k = 0; k < s.size(); ++k) {
    const auto c = static_cast<unsigned char>(s[k]);
    if (c >= 0x20 && c != '"' && c != '\\') continue;
    out.append(s.data() + run, k - run);
    run = k + 1;
    if (c == '"' || c == '\\') {
      out.push_back('\\');
      out.push_back(static_cast<char>(c));
    } else {
      char esc[7];
      std::snprintf(esc, sizeof esc, "\\u%04x", c);
      out.append(esc, 6);
    }
  }
  out.append(s.data() + run, s.size() - run);
  out.push_back('"');
}

void JsonInt(std::int64_t v, std::string& out) {
  char buf[24];
  const auto r = std::to_chars(buf, buf + sizeof buf, v);
  out.append(buf, r.ptr);
}

// Shortest round-trip digits in fixed notation, always with a fraction ("1.0", not "1"), so
// schemaless inference sees a number (double) column from the first record on.
void JsonDouble(double v, std::string& out) {
  char buf[64];
  const auto r = std::to_chars(buf, buf + sizeof buf, v, std::chars_format::fixed);
  out.append(buf, r.ptr);
  if (std::memchr(buf, '.', static_cast<std::size_t>(r.ptr - buf)) == nullptr) out.append(".0");
}

// decimal(12, 2) as a JSON number with exactly two fraction digits.
void JsonDecimal2(std::int64_t unscaled, std::string& out) {
  if (unscaled < 0) {
    out.push_back('-');
    unscaled = -unscaled;
  }
  JsonInt(unscaled / 100, out);
  const auto cents = static_cast<int>(unscaled % 100);
  out.push_back('.');
  out.push_back(static_cast<char>('0' + cents / 10));
  out.push_back(static_cast<char>('0' + cents % 10));
}

void WriteJson(const Fields& f, std::string& out) {
  out.append(R"({"event_id":)");
  JsonString(std::string_view(f.uuid, 36), out);
  out.append(R"(,"user_id":)");
  JsonInt(static_cast<std::int64_t>(f.user), out);
  out.append(R"(,"session_id":)");
  JsonString(std::string_view(f.session, 16), out);
  out.append(R"(,"event_type":)");
  JsonString(kEventTypes[static_cast<std::size_t>(f.event_type)], out);
  out.append(R"(,"page":)");
  JsonString(f.page, out);
  out.append(R"(,"country":)");
  JsonString(f.country, out);
  out.append(R"(,"duration_ms":)");
  JsonDouble(f.duration_ms, out);
  out.append(R"(,"score":)");
  JsonDouble(f.score, out);
  out.append(R"(,"ts":)");
  JsonInt(f.ts_ms, out);
  out.append(R"(,"price":)");
  JsonDecimal2(f.price_unscaled, out);
  out.append(R"(,"device":{"os":)");
  JsonString(f.os, out);
  out.append(R"(,"app_version":)");
  JsonString(f.version, out);
  out.append(f.mobile ? R"(,"mobile":true},"tags":[)" : R"(,"mobile":false},"tags":[)");
  for (int t = 0; t < f.ntags; ++t) {
    if (t > 0) out.push_back(',');
    JsonString(f.tags[t], out);
  }
  out.append(R"(],"referrer":)");
  if (f.referrer.empty()) {
    out.append("null");
  } else {
    JsonString(f.referrer, out);
  }
  out.push_back('}');
}

void AppendHeader(std::int32_t schema_id, std::string& out) {
  const auto id = static_cast<std::uint32_t>(schema_id);
  const char header[5] = {0, static_cast<char>(id >> 24), static_cast<char>(id >> 16), static_cast<char>(id >> 8),
                          static_cast<char>(id)};
  out.append(header, 5);
}

}  // namespace

std::optional<Format> ParseFormat(std::string_view name) {
  if (name == "avro") return Format::kAvro;
  if (name == "protobuf") return Format::kProtobuf;
  if (name == "json_schema") return Format::kJsonSchema;
  if (name == "json") return Format::kJson;
  return std::nullopt;
}

std::string_view FormatName(Format format) {
  switch (format) {
    case Format::kAvro: return "avro";
    case Format::kProtobuf: return "protobuf";
    case Format::kJsonSchema: return "json_schema";
    case Format::kJson: return "json";
  }
  return "?";
}

std::string_view SchemaType(Format format) {
  switch (format) {
    case Format::kAvro: return "AVRO";
    case Format::kProtobuf: return "PROTOBUF";
    case Format::kJsonSchema: return "JSON";
    case Format::kJson: return "";
  }
  return "";
}

std::string_view EventSchema(Format format) {
  switch (format) {
    case Format::kAvro: return kSchema;
    case Format::kProtobuf: return kProtoSchema;
    case Format::kJsonSchema: return kJsonSchema;
    case Format::kJson: return "";
  }
  return "";
}

std::string_view EventSchemaJson() { return kSchema; }

void EncodeEvent(std::uint64_t i, std::int64_t ts_ms, avro::BinaryWriter& w) {
  Fields f;
  MakeFields(i, ts_ms, f);
  WriteAvro(f, w);
}

void AppendEvent(Format format, std::uint64_t i, std::int64_t ts_ms, std::string& out) {
  Fields f;
  MakeFields(i, ts_ms, f);
  switch (format) {
    case Format::kAvro: {
      thread_local avro::BinaryWriter w;
      w.clear();
      WriteAvro(f, w);
      out.append(w.data());
      break;
    }
    case Format::kProtobuf: WriteProto(f, out); break;
    case Format::kJsonSchema:
    case Format::kJson: WriteJson(f, out); break;
  }
}

void AppendFramedEvent(Format format, std::int32_t schema_id, std::uint64_t i, std::int64_t ts_ms, std::string& out) {
  if (format != Format::kJson) AppendHeader(schema_id, out);
  if (format == Format::kProtobuf) out.push_back('\0');  // message indexes [0]: the first message
  AppendEvent(format, i, ts_ms, out);
}

std::size_t FramingBytes(Format format) {
  switch (format) {
    case Format::kAvro:
    case Format::kJsonSchema: return 5;
    case Format::kProtobuf: return 6;
    case Format::kJson: return 0;
  }
  return 0;
}

void WriteConfluentHeader(std::int32_t schema_id, avro::BinaryWriter& w) {
  const auto id = static_cast<std::uint32_t>(schema_id);
  const char header[5] = {0, static_cast<char>(id >> 24), static_cast<char>(id >> 16), static_cast<char>(id >> 8),
                          static_cast<char>(id)};
  w.WriteRaw(std::string_view(header, 5));
}

std::vector<std::string> EncodeEvents(std::uint64_t first, std::uint64_t count, std::int64_t base_ms) {
  return EncodeEvents(Format::kAvro, first, count, base_ms);
}

std::vector<std::string> EncodeEvents(Format format, std::uint64_t first, std::uint64_t count, std::int64_t base_ms) {
  std::vector<std::string> out;
  out.reserve(count);
  std::string buf;
  for (std::uint64_t i = first; i < first + count; ++i) {
    buf.clear();
    AppendEvent(format, i, base_ms + static_cast<std::int64_t>(i), buf);
    out.emplace_back(buf);
  }
  return out;
}

}  // namespace floe::bench
