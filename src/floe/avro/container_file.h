#pragma once
// Avro Object Container Files ("Object Container Files" in the Avro specification): the
// file format of Iceberg manifests and manifest lists.
//
//   file   := magic "Obj" 0x01, metadata (a map<bytes> with "avro.schema" and
//             "avro.codec"), 16-byte sync marker, then blocks
//   block  := datum count (long), data size (long), data (the datums, one after the other,
//             compressed by the codec), the 16-byte sync marker again
//
// Codecs: "null", "deflate" (raw RFC 1951 data, no zlib header or checksum: what Java
// writes, and Iceberg's default for manifests; on read, bytes after the end of the
// deflate stream are ignored like Java and Python do, since fastavro and pyiceberg leave
// 3 bytes of zlib's Adler-32 there), "snappy" (the compressed block followed by the
// CRC-32 of the uncompressed data, 4 bytes big-endian; checked on read) and "zstandard"
// (one or more frames). Compression uses Arrow's codecs.
//
// The writer keeps the schema JSON exactly as given, so that attributes the Avro
// specification does not know survive: Iceberg's "field-id", "element-id", "key-id",
// "value-id" and "logicalType": "map". The reader decodes with the file's own (writer)
// schema; callers that read files written by other engines (Java, pyiceberg) look
// columns up by name.
//
// Reading untrusted files: every size and count in a file is checked against the bytes
// that are really there before it is used, and every problem is a Status naming the byte
// offset in the file and the rule that was broken; nothing in a file can make the reader
// read out of bounds, loop without progress or allocate beyond ContainerReaderOptions.
#include <arrow/io/type_fwd.h>
#include <arrow/memory_pool.h>
#include <arrow/type_fwd.h>

#include <array>
#include <cstddef>
#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>

#include "floe/avro/binary_reader.h"
#include "floe/avro/binary_writer.h"
#include "floe/avro/schema.h"
#include "floe/core/result.h"

namespace floe::avro {

enum class Codec { kNull, kDeflate, kSnappy, kZstandard };

// The name in "avro.codec": "null", "deflate", "snappy", "zstandard".
std::string_view CodecName(Codec codec);
// The codec of a name; any other name (e.g. "bzip2", "xz", "zstd") is kUnsupported.
Result<Codec> CodecFromName(std::string_view name);

using SyncMarker = std::array<std::uint8_t, 16>;

class BlockCodec;  // block_codec_internal.h

struct ContainerWriterOptions {
  Codec codec = Codec::kNull;
  // deflate: 1..9 (default 6), zstandard: 1..22 (default 3), as in Java's Avro; ignored
  // by null and snappy.
  std::optional<int> compression_level;
  // More file metadata, e.g. Iceberg's "schema", "partition-spec", "format-version",
  // "content". Keys starting with "avro." are reserved by the specification and rejected.
  std::map<std::string, std::string> metadata;
  // A block is written once its datums (uncompressed) reach this many bytes.
  std::size_t block_bytes = 64 * 1024;
  // Check every datum against the schema in EndDatum (one more pass over its bytes):
  // catches a writer that encodes a field too many or too few.
  bool validate_datums = false;
  // The file's sync marker. Leave it empty: each file then gets a random one, as the
  // specification asks. Tests set it for byte-reproducible files.
  std::optional<SyncMarker> sync_marker;
};

// Writes one container file to `sink`:
//   FLOE_ASSIGN_OR_RETURN(auto w, ContainerFileWriter::Open(sink, schema_json, options));
//   for (...) { BinaryWriter& d = w->datum(); d.WriteLong(...); ...; FLOE_RETURN_IF_ERROR(w->EndDatum()); }
//   FLOE_RETURN_IF_ERROR(w->Close());
// The file is complete only when Close returns OK.
class ContainerFileWriter {
 public:
  // Writes the header. `schema_json` must be a valid Avro schema (ParseSchema) and is
  // stored verbatim.
  static Result<std::unique_ptr<ContainerFileWriter>> Open(std::shared_ptr<arrow::io::OutputStream> sink,
                                                           std::string schema_json,
                                                           ContainerWriterOptions options = {});
  ~ContainerFileWriter();
  ContainerFileWriter(const ContainerFileWriter&) = delete;
  ContainerFileWriter& operator=(const ContainerFileWriter&) = delete;

  // Where the next datum is encoded: write exactly one datum of the schema, then EndDatum
  // (or DiscardDatum). The writer holds the current block's datums, one after the other.
  BinaryWriter& datum() { return block_; }
  // Counts the datum just written into the current block, and writes the block to the
  // sink once it is large enough. With validate_datums, a datum that is not exactly one
  // datum of the schema is an error and is dropped.
  Status EndDatum();
  // Drops what was written to datum() since the last EndDatum.
  void DiscardDatum() { block_.Truncate(datum_start_); }

  // Writes the last block and closes the sink.
  Status Close();

  const std::string& schema_json() const { return schema_json_; }
  const NodePtr& schema() const { return schema_; }
  const SyncMarker& sync_marker() const { return sync_; }
  // Datums ended so far.
  std::int64_t num_datums() const { return num_datums_; }
  // Bytes given to the sink so far: after Close, the length of the file.
  std::int64_t bytes_written() const { return bytes_written_; }

