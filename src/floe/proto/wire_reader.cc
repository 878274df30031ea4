#include "floe/proto/wire_reader_internal.h"

namespace floe::proto::internal {

const char* WireTypeName(std::uint8_t wire) {
  switch (wire) {
    case kVarint: return "0 (varint)";
    case kFixed64: return "1 (64-bit)";
    case kLengthDelimited: return "2 (length-delimited)";
    case kStartGroup: return "3 (start group)";
    case kEndGroup: return "4 (end group)";
    case kFixed32: return "5 (32-bit)";
    default: return "invalid";
  }
}

Status WireReader::Invalid(std::size_t at, const std::string& rule) const {
  return Status::InvalidArgument(rule + " (at byte " + std::to_string(at) + ")");
}

Status WireReader::Truncated(const char* what, std::size_t needed) const {
  return Invalid(offset(), std::string("truncated ") + what + ": " + std::to_string(needed) + " bytes needed, " +
                               std::to_string(remaining()) + " left");
}

Status WireReader::ReadVarintSlow(std::uint64_t* v) {
  const std::size_t at = offset();
  std::uint64_t result = 0;
  for (int i = 0; i < 10; ++i) {
    if (p_ >= end_) return Invalid(at, "truncated varint: the data ends inside it");
    const auto byte = static_cast<std::uint8_t>(*p_++);
    // The 10th byte holds bit 63 only: anything more does not fit 64 bits.
    if (i == 9 && byte > 1) return Invalid(at, "overlong varint: more than 64 bits");
    result |= static_cast<std::uint64_t>(byte & 0x7f) << (7 * i);
    if (byte < 0x80) {
      *v = result;
      return Status::OK();
    }
  }
  return Invalid(at, "overlong varint: more than 10 bytes");
}

Status WireReader::ReadLengthDelimited(std::string_view* out) {
  const std::size_t at = offset();
  std::uint64_t length = 0;
  FLOE_RETURN_IF_ERROR(ReadVarint(&length));
  if (length > remaining()) {
    return Invalid(at, "length " + std::to_string(length) + " runs past the end of the data (" +
                           std::to_string(remaining()) + " bytes left)");
  }
  *out = std::string_view(p_, static_cast<std::size_t>(length));
  p_ += length;
  return Status::OK();
}

Status WireReader::ReadTag(std::uint32_t* number, std::uint8_t* wire) {
  const std::size_t at = offset();
  std::uint64_t tag = 0;
  FLOE_RETURN_IF_ERROR(ReadVarint(&tag));
  if (tag > 0xffffffffULL) return Invalid(at, "tag " + std::to_string(tag) + " does not fit 32 bits");
  *number = static_cast<std::uint32_t>(tag >> 3);
  *wire = static_cast<std::uint8_t>(tag & 7);
  if (*number == 0) return Invalid(at, "field number 0 is not a valid field number");
  if (*wire > kFixed32) return Invalid(at, "wire type " + std::to_string(*wire) + " does not exist");
  return Status::OK();
}

Status WireReader::Skip(std::uint32_t number, std::uint8_t wire, int depth, std::string_view* group) {
  switch (wire) {
    case kVarint: {
      std::uint64_t ignored = 0;
      return ReadVarint(&ignored);
    }
    case kFixed64: {
      std::uint64_t ignored = 0;
      return ReadFixed64(&ignored);
    }
    case kFixed32: {
      std::uint32_t ignored = 0;
      return ReadFixed32(&ignored);
    }
    case kLengthDelimited: {
      std::string_view ignored;
      return ReadLengthDelimited(&ignored);
    }
    case kStartGroup: {
      const std::size_t at = offset();
      if (depth >= kMaxDepth) return Invalid(at, "groups nested deeper than " + std::to_string(kMaxDepth) + " levels");
      const char* start = p_;
      while (true) {
        if (at_end()) return Invalid(at, "group of field " + std::to_string(number) + " has no end-group tag");
        const char* before_tag = p_;
        std::uint32_t inner = 0;
        std::uint8_t inner_wire = 0;
        FLOE_RETURN_IF_ERROR(ReadTag(&inner, &inner_wire));
        if (inner_wire == kEndGroup) {
          if (inner != number) {
            return Invalid(static_cast<std::size_t>(before_tag - base_),
                           "end-group tag of field " + std::to_string(inner) + " closes the group of field " +
                               std::to_string(number));
          }
          if (group != nullptr) *group = std::string_view(start, static_cast<std::size_t>(before_tag - start));
          return Status::OK();
        }
        FLOE_RETURN_IF_ERROR(Skip(inner, inner_wire, depth + 1));
      }
    }
    case kEndGroup:
      return Invalid(offset(), "end-group tag of field " + std::to_string(number) + " without a start-group tag");
    default:
      return Invalid(offset(), "wire type " + std::to_string(wire) + " does not exist");
  }
}

}  // namespace floe::proto::internal
