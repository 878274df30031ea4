// The error Statuses of BinaryReader, out of line: they are built only for corrupt data,
// and keeping them here keeps the inline read paths small.
#include "floe/avro/binary_reader.h"

#include <string>

namespace floe::avro::reader_errors {

Status Truncated(std::size_t offset, std::string_view what, std::size_t needed, std::size_t left) {
  return Status::InvalidArgument("truncated Avro data at byte " + std::to_string(offset) + ": " + std::string(what) +
                                 " needs " + std::to_string(needed) + " bytes, " + std::to_string(left) + " left");
}

Status TruncatedVarint(std::size_t offset, std::string_view what, std::size_t got) {
  return Status::InvalidArgument("truncated Avro data at byte " + std::to_string(offset) + ": the varint of " +
                                 (what == "int" ? "an " : "a ") + std::string(what) + " ends after " +
                                 std::to_string(got) + (got == 1 ? " byte" : " bytes"));
}

Status Invalid(std::size_t offset, std::string_view what) {
  return Status::InvalidArgument("invalid Avro data at byte " + std::to_string(offset) + ": " + std::string(what));
}

}  // namespace floe::avro::reader_errors
