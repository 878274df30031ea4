#include "floe/proto/wire_format.h"

#include <string>

#include "floe/proto/wire_reader_internal.h"

namespace floe::proto {

namespace {

Status Framing(const Status& error) { return error.WithContext("Protobuf message-index array"); }

void PutZigZag(std::int64_t v, std::string* out) {
  auto n = (static_cast<std::uint64_t>(v) << 1) ^ static_cast<std::uint64_t>(v >> 63);
  while (n >= 0x80) {
    out->push_back(static_cast<char>((n & 0x7f) | 0x80));
    n >>= 7;
  }
  out->push_back(static_cast<char>(n));
}

}  // namespace

Result<MessageIndexes> ParseMessageIndexes(std::string_view payload) {
  internal::WireReader in(payload);
  std::uint64_t raw = 0;
  const std::size_t count_at = in.offset();
  Status st = in.ReadVarint(&raw);
  if (!st.ok()) return Framing(st);
  const std::int64_t count = internal::ZigZag64(raw);
  MessageIndexes out;
  if (count == 0) {  // Confluent's shorthand for [0]
    out.indexes.push_back(0);
    out.message = payload.substr(in.offset());
    return out;
  }
  if (count < 0) return Framing(in.Invalid(count_at, "negative count " + std::to_string(count)));
  if (count > kMaxMessageIndexes) {
    return Framing(in.Invalid(count_at, "count " + std::to_string(count) + " is more than the " +
                                            std::to_string(kMaxMessageIndexes) + " nesting levels a schema can have"));
  }
  // Every index takes at least one byte: a count beyond the bytes left is a corrupt record.
  if (static_cast<std::uint64_t>(count) > in.remaining()) {
    return Framing(in.Invalid(count_at, "count " + std::to_string(count) + " but only " +
                                            std::to_string(in.remaining()) + " bytes follow"));
  }
  out.indexes.reserve(static_cast<std::size_t>(count));
  for (std::int64_t i = 0; i < count; ++i) {
    const std::size_t at = in.offset();
    st = in.ReadVarint(&raw);
    if (!st.ok()) return Framing(st);
    const std::int64_t index = internal::ZigZag64(raw);
    if (index < 0 || index > INT32_MAX) {
      return Framing(in.Invalid(at, "message index " + std::to_string(index) + " is not in [0, 2^31)"));
    }
    out.indexes.push_back(static_cast<std::int32_t>(index));
  }
  out.message = payload.substr(in.offset());
  return out;
}

std::string EncodeMessageIndexes(const std::vector<std::int32_t>& indexes) {
  std::string out;
  if (indexes.size() == 1 && indexes[0] == 0) {
    out.push_back('\0');
    return out;
  }
  PutZigZag(static_cast<std::int64_t>(indexes.size()), &out);
  for (std::int32_t i : indexes) PutZigZag(i, &out);
  return out;
}

}  // namespace floe::proto
