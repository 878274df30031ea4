// Avro Object Container Files: ContainerFileWriter and ContainerFileReader. See
// container_file.h for the format and the guarantees on corrupt input.
#include "floe/avro/container_file.h"

#include <arrow/buffer.h>
#include <arrow/io/interfaces.h>
#include <arrow/io/memory.h>
#include <arrow/record_batch.h>

#include <algorithm>
#include <cstdio>
#include <limits>
#include <random>

#include "floe/avro/block_codec_internal.h"
#include "floe/avro/datum_decoder.h"
#include "floe/avro/datum_skip_internal.h"
#include "floe/core/arrow_interop.h"

namespace floe::avro {
namespace {

constexpr std::string_view kMagic("Obj\x01", 4);
constexpr std::size_t kSyncSize = 16;
constexpr std::string_view kSchemaKey = "avro.schema";
constexpr std::string_view kCodecKey = "avro.codec";
// A block starts with two longs, of at most 10 bytes each.
constexpr std::int64_t kMaxBlockHeader = 20;

std::string HexBytes(std::string_view bytes) {
  std::string out;
  for (std::size_t i = 0; i < bytes.size(); ++i) {
    char buf[4];
    std::snprintf(buf, sizeof(buf), i == 0 ? "%02x" : " %02x", static_cast<unsigned>(static_cast<std::uint8_t>(bytes[i])));
    out += buf;
  }
  return out;
}

Status Invalid(std::int64_t offset, const std::string& rule) {
  return Status::InvalidArgument("invalid Avro container file at byte " + std::to_string(offset) + ": " + rule);
}

Status Truncated(std::int64_t offset, const std::string& what) {
  return Status::InvalidArgument("truncated Avro container file at byte " + std::to_string(offset) + ": " + what);
}

std::string_view View(const arrow::Buffer& b) {
  return std::string_view(reinterpret_cast<const char*>(b.data()), static_cast<std::size_t>(b.size()));
}

SyncMarker RandomSyncMarker() {
  std::random_device rd;
  SyncMarker m{};
  for (std::size_t i = 0; i < m.size(); i += 4) {
    const std::uint32_t r = rd();
    for (std::size_t k = 0; k < 4; ++k) m[i + k] = static_cast<std::uint8_t>(r >> (8 * k));
  }
  return m;
}

std::string_view View(const SyncMarker& m) { return std::string_view(reinterpret_cast<const char*>(m.data()), m.size()); }

}  // namespace

std::string_view CodecName(Codec codec) {
  switch (codec) {
    case Codec::kNull: return "null";
    case Codec::kDeflate: return "deflate";
    case Codec::kSnappy: return "snappy";
    case Codec::kZstandard: return "zstandard";
  }
  return "?";
}

Result<Codec> CodecFromName(std::string_view name) {
  for (Codec c : {Codec::kNull, Codec::kDeflate, Codec::kSnappy, Codec::kZstandard}) {
    if (CodecName(c) == name) return c;
  }
  return Status::Unsupported("Avro codec '" + std::string(name) +
                             "' is not supported: Floe reads and writes null, deflate, snappy and zstandard");
}

// ---------------------------------------------------------------------------------------
// Writer

ContainerFileWriter::ContainerFileWriter() = default;
ContainerFileWriter::~ContainerFileWriter() = default;

Result<std::unique_ptr<ContainerFileWriter>> ContainerFileWriter::Open(std::shared_ptr<arrow::io::OutputStream> sink,
                                                                       std::string schema_json,
                                                                       ContainerWriterOptions options) {
  if (!sink) return Status::InvalidArgument("ContainerFileWriter needs an output stream");
  if (options.block_bytes == 0) return Status::InvalidArgument("ContainerWriterOptions::block_bytes must be positive");
  for (const auto& [key, value] : options.metadata) {
    if (key.starts_with("avro.")) {
      return Status::InvalidArgument("file metadata key '" + key +
                                     "' is reserved: keys starting with \"avro.\" belong to the Avro specification");
    }
  }
  auto schema = ParseSchema(schema_json);
  if (!schema.ok()) return schema.status().WithContext("the schema of an Avro container file");

  std::unique_ptr<ContainerFileWriter> w(new ContainerFileWriter());
  w->sink_ = std::move(sink);
  w->schema_json_ = std::move(schema_json);
  w->schema_ = *std::move(schema);
  w->sync_ = options.sync_marker ? *options.sync_marker : RandomSyncMarker();
  if (options.codec != Codec::kNull) {
    FLOE_ASSIGN_OR_RETURN(w->codec_, BlockCodec::Make(options.codec, options.compression_level));
  }
  w->options_ = std::move(options);
  const std::size_t expected = std::min<std::size_t>(w->options_.block_bytes, 4 << 20);
  w->block_.reserve(expected + expected / 4);

  BinaryWriter header;
  header.WriteRaw(kMagic);
  header.WriteBlockCount(static_cast<std::int64_t>(2 + w->options_.metadata.size()));
  header.WriteString(kSchemaKey);
  header.WriteBytes(w->schema_json_);
  header.WriteString(kCodecKey);
  header.WriteBytes(CodecName(w->options_.codec));
  for (const auto& [key, value] : w->options_.metadata) {
    header.WriteString(key);
    header.WriteBytes(value);
  }
  header.WriteBlockCount(0);
  header.WriteFixed(View(w->sync_));
  FLOE_RETURN_IF_ERROR(w->Write(header.data()));
  return w;
}

Status ContainerFileWriter::Write(std::string_view bytes) {
  if (!error_.ok()) return error_;
  const arrow::Status st = sink_->Write(bytes.data(), static_cast<std::int64_t>(bytes.size()));
  if (!st.ok()) {
    error_ = FromArrow(st).WithContext("writing an Avro container file (the file is incomplete)");
    return error_;
  }
  bytes_written_ += static_cast<std::int64_t>(bytes.size());
  return Status::OK();
}

Status ContainerFileWriter::EndDatum() {
  if (closed_) return Status::InvalidArgument("EndDatum after Close of an Avro container file");
  if (!error_.ok()) return error_;
  if (options_.validate_datums) {
    BinaryReader check(block_.data().substr(datum_start_));
    Status st = SkipDatum(*schema_, check);
    if (st.ok() && !check.at_end()) {
      st = Status::InvalidArgument("the datum ends at byte " + std::to_string(check.offset()) + " but " +
                                   std::to_string(check.size()) + " bytes were written");
    }
    if (!st.ok()) {
      DiscardDatum();
      return st.WithContext("datum " + std::to_string(num_datums_) + " does not match the file's schema");
    }
  }
  ++block_datums_;
  ++num_datums_;
  datum_start_ = block_.size();
  if (block_.size() >= options_.block_bytes) return WriteBlock();
  return Status::OK();
}

Status ContainerFileWriter::WriteBlock() {
  if (block_datums_ == 0) return Status::OK();
  std::string_view data = block_.data();
  if (codec_) {
    FLOE_RETURN_IF_ERROR(codec_->Compress(data, &compressed_));
    data = compressed_;
  }
  frame_.clear();
  frame_.WriteLong(block_datums_);
  frame_.WriteLong(static_cast<std::int64_t>(data.size()));
  FLOE_RETURN_IF_ERROR(Write(frame_.data()));
  FLOE_RETURN_IF_ERROR(Write(data));
  FLOE_RETURN_IF_ERROR(Write(View(sync_)));
  block_.clear();
  datum_start_ = 0;
  block_datums_ = 0;
  return Status::OK();
}

Status ContainerFileWriter::Close() {
  if (closed_) return Status::OK();
  if (!error_.ok()) return error_;
  if (block_.size() > datum_start_) {
    return Status::InvalidArgument("Close of an Avro container file with a datum begun but not ended "
                                   "(call EndDatum or DiscardDatum first)");
  }
  FLOE_RETURN_IF_ERROR(WriteBlock());
  const arrow::Status st = sink_->Close();
  if (!st.ok()) {
    error_ = FromArrow(st).WithContext("closing an Avro container file");
    return error_;
  }
  closed_ = true;
  return Status::OK();
}

// ---------------------------------------------------------------------------------------
// Reader

ContainerFileReader::ContainerFileReader() = default;
ContainerFileReader::~ContainerFileReader() = default;

Result<std::unique_ptr<ContainerFileReader>> ContainerFileReader::Open(std::shared_ptr<arrow::io::RandomAccessFile> file,
                                                                       ContainerReaderOptions options) {
  if (!file) return Status::InvalidArgument("ContainerFileReader needs a file");
  std::unique_ptr<ContainerFileReader> r(new ContainerFileReader());
  r->file_ = std::move(file);
  r->options_ = options;
  FLOE_ASSIGN_OR_RETURN_ARROW(r->file_size_, r->file_->GetSize());
  FLOE_RETURN_IF_ERROR(r->ReadHeader());
  return r;
}

Result<std::unique_ptr<ContainerFileReader>> ContainerFileReader::Open(std::shared_ptr<arrow::Buffer> bytes,
                                                                       ContainerReaderOptions options) {
  if (!bytes) return Status::InvalidArgument("ContainerFileReader needs a buffer");
  return Open(std::make_shared<arrow::io::BufferReader>(std::move(bytes)), options);
}

Result<std::unique_ptr<ContainerFileReader>> ContainerFileReader::Open(std::string bytes,
                                                                       ContainerReaderOptions options) {
  return Open(arrow::Buffer::FromString(std::move(bytes)), options);
}

// The header's size is not known before it is parsed: parse a prefix of the file and,
// when that fails and the file is longer, a four times longer one, up to the limit.
Status ContainerFileReader::ReadHeader() {
  const auto limit = static_cast<std::int64_t>(options_.max_header_bytes);
  std::int64_t want = std::min<std::int64_t>({file_size_, limit, 64 * 1024});
  while (true) {
    FLOE_ASSIGN_OR_RETURN_ARROW(auto prefix, file_->ReadAt(0, want));
    bool cut_short = false;  // the parse failed where more bytes might have let it go on
    const Status st = ParseHeader(View(*prefix), &cut_short);
    if (st.ok()) return st;
    if (prefix->size() < want) return Status::IoError("short read of an Avro container file header");
    if (!cut_short || want == file_size_) return st;
    if (want >= limit) {
      return Status::InvalidArgument("Avro container file header does not end within its first " +
                                     std::to_string(limit) + " bytes (ContainerReaderOptions::max_header_bytes): " +
                                     st.message());
    }
    want = std::min({file_size_, limit, want * 4});
  }
}

Status ContainerFileReader::ParseHeader(std::string_view bytes, bool* cut_short) {
  metadata_.clear();
  *cut_short = false;
  if (bytes.size() < kMagic.size() || bytes.substr(0, kMagic.size()) != kMagic) {
    if (bytes.size() < kMagic.size() && kMagic.starts_with(bytes)) {
      return Truncated(0, "the file has " + std::to_string(bytes.size()) + " bytes, fewer than the 4-byte magic");
    }
    return Invalid(0, "not an Avro object container file: it starts with " +
                          HexBytes(bytes.substr(0, kMagic.size())) + ", not the magic 4f 62 6a 01 (\"Obj\" 1)");
  }
  BinaryReader in(bytes);
  FLOE_RETURN_IF_ERROR(in.Skip(kMagic.size()));
  std::map<std::string, std::size_t> key_offsets;
  // From here to the sync marker, a failure may just mean that `bytes` ends too early.
  *cut_short = true;
  // The metadata map: blocks of (key string, value bytes), ended by a zero count.
  while (true) {
    const std::size_t at = in.offset();
    std::int64_t count = 0;
    Status st = in.ReadLong(&count);
    if (!st.ok()) return st.WithContext("Avro container file header (metadata map)");
    if (count == 0) break;
    if (count < 0) {
      if (count == std::numeric_limits<std::int64_t>::min()) {
        *cut_short = false;
        return Invalid(static_cast<std::int64_t>(at), "metadata block count is out of range");
      }
      count = -count;
      std::int64_t byte_size = 0;
      st = in.ReadLong(&byte_size);
      if (!st.ok()) return st.WithContext("Avro container file header (metadata map)");
    }
    // An entry is at least two bytes (two empty lengths).
    if (static_cast<std::uint64_t>(count) > in.remaining() / 2) {
      if (bytes.size() < static_cast<std::size_t>(file_size_)) {
        return Truncated(static_cast<std::int64_t>(at), "the metadata block of " + std::to_string(count) +
                                                            " entries does not fit in the bytes read");
      }
      return Invalid(static_cast<std::int64_t>(at), "the metadata map says it has a block of " +
                                                        std::to_string(count) + " entries, but only " +
                                                        std::to_string(in.remaining()) + " bytes follow");
    }
    for (std::int64_t i = 0; i < count; ++i) {
      const std::size_t key_at = in.offset();
      std::string_view key;
      std::string_view value;
      st = in.ReadString(&key);
      if (st.ok()) st = in.ReadBytes(&value);
      if (!st.ok()) return st.WithContext("Avro container file header (metadata map)");
      auto [it, inserted] = key_offsets.emplace(std::string(key), key_at);
      if (!inserted) {
        *cut_short = false;
        return Invalid(static_cast<std::int64_t>(key_at), "metadata key '" + std::string(key) +
                                                              "' appears a second time (first at byte " +
                                                              std::to_string(it->second) + ")");
      }
      metadata_.emplace(std::string(key), std::string(value));
    }
  }
  std::string_view sync;
  if (Status st = in.ReadFixed(kSyncSize, &sync); !st.ok()) {
    return Truncated(static_cast<std::int64_t>(in.offset()), "the header ends before its 16-byte sync marker");
  }
  std::copy(sync.begin(), sync.end(), reinterpret_cast<char*>(sync_.data()));
  header_size_ = static_cast<std::int64_t>(in.offset());
  *cut_short = false;

  auto schema_it = metadata_.find(std::string(kSchemaKey));
  if (schema_it == metadata_.end()) {
    return Invalid(4, "the header's metadata has no \"avro.schema\" (the writer schema)");
  }
  schema_json_ = schema_it->second;
  schema_offset_ = static_cast<std::int64_t>(key_offsets[std::string(kSchemaKey)]);
  auto schema = ParseSchema(schema_json_);
  if (!schema.ok()) {
    return schema.status().WithContext("Avro container file header: the writer schema (\"avro.schema\" at byte " +
                                       std::to_string(schema_offset_) + ")");
  }
  schema_ = *std::move(schema);
  always_empty_ = IsAlwaysEmpty(*schema_);
  codec_ = Codec::kNull;  // the specification's default when "avro.codec" is absent
  if (auto codec_it = metadata_.find(std::string(kCodecKey)); codec_it != metadata_.end()) {
    auto codec = CodecFromName(codec_it->second);
    if (!codec.ok()) {
      return codec.status().WithContext("Avro container file header (\"avro.codec\" at byte " +
                                        std::to_string(key_offsets[std::string(kCodecKey)]) + ")");
    }
    codec_ = *codec;
  }
  block_codec_.reset();
  if (codec_ != Codec::kNull) {
    FLOE_ASSIGN_OR_RETURN(block_codec_, BlockCodec::Make(codec_, std::nullopt));
  }
  next_block_offset_ = header_size_;
  return Status::OK();
}

Status ContainerFileReader::LoadBlock() {
  const std::int64_t at = next_block_offset_;
  const std::int64_t left = file_size_ - at;
  FLOE_ASSIGN_OR_RETURN_ARROW(auto head, file_->ReadAt(at, std::min(left, kMaxBlockHeader)));
  BinaryReader h(View(*head));
  std::int64_t count = 0;
  std::int64_t size = 0;
  Status st = h.ReadLong(&count);
  if (st.ok()) st = h.ReadLong(&size);
  if (!st.ok()) {
    if (head->size() < kMaxBlockHeader) {
      return Truncated(at + static_cast<std::int64_t>(h.offset()),
                       "the file ends inside the header (datum count and size) of the block at byte " +
                           std::to_string(at));
    }
    return Invalid(at, "the block header is not two valid longs (" + st.message() + ")");
  }
  const std::int64_t data_at = at + static_cast<std::int64_t>(h.offset());
  if (count < 0) return Invalid(at, "the block says it has a negative number of datums (" + std::to_string(count) + ")");
  if (size < 0) return Invalid(at, "the block says its data has a negative size (" + std::to_string(size) + ")");
  const std::int64_t after_data = file_size_ - data_at;
  if (size > after_data) {
    return Truncated(data_at, "the block at byte " + std::to_string(at) + " says its data has " +
                                  std::to_string(size) + " bytes, but the file ends " + std::to_string(after_data) +
                                  " bytes later");
  }
  if (static_cast<std::uint64_t>(size) > options_.max_block_bytes) {
    return Invalid(at, "the block's data has " + std::to_string(size) + " bytes, more than " +
                           std::to_string(options_.max_block_bytes) + " (ContainerReaderOptions::max_block_bytes)");
  }
  if (after_data - size < static_cast<std::int64_t>(kSyncSize)) {
    return Truncated(data_at + size, "the file ends before the 16-byte sync marker of the block at byte " +
                                         std::to_string(at));
  }
  FLOE_ASSIGN_OR_RETURN_ARROW(block_buffer_, file_->ReadAt(data_at, size + static_cast<std::int64_t>(kSyncSize)));
  if (block_buffer_->size() != size + static_cast<std::int64_t>(kSyncSize)) {
    return Status::IoError("short read of the Avro container file block at byte " + std::to_string(at));
  }
  const std::string_view raw = View(*block_buffer_);
  const std::string_view sync = raw.substr(static_cast<std::size_t>(size));
  if (sync != View(sync_)) {
    return Invalid(data_at + size, "the 16 bytes after the block at byte " + std::to_string(at) + " (" +
                                       std::to_string(count) + " datums, " + std::to_string(size) +
                                       " bytes) are not the file's sync marker: the block's size is wrong or "
                                       "the file is corrupt");
  }
  std::string_view data = raw.substr(0, static_cast<std::size_t>(size));
  if (block_codec_) {
    st = block_codec_->Decompress(data, options_.max_block_bytes, &decompressed_);
    if (!st.ok()) return Invalid(data_at, "the data of the block at byte " + std::to_string(at) + ": " + st.message());
    data = decompressed_;
  }
  // Every datum of a schema takes a byte at least, unless all of them take none.
  if (always_empty_ ? static_cast<std::uint64_t>(count) > options_.max_block_bytes
                    : static_cast<std::uint64_t>(count) > data.size()) {
    return Invalid(at, "the block says it has " + std::to_string(count) + " datums, but its " +
                           std::to_string(data.size()) + " bytes of data" +
                           (block_codec_ ? std::string(" (decompressed)") : std::string()) + " cannot hold that many");
  }
  block_data_ = data;
  block_ = BinaryReader(data);
  in_block_ = true;
  block_offset_ = at;
  block_data_offset_ = data_at;
  block_datums_ = count;
  datums_left_ = count;
  next_block_offset_ = data_at + size + static_cast<std::int64_t>(kSyncSize);
  return Status::OK();
}

Result<bool> ContainerFileReader::NextDatum(BinaryReader** datum) {
  if (!error_.ok()) return error_;
  while (datums_left_ == 0) {
    if (in_block_ && !block_.at_end()) {
      error_ = Invalid(block_offset_, "the block's " + std::to_string(block_datums_) + " datums end at byte " +
                                          std::to_string(block_.offset()) + " of its " + std::to_string(block_.size()) +
                                          " bytes of data" + (block_codec_ ? " (decompressed)" : "") +
                                          ": the datum count or the data is wrong");
      return error_;
    }
    in_block_ = false;
    if (next_block_offset_ >= file_size_) return false;
    if (Status st = LoadBlock(); !st.ok()) {
      error_ = st;
      return error_;
    }
  }
  --datums_left_;
  ++datums_read_;
  *datum = &block_;
  return true;
}

Result<bool> ContainerFileReader::NextDatum(std::string_view* datum) {
  BinaryReader* in = nullptr;
  FLOE_ASSIGN_OR_RETURN(bool more, NextDatum(&in));
  if (!more) return false;
  const std::size_t start = in->offset();
  if (Status st = SkipDatum(*schema_, *in); !st.ok()) {
    error_ = st.WithContext(DatumContext());
    return error_;
  }
  *datum = block_data_.substr(start, in->offset() - start);
  return true;
}

std::string ContainerFileReader::DatumContext() const {
  std::string out = "datum " + std::to_string(block_datums_ - datums_left_ - 1) + " of the block at byte " +
                    std::to_string(block_offset_);
  if (block_codec_) return out + " (byte offsets below are within the block's decompressed data)";
  return out + " (byte offsets below are within the block's data, which starts at byte " +
         std::to_string(block_data_offset_) + ")";
}

Result<std::shared_ptr<arrow::RecordBatch>> ContainerFileReader::ReadAll(arrow::MemoryPool* pool) {
  if (!error_.ok()) return error_;
  MappingOptions mapping;
  mapping.allow_empty_records = true;
  auto decoder = RecordBatchDecoder::Make(schema_, pool, mapping);
  if (!decoder.ok()) {
    return decoder.status().WithContext("decoding the Avro container file's writer schema (\"avro.schema\" at byte " +
                                        std::to_string(schema_offset_) + ")");
  }
  BinaryReader* in = nullptr;
  while (true) {
    FLOE_ASSIGN_OR_RETURN(bool more, NextDatum(&in));
    if (!more) break;
    if (Status st = decoder->Append(*in); !st.ok()) {
      error_ = st.WithContext(DatumContext());
      return error_;
    }
  }
  return decoder->Flush();
}

}  // namespace floe::avro
