#pragma once
// BlockCodec: compresses and decompresses the data of one container file block with
// Arrow's codecs, in the framing the Avro specification gives each codec. Internal to the
// avro module (container_file.cc). Errors carry no offsets: the caller knows the block.
#include <cstddef>
#include <memory>
#include <optional>
#include <string>
#include <string_view>

#include "floe/avro/container_file.h"
#include "floe/core/result.h"

namespace arrow::util {
class Codec;
class Decompressor;
}  // namespace arrow::util

namespace floe::avro {

class BlockCodec {
 public:
  // For deflate, snappy and zstandard (the null codec needs none).
  static Result<std::unique_ptr<BlockCodec>> Make(Codec codec, std::optional<int> compression_level);
  ~BlockCodec();

  // Replaces *out with the compressed form of `data`.
  Status Compress(std::string_view data, std::string* out);
  // Replaces *out with the data that `compressed` holds, which must be exactly one
  // codec-framed block: no bytes missing, none left over. Fails, without allocating
  // more, when the data would be over `max_bytes`.
  Status Decompress(std::string_view compressed, std::size_t max_bytes, std::string* out);

 private:
  BlockCodec(Codec codec, std::unique_ptr<arrow::util::Codec> arrow_codec);
  Status Stream(std::string_view compressed, std::size_t max_bytes, std::string* out);
  Status Snappy(std::string_view block, std::size_t max_bytes, std::string* out);

  Codec codec_;
  std::unique_ptr<arrow::util::Codec> arrow_codec_;
  std::shared_ptr<arrow::util::Decompressor> decompressor_;  // deflate, zstandard: made on first use
};

}  // namespace floe::avro
