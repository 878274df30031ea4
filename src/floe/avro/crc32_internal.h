#pragma once
// CRC-32 as in zlib, gzip and PNG (ISO-HDLC: reflected polynomial 0xEDB88320, initial and
// final xor 0xFFFFFFFF): what the Avro "snappy" codec appends to each block. A small
// table-driven implementation, so that the avro module needs no zlib link of its own.
#include <cstdint>
#include <string_view>

namespace floe::avro {

// The CRC of `data`; pass the previous result as `crc` to continue over more data.
std::uint32_t Crc32(std::string_view data, std::uint32_t crc = 0);

}  // namespace floe::avro