 private:
  ContainerFileWriter();
  Status Write(std::string_view bytes);
  Status WriteBlock();

  std::shared_ptr<arrow::io::OutputStream> sink_;
  std::string schema_json_;
  NodePtr schema_;
  ContainerWriterOptions options_;
  SyncMarker sync_{};
  std::unique_ptr<BlockCodec> codec_;  // null for the null codec
  BinaryWriter block_;                       // the current block's datums, uncompressed
  std::size_t datum_start_ = 0;              // where the datum being written begins in block_
  std::int64_t block_datums_ = 0;
  std::int64_t num_datums_ = 0;
  std::int64_t bytes_written_ = 0;
  std::string compressed_;
  BinaryWriter frame_;  // a block's count and size
  Status error_;        // a failed write to the sink: the file cannot be completed
  bool closed_ = false;
};

struct ContainerReaderOptions {
  // The header (magic, metadata, sync marker) must end within this many bytes.
  std::size_t max_header_bytes = 64 << 20;
  // No block may be larger than this, compressed or decompressed: bounds the memory a
  // hostile file can make the reader allocate (Java writes blocks of about 64 KB).
  std::size_t max_block_bytes = 256 << 20;
};

// Reads one container file, datum by datum (NextDatum) or all at once (ReadAll).
class ContainerFileReader {
 public:
  static Result<std::unique_ptr<ContainerFileReader>> Open(std::shared_ptr<arrow::io::RandomAccessFile> file,
                                                           ContainerReaderOptions options = {});
  // A whole file in memory.
  static Result<std::unique_ptr<ContainerFileReader>> Open(std::shared_ptr<arrow::Buffer> bytes,
                                                           ContainerReaderOptions options = {});
  static Result<std::unique_ptr<ContainerFileReader>> Open(std::string bytes, ContainerReaderOptions options = {});
  ~ContainerFileReader();
  ContainerFileReader(const ContainerFileReader&) = delete;
  ContainerFileReader& operator=(const ContainerFileReader&) = delete;

  // The writer schema as the file has it (byte for byte), and parsed.
  const std::string& schema_json() const { return schema_json_; }
  const NodePtr& schema() const { return schema_; }
  // All of the file's metadata, "avro.schema" and "avro.codec" (when present) included.
  const std::map<std::string, std::string>& metadata() const { return metadata_; }
  Codec codec() const { return codec_; }
  const SyncMarker& sync_marker() const { return sync_; }
  // Where the first block begins.
  std::int64_t header_size() const { return header_size_; }

  // Moves to the next datum. On true, *datum is positioned at it and the caller must read
  // exactly that one datum from it (e.g. RecordBatchDecoder::Append(**datum)) before the
  // next call; false at the end of the file. The reader is valid until the next call.
  Result<bool> NextDatum(BinaryReader** datum);
  // The same, handing out the datum's bytes (found by walking it with the schema, see
  // SkipDatum); valid until the next call.
  Result<bool> NextDatum(std::string_view* datum);

  // Decodes every datum not read yet into one batch whose columns are the fields of the
  // file's top-level record (ToArrowSchema; records without fields are allowed here, as
  // struct<>). Errors say which datum of which block.
  Result<std::shared_ptr<arrow::RecordBatch>> ReadAll(arrow::MemoryPool* pool = arrow::default_memory_pool());

  // The datums handed out so far.
  std::int64_t num_datums_read() const { return datums_read_; }

 private:
  ContainerFileReader();
  Status ReadHeader();
  Status ParseHeader(std::string_view bytes, bool* cut_short);
  Status LoadBlock();
  std::string DatumContext() const;

  std::shared_ptr<arrow::io::RandomAccessFile> file_;
  ContainerReaderOptions options_;
  std::int64_t file_size_ = 0;

  std::string schema_json_;
  NodePtr schema_;
  std::map<std::string, std::string> metadata_;
  Codec codec_ = Codec::kNull;
  SyncMarker sync_{};
  std::int64_t header_size_ = 0;
  std::int64_t schema_offset_ = 0;  // of the "avro.schema" entry, for messages
  bool always_empty_ = false;  // every datum is zero bytes (IsAlwaysEmpty)

  std::unique_ptr<BlockCodec> block_codec_;
  std::shared_ptr<arrow::Buffer> block_buffer_;  // the block as read from the file
  std::string decompressed_;
  std::string_view block_data_;  // the current block's datums: into block_buffer_ or decompressed_
  BinaryReader block_{static_cast<const std::uint8_t*>(nullptr), 0};
  bool in_block_ = false;
  std::int64_t block_offset_ = 0;       // of the current block
  std::int64_t block_data_offset_ = 0;  // of its data
  std::int64_t block_datums_ = 0;
  std::int64_t datums_left_ = 0;
  std::int64_t next_block_offset_ = 0;
  std::int64_t datums_read_ = 0;
  Status error_;  // once the file is found corrupt, every later call says so
};

}  // namespace floe::avro
