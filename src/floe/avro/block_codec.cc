#include "floe/avro/block_codec_internal.h"

#include <arrow/util/compression.h>

#include <algorithm>
#include <cstdio>

#include "floe/avro/crc32_internal.h"
#include "floe/core/arrow_interop.h"

namespace floe::avro {
namespace {

// Java's Avro defaults (DeflateCodec: zlib's default level; ZstandardCodec: 3).
constexpr int kDefaultDeflateLevel = 6;
constexpr int kDefaultZstdLevel = 3;

std::string Hex32(std::uint32_t v) {
  char buf[11];
  std::snprintf(buf, sizeof(buf), "0x%08x", v);
  return buf;
}

Status Corrupt(Codec codec, const std::string& what) {
  return Status::InvalidArgument("corrupt " + std::string(CodecName(codec)) + " data: " + what);
}

}  // namespace

BlockCodec::BlockCodec(Codec codec, std::unique_ptr<arrow::util::Codec> arrow_codec)
    : codec_(codec), arrow_codec_(std::move(arrow_codec)) {}

BlockCodec::~BlockCodec() = default;

Result<std::unique_ptr<BlockCodec>> BlockCodec::Make(Codec codec, std::optional<int> compression_level) {
  arrow::Compression::type type = arrow::Compression::UNCOMPRESSED;
  std::unique_ptr<arrow::util::CodecOptions> options;
  switch (codec) {
    case Codec::kNull: return Status::Internal("the null codec has no BlockCodec");
    case Codec::kDeflate: {
      type = arrow::Compression::GZIP;
      auto gzip = std::make_unique<arrow::util::GZipCodecOptions>();
      gzip->gzip_format = arrow::util::GZipFormat::DEFLATE;  // raw RFC 1951: no zlib or gzip framing
      gzip->compression_level = compression_level.value_or(kDefaultDeflateLevel);
      options = std::move(gzip);
      break;
    }
    case Codec::kSnappy:
      type = arrow::Compression::SNAPPY;
      options = std::make_unique<arrow::util::CodecOptions>();
      break;
    case Codec::kZstandard: {
      type = arrow::Compression::ZSTD;
      auto zstd = std::make_unique<arrow::util::ZstdCodecOptions>();
      zstd->compression_level = compression_level.value_or(kDefaultZstdLevel);
      options = std::move(zstd);
      break;
    }
  }
  if (!arrow::util::Codec::IsAvailable(type)) {
    return Status::Unsupported("the Avro codec '" + std::string(CodecName(codec)) +
                               "' needs Arrow's " + arrow::util::Codec::GetCodecAsString(type) +
                               " support, which this Arrow build lacks");
  }
  if (codec != Codec::kSnappy && compression_level) {
    FLOE_ASSIGN_OR_RETURN_ARROW(int lo, arrow::util::Codec::MinimumCompressionLevel(type));
    FLOE_ASSIGN_OR_RETURN_ARROW(int hi, arrow::util::Codec::MaximumCompressionLevel(type));
    if (*compression_level < lo || *compression_level > hi) {
      return Status::InvalidArgument("compression level " + std::to_string(*compression_level) + " of the " +
                                     std::string(CodecName(codec)) + " codec is not between " + std::to_string(lo) +
                                     " and " + std::to_string(hi));
    }
  }
  auto created = arrow::util::Codec::Create(type, *options);
  if (!created.ok()) return FromArrow(created.status()).WithContext("creating the " + std::string(CodecName(codec)) + " codec");
  return std::unique_ptr<BlockCodec>(new BlockCodec(codec, std::move(created).ValueUnsafe()));
}

Status BlockCodec::Compress(std::string_view data, std::string* out) {
  auto in = reinterpret_cast<const std::uint8_t*>(data.data());
  const auto n = static_cast<std::int64_t>(data.size());
  out->resize(static_cast<std::size_t>(arrow_codec_->MaxCompressedLen(n, in)) + 4);
  auto written = arrow_codec_->Compress(n, in, static_cast<std::int64_t>(out->size()),
                                        reinterpret_cast<std::uint8_t*>(out->data()));
  if (!written.ok()) return FromArrow(written.status()).WithContext("compressing a block with " + std::string(CodecName(codec_)));
  out->resize(static_cast<std::size_t>(*written));
  if (codec_ == Codec::kSnappy) {  // Avro's snappy framing: the CRC-32 of the uncompressed data, big-endian
    const std::uint32_t crc = Crc32(data);
    for (int shift = 24; shift >= 0; shift -= 8) out->push_back(static_cast<char>(crc >> shift));
  }
  return Status::OK();
}

Status BlockCodec::Decompress(std::string_view compressed, std::size_t max_bytes, std::string* out) {
  if (codec_ == Codec::kSnappy) return Snappy(compressed, max_bytes, out);
  return Stream(compressed, max_bytes, out);
}

// deflate and zstandard do not say how large the data is, so they are decompressed as
// streams into a growing buffer.
Status BlockCodec::Stream(std::string_view compressed, std::size_t max_bytes, std::string* out) {
  if (!decompressor_) {
    auto made = arrow_codec_->MakeDecompressor();
    if (!made.ok()) return FromArrow(made.status());
    decompressor_ = std::move(made).ValueUnsafe();
  } else {
    FLOE_RETURN_IF_ARROW_ERROR(decompressor_->Reset());
  }
  auto in = reinterpret_cast<const std::uint8_t*>(compressed.data());
  const std::size_t in_size = compressed.size();
  std::size_t read = 0;
  std::size_t written = 0;
  out->resize(std::min(max_bytes, std::max<std::size_t>(in_size * 4, 64 * 1024)));
  while (true) {
    if (written == out->size()) {
      if (out->size() >= max_bytes) {
        return Corrupt(codec_, "the block decompresses to more than " + std::to_string(max_bytes) +
                                   " bytes (ContainerReaderOptions::max_block_bytes)");
      }
      out->resize(std::min(max_bytes, out->size() * 2));
    }
    auto r = decompressor_->Decompress(static_cast<std::int64_t>(in_size - read), in + read,
                                       static_cast<std::int64_t>(out->size() - written),
                                       reinterpret_cast<std::uint8_t*>(out->data()) + written);
    if (!r.ok()) return Corrupt(codec_, r.status().message() + " (after " + std::to_string(read) + " of " +
                                            std::to_string(in_size) + " compressed bytes)");
    read += static_cast<std::size_t>(r->bytes_read);
    written += static_cast<std::size_t>(r->bytes_written);
    if (decompressor_->IsFinished()) {
      // deflate: bytes after the end of the stream are ignored, as Java's Inflater and
      // Python's zlib do; fastavro and pyiceberg leave 3 bytes of zlib's Adler-32 there.
      if (read == in_size || codec_ == Codec::kDeflate) break;
      if (r->bytes_read == 0 && r->bytes_written == 0) {
        return Corrupt(codec_, "no progress after " + std::to_string(read) + " of " + std::to_string(in_size) +
                                   " compressed bytes");
      }
      continue;  // zstandard: another frame follows
    }
    if (r->bytes_read == 0 && r->bytes_written == 0 && written < out->size()) {
      // No progress although there is room for output: the input ends mid-stream.
      return Corrupt(codec_, read == in_size ? "the block's " + std::to_string(in_size) +
                                                   " bytes end before the compressed stream does"
                                             : "no progress after " + std::to_string(read) + " of " +
                                                   std::to_string(in_size) + " compressed bytes");
    }
  }
  out->resize(written);
  return Status::OK();
}

// Avro's snappy block: raw snappy data (which starts with the uncompressed length as a
// varint), then the CRC-32 of the uncompressed data, 4 bytes big-endian.
Status BlockCodec::Snappy(std::string_view block, std::size_t max_bytes, std::string* out) {
  if (block.size() < 4) {
    return Corrupt(codec_, "a block of " + std::to_string(block.size()) + " bytes cannot hold the 4-byte CRC-32");
  }
  const std::string_view data = block.substr(0, block.size() - 4);
  std::uint32_t expected_crc = 0;
  for (std::size_t i = block.size() - 4; i < block.size(); ++i) {
    expected_crc = (expected_crc << 8) | static_cast<std::uint8_t>(block[i]);
  }
  std::uint64_t length = 0;
  std::size_t i = 0;
  for (int shift = 0;; shift += 7) {
    if (i >= data.size() || i >= 5) return Corrupt(codec_, "the data does not start with a valid length varint");
    const auto b = static_cast<std::uint8_t>(data[i++]);
    length |= static_cast<std::uint64_t>(b & 0x7f) << shift;
    if ((b & 0x80) == 0) break;
  }
  if (length > max_bytes) {
    return Corrupt(codec_, "the block says it decompresses to " + std::to_string(length) + " bytes, more than " +
                               std::to_string(max_bytes) + " (ContainerReaderOptions::max_block_bytes)");
  }
  // A snappy element of 3 bytes yields at most 64 (a copy with a 2-byte offset), so the
  // length can be checked before anything is allocated for it.
  if (length > (data.size() / 3 + 1) * 64) {
    return Corrupt(codec_, "the block says it decompresses to " + std::to_string(length) + " bytes, which " +
                               std::to_string(data.size()) + " bytes of snappy data cannot hold");
  }
  out->resize(static_cast<std::size_t>(length));
  auto r = arrow_codec_->Decompress(static_cast<std::int64_t>(data.size()),
                                    reinterpret_cast<const std::uint8_t*>(data.data()),
                                    static_cast<std::int64_t>(length), reinterpret_cast<std::uint8_t*>(out->data()));
  if (!r.ok()) return Corrupt(codec_, r.status().message());
  if (static_cast<std::uint64_t>(*r) != length) {
    return Corrupt(codec_, "the block says it decompresses to " + std::to_string(length) + " bytes but gave " +
                               std::to_string(*r));
  }
  const std::uint32_t actual_crc = Crc32(*out);
  if (actual_crc != expected_crc) {
    return Corrupt(codec_, "the block's CRC-32 is " + Hex32(expected_crc) + " but its decompressed data's is " +
                               Hex32(actual_crc));
  }
  return Status::OK();
}

}  // namespace floe::avro
