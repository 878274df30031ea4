#include "floe/avro/binary_writer.h"

namespace floe::avro {

void BinaryWriter::WriteVarint(std::uint64_t z) {
  char b[10];  // 64 bits in 7-bit groups
  std::size_t n = 0;
  while (z >= 0x80) {
    b[n++] = static_cast<char>((z & 0x7f) | 0x80);
    z >>= 7;
  }
  b[n++] = static_cast<char>(z);
  out_.append(b, n);
}

}  // namespace floe::avro
