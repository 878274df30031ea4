#include "event.h"

#include <array>

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

// Avro decimal on bytes: the unscaled value as big-endian two's complement, minimal length.
void WriteDecimal(std::int64_t unscaled, avro::BinaryWriter& w) {
  char buf[8];
  constexpr int n = 8;
  for (int i = 7; i >= 0; --i) buf[i] = static_cast<char>(static_cast<std::uint64_t>(unscaled) >> (8 * (7 - i)));
  int start = 0;
  // Drop leading bytes that only repeat the sign.
  while (start < 7 && ((buf[start] == 0 && (buf[start + 1] & 0x80) == 0) ||
                       (buf[start] == '\xff' && (buf[start + 1] & 0x80) != 0))) {
    ++start;
  }
  w.WriteBytes(std::string_view(buf + start, n - start));
}

}  // namespace

std::string_view EventSchemaJson() { return kSchema; }

void EncodeEvent(std::uint64_t i, std::int64_t ts_ms, avro::BinaryWriter& w) {
  const std::uint64_t h = Mix(i);
  const std::uint64_t h2 = Mix(h);
  char uuid[36];  // 8-4-4-4-12, from two hashes
  WriteHex(h >> 32, 8, uuid);
  uuid[8] = '-';
  WriteHex(h >> 16, 4, uuid + 9);
  uuid[13] = '-';
  WriteHex(h, 4, uuid + 14);
  uuid[18] = '-';
  WriteHex(h2 >> 48, 4, uuid + 19);
  uuid[23] = '-';
  WriteHex(h2, 12, uuid + 24);
  w.WriteString(std::string_view(uuid, 36));
  const std::uint64_t user = (h2 >> 20) % 1'000'000;
  w.WriteLong(static_cast<std::int64_t>(user));
  char session[16];
  WriteHex(Mix(user ^ (i >> 6)), 16, session);  // a user's session spans ~64 events
  w.WriteString(std::string_view(session, 16));
  w.WriteEnum(static_cast<std::int32_t>(h % 5));
  w.WriteString(kPages[(h >> 8) % kPages.size()]);
  w.WriteString(kCountries[(h >> 12) % kCountries.size()]);
  w.WriteDouble(static_cast<double>((h >> 16) % 600'000) / 10.0);
  w.WriteDouble(static_cast<double>(h2 % 10'000) / 10'000.0);
  w.WriteLong(ts_ms);
  WriteDecimal(static_cast<std::int64_t>((h2 >> 8) % 10'000'000), w);  // up to 99,999.99
  w.WriteString(kOs[(h >> 20) % kOs.size()]);
  w.WriteString(kVersions[(h >> 24) % kVersions.size()]);
  w.WriteBoolean(((h >> 28) & 3) < 2);
  const int ntags = static_cast<int>((h >> 30) % 3);
  if (ntags > 0) {
    w.WriteBlockCount(ntags);
    for (int t = 0; t < ntags; ++t) w.WriteString(kTags[(h >> (32 + 4 * t)) % kTags.size()]);
  }
  w.WriteBlockCount(0);
  if ((h >> 44) & 1) {
    w.WriteUnionBranch(1);
    w.WriteString(kReferrers[(h >> 45) % kReferrers.size()]);
  } else {
    w.WriteUnionBranch(0);
  }
}

void WriteConfluentHeader(std::int32_t schema_id, avro::BinaryWriter& w) {
  const auto id = static_cast<std::uint32_t>(schema_id);
  const char header[5] = {0, static_cast<char>(id >> 24), static_cast<char>(id >> 16), static_cast<char>(id >> 8),
                          static_cast<char>(id)};
  w.WriteRaw(std::string_view(header, 5));
}

std::vector<std::string> EncodeEvents(std::uint64_t first, std::uint64_t count, std::int64_t base_ms) {
  std::vector<std::string> out;
  out.reserve(count);
  avro::BinaryWriter w;
  for (std::uint64_t i = first; i < first + count; ++i) {
    w.clear();
    EncodeEvent(i, base_ms + static_cast<std::int64_t>(i), w);
    out.emplace_back(w.data());
  }
  return out;
}

}  // namespace floe::bench
