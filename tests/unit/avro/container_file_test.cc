#include "floe/avro/container_file.h"

#include <arrow/api.h>
#include <arrow/io/file.h>
#include <arrow/io/memory.h>
#include <gtest/gtest.h>

#include <filesystem>
#include <map>
#include <string>
#include <vector>

#include "container_test_util.h"
#include "floe/avro/crc32_internal.h"

namespace floe::avro {
namespace {

using testing::CountBlocks;
using testing::ExpectManifestLikeBatch;
using testing::kManifestLikeSchema;
using testing::WriteManifestLikeFile;
using testing::WriteManifestLikeRow;

constexpr Codec kAllCodecs[] = {Codec::kNull, Codec::kDeflate, Codec::kSnappy, Codec::kZstandard};

std::unique_ptr<ContainerFileReader> OpenOk(std::string bytes, ContainerReaderOptions options = {}) {
  auto r = ContainerFileReader::Open(std::move(bytes), options);
  EXPECT_TRUE(r.ok()) << r.status().ToString();
  return r.ok() ? std::move(*r) : nullptr;
}

// The error of opening `bytes` and reading all of it (Open or ReadAll, whichever fails).
Status ReadError(std::string bytes, ContainerReaderOptions options = {}) {
  auto r = ContainerFileReader::Open(std::move(bytes), options);
  if (!r.ok()) return r.status();
  auto batch = (*r)->ReadAll();
  if (!batch.ok()) return batch.status();
  return Status::OK();
}

#define EXPECT_ERROR_HAS(status, text)                                               \
  do {                                                                               \
    const ::floe::Status st_ = (status);                                             \
    EXPECT_FALSE(st_.ok()) << "expected an error containing: " << (text);            \
    EXPECT_NE(st_.message().find(text), std::string::npos) << st_.ToString();        \
  } while (0)

TEST(AvroContainerFile, RoundTripEveryCodecManyBlocks) {
  constexpr std::int64_t kRows = 3000;
  for (Codec codec : kAllCodecs) {
    SCOPED_TRACE(std::string(CodecName(codec)));
    ContainerWriterOptions options;
    options.codec = codec;
    options.block_bytes = 2048;
    options.validate_datums = true;
    options.metadata = {{"format-version", "2"}, {"content", "data"}, {"schema", R"({"type":"struct"})"}};
    const std::string file = WriteManifestLikeFile(kRows, options);
    auto reader = OpenOk(file);
    ASSERT_TRUE(reader);
    EXPECT_EQ(reader->codec(), codec);
    EXPECT_EQ(reader->schema_json(), kManifestLikeSchema);
    EXPECT_EQ(reader->metadata().at("avro.codec"), CodecName(codec));
    EXPECT_EQ(reader->metadata().at("format-version"), "2");
    EXPECT_EQ(reader->metadata().at("content"), "data");
    EXPECT_EQ(reader->metadata().at("schema"), R"({"type":"struct"})");
    EXPECT_EQ(reader->metadata().size(), 5u);
    EXPECT_GT(CountBlocks(file, reader->sync_marker(), reader->header_size()), 20);
    auto batch = reader->ReadAll();
    ASSERT_TRUE(batch.ok()) << batch.status().ToString();
    ExpectManifestLikeBatch(**batch, kRows);
    EXPECT_EQ(reader->num_datums_read(), kRows);
  }
}

TEST(AvroContainerFile, CompressedFilesAreSmaller) {
  ContainerWriterOptions options;
  const std::size_t plain = WriteManifestLikeFile(2000, options).size();
  for (Codec codec : {Codec::kDeflate, Codec::kSnappy, Codec::kZstandard}) {
    options.codec = codec;
    EXPECT_LT(WriteManifestLikeFile(2000, options).size() * 2, plain) << CodecName(codec);
  }
  options.codec = Codec::kDeflate;
  options.compression_level = 1;
  const std::size_t fast = WriteManifestLikeFile(2000, options).size();
  options.compression_level = 9;
  EXPECT_LE(WriteManifestLikeFile(2000, options).size(), fast);
}

TEST(AvroContainerFile, SchemaJsonIsKeptByteForByteAndItsAttributesParsed) {
  auto reader = OpenOk(WriteManifestLikeFile(3, {}));
  ASSERT_TRUE(reader);
  EXPECT_EQ(reader->schema_json(), kManifestLikeSchema);  // spacing, key order, \u00e9 and all
  const Node& root = *reader->schema();
  ASSERT_EQ(root.fields.size(), 6u);
  EXPECT_EQ(root.fields[0].attributes.at("field-id"), "0");
  EXPECT_EQ(root.fields[1].attributes.at("field-id"), "1");
  const Node& data_file = *root.fields[2].node;
  EXPECT_EQ(root.fields[2].attributes.at("field-id"), "2");
  EXPECT_EQ(data_file.fields[0].attributes.count("doc"), 0u);  // doc is part of the spec
  const Field& column_sizes = data_file.fields[3];
  EXPECT_EQ(column_sizes.attributes.at("field-id"), "108");
  const Node& sizes_array = *column_sizes.node->branches[1];
  EXPECT_EQ(sizes_array.type, Type::kArray);
  EXPECT_EQ(sizes_array.attributes.at("logicalType"), "\"map\"");
  EXPECT_EQ(sizes_array.items->fields[1].attributes.at("field-id"), "118");
  EXPECT_EQ(data_file.fields[4].node->branches[1]->attributes.at("element-id"), "133");
  const Node& props = *root.fields[3].node;
  EXPECT_EQ(props.attributes.at("key-id"), "7");
  EXPECT_EQ(props.attributes.at("value-id"), "8");
  // A recognized logical type is not an attribute.
  EXPECT_EQ(data_file.fields[1].node->fields[0].node->branches[1]->logical_type, LogicalType::kDate);
  EXPECT_TRUE(data_file.fields[1].node->fields[0].node->branches[1]->attributes.empty());
}

TEST(AvroContainerFile, EmptyFileIsAHeader) {
  for (Codec codec : kAllCodecs) {
    ContainerWriterOptions options;
    options.codec = codec;
    const std::string file = WriteManifestLikeFile(0, options);
    auto reader = OpenOk(file);
    ASSERT_TRUE(reader);
    EXPECT_EQ(reader->header_size(), static_cast<std::int64_t>(file.size()));
    std::string_view datum;
    auto more = reader->NextDatum(&datum);
    ASSERT_TRUE(more.ok());
    EXPECT_FALSE(*more);
    auto batch = reader->ReadAll();
    ASSERT_TRUE(batch.ok()) << batch.status().ToString();
    EXPECT_EQ((*batch)->num_rows(), 0);
    EXPECT_EQ((*batch)->num_columns(), 6);
  }
}

TEST(AvroContainerFile, NextDatumHandsOutTheWrittenDatums) {
  for (Codec codec : kAllCodecs) {
    SCOPED_TRACE(std::string(CodecName(codec)));
    ContainerWriterOptions options;
    options.codec = codec;
    options.block_bytes = 300;
    const std::string file = WriteManifestLikeFile(500, options);
    auto reader = OpenOk(file);
    ASSERT_TRUE(reader);
    std::int64_t i = 0;
    std::string_view datum;
    while (true) {
      auto more = reader->NextDatum(&datum);
      ASSERT_TRUE(more.ok()) << more.status().ToString();
      if (!*more) break;
      BinaryWriter expected;
      WriteManifestLikeRow(expected, i);
      ASSERT_EQ(datum, expected.data()) << "datum " << i;
      ++i;
    }
    EXPECT_EQ(i, 500);
    // The end stays the end.
    auto again = reader->NextDatum(&datum);
    ASSERT_TRUE(again.ok());
    EXPECT_FALSE(*again);
  }
}

TEST(AvroContainerFile, ReadAllAfterSomeDatumsReadsTheRest) {
  ContainerWriterOptions options;
  options.block_bytes = 500;
  auto reader = OpenOk(WriteManifestLikeFile(100, options));
  ASSERT_TRUE(reader);
  std::string_view datum;
  for (int i = 0; i < 37; ++i) ASSERT_TRUE(*reader->NextDatum(&datum));
  auto batch = reader->ReadAll();
  ASSERT_TRUE(batch.ok()) << batch.status().ToString();
  EXPECT_EQ((*batch)->num_rows(), 63);
  EXPECT_EQ((*batch)->GetColumnByName("data_file")->ToString().find("file-36.parquet"), std::string::npos);
}

TEST(AvroContainerFile, FilesOnDiskAndHeadersLargerThanTheFirstRead) {
  const auto dir = std::filesystem::temp_directory_path() / ("floe-avro-" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  const std::string path = (dir / "m.avro").string();
  ContainerWriterOptions options;
  options.codec = Codec::kDeflate;
  options.metadata["big"] = std::string(300 * 1024, 'b');  // the reader first reads 64 KiB of header
  {
    auto sink = arrow::io::FileOutputStream::Open(path).ValueOrDie();
    auto writer = ContainerFileWriter::Open(sink, std::string(kManifestLikeSchema), options);
    ASSERT_TRUE(writer.ok()) << writer.status().ToString();
    for (int i = 0; i < 50; ++i) {
      WriteManifestLikeRow((*writer)->datum(), i);
      ASSERT_TRUE((*writer)->EndDatum().ok());
    }
    ASSERT_TRUE((*writer)->Close().ok());
    EXPECT_TRUE(sink->closed());
    EXPECT_EQ((*writer)->bytes_written(), static_cast<std::int64_t>(std::filesystem::file_size(path)));
    EXPECT_EQ((*writer)->num_datums(), 50);
  }
  auto file = arrow::io::ReadableFile::Open(path).ValueOrDie();
  auto reader = ContainerFileReader::Open(file);
  ASSERT_TRUE(reader.ok()) << reader.status().ToString();
  EXPECT_EQ((*reader)->metadata().at("big").size(), 300u * 1024);
  auto batch = (*reader)->ReadAll();
  ASSERT_TRUE(batch.ok()) << batch.status().ToString();
  ExpectManifestLikeBatch(**batch, 50);

  ContainerReaderOptions small;
  small.max_header_bytes = 100 * 1024;
  auto limited = ContainerFileReader::Open(arrow::io::ReadableFile::Open(path).ValueOrDie(), small);
  EXPECT_ERROR_HAS(limited.status(), "header does not end within its first 102400 bytes");
  std::filesystem::remove_all(dir);
}

TEST(AvroContainerFile, SyncMarkersAreRandomUnlessGiven) {
  auto a = OpenOk(WriteManifestLikeFile(1, {}));
  auto b = OpenOk(WriteManifestLikeFile(1, {}));
  ASSERT_TRUE(a && b);
  EXPECT_NE(a->sync_marker(), b->sync_marker());
  ContainerWriterOptions options;
  options.sync_marker = SyncMarker{1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16};
  const std::string f1 = WriteManifestLikeFile(10, options);
  EXPECT_EQ(f1, WriteManifestLikeFile(10, options));  // reproducible
  EXPECT_EQ(OpenOk(f1)->sync_marker(), *options.sync_marker);
}

TEST(AvroContainerFile, WriterRejectsBadArguments) {
  auto sink = arrow::io::BufferOutputStream::Create().ValueOrDie();
  ContainerWriterOptions reserved;
  reserved.metadata["avro.codec"] = "null";
  EXPECT_ERROR_HAS(ContainerFileWriter::Open(sink, std::string(kManifestLikeSchema), reserved).status(),
                   "metadata key 'avro.codec' is reserved");
  EXPECT_ERROR_HAS(ContainerFileWriter::Open(sink, R"({"type":"record","name":"R","fields":[{"name":"a"}]})").status(),
                   "field 'a': field has no \"type\"");
  EXPECT_ERROR_HAS(ContainerFileWriter::Open(sink, "{not json").status(), "not valid JSON");
  ContainerWriterOptions zero;
  zero.block_bytes = 0;
  EXPECT_ERROR_HAS(ContainerFileWriter::Open(sink, R"("int")", zero).status(), "block_bytes must be positive");
  ContainerWriterOptions level;
  level.codec = Codec::kDeflate;
  level.compression_level = 42;
  EXPECT_ERROR_HAS(ContainerFileWriter::Open(sink, R"("int")", level).status(),
                   "compression level 42 of the deflate codec is not between");
  EXPECT_ERROR_HAS(ContainerFileWriter::Open(nullptr, R"("int")").status(), "needs an output stream");
}

TEST(AvroContainerFile, ValidateDatumsRejectsAndDropsMalformedDatums) {
  auto sink = arrow::io::BufferOutputStream::Create().ValueOrDie();
  ContainerWriterOptions options;
  options.validate_datums = true;
  auto writer = ContainerFileWriter::Open(
      sink, R"({"type":"record","name":"R","fields":[{"name":"a","type":"long"},{"name":"b","type":"string"}]})",
      options);
  ASSERT_TRUE(writer.ok());
  auto& w = **writer;
  w.datum().WriteLong(1);
  w.datum().WriteString("ok");
  ASSERT_TRUE(w.EndDatum().ok());
  w.datum().WriteLong(2);  // string missing
  EXPECT_ERROR_HAS(w.EndDatum(), "datum 1 does not match the file's schema");
  w.datum().WriteLong(3);
  w.datum().WriteString("x");
  w.datum().WriteLong(4);  // one value too many
  EXPECT_ERROR_HAS(w.EndDatum(), "the datum ends at byte 3 but 4 bytes were written");
  w.datum().WriteLong(5);  // begun, not ended
  EXPECT_ERROR_HAS(w.Close(), "a datum begun but not ended");
  w.DiscardDatum();
  ASSERT_TRUE(w.Close().ok());
  EXPECT_ERROR_HAS(w.EndDatum(), "EndDatum after Close");
  auto reader = OpenOk(sink->Finish().ValueOrDie()->ToString());
  auto batch = reader->ReadAll();
  ASSERT_TRUE(batch.ok()) << batch.status().ToString();
  EXPECT_EQ((*batch)->num_rows(), 1);
}

TEST(AvroContainerFile, SchemasOfZeroByteDatums) {
  // Every datum of this schema is empty: counts cannot be checked against bytes, only
  // against the block size limit.
  auto sink = arrow::io::BufferOutputStream::Create().ValueOrDie();
  auto writer = ContainerFileWriter::Open(sink, R"({"type":"record","name":"R","fields":[{"name":"n","type":"null"}]})");
  ASSERT_TRUE(writer.ok());
  for (int i = 0; i < 1000; ++i) ASSERT_TRUE((*writer)->EndDatum().ok());
  ASSERT_TRUE((*writer)->Close().ok());
  const std::string file = sink->Finish().ValueOrDie()->ToString();
  auto reader = OpenOk(file);
  std::string_view datum;
  int n = 0;
  while (*reader->NextDatum(&datum)) {
    EXPECT_TRUE(datum.empty());
    ++n;
  }
  EXPECT_EQ(n, 1000);
  ContainerReaderOptions tight;
  tight.max_block_bytes = 999;
  auto limited = ContainerFileReader::Open(file, tight);
  ASSERT_TRUE(limited.ok());
  EXPECT_ERROR_HAS((*limited)->NextDatum(&datum).status(), "says it has 1000 datums");
  // A table cannot hold a null column, so ReadAll refuses the schema.
  EXPECT_ERROR_HAS(OpenOk(file)->ReadAll().status(), "the null type cannot be stored");
}

TEST(AvroContainerFile, Crc32OfKnownInputs) {
  EXPECT_EQ(Crc32(""), 0u);
  EXPECT_EQ(Crc32("123456789"), 0xCBF43926u);  // the standard check value
  EXPECT_EQ(Crc32("The quick brown fox jumps over the lazy dog"), 0x414FA339u);
  const std::string long_input(1000, 'a');
  EXPECT_EQ(Crc32(std::string_view(long_input).substr(300), Crc32(std::string_view(long_input).substr(0, 300))),
            Crc32(long_input));
}

TEST(AvroContainerFile, CodecNames) {
  for (Codec c : kAllCodecs) EXPECT_EQ(*CodecFromName(CodecName(c)), c);
  EXPECT_EQ(CodecFromName("zstd").status().code(), StatusCode::kUnsupported);
  EXPECT_EQ(CodecFromName("bzip2").status().code(), StatusCode::kUnsupported);
}

// ---------------------------------------------------------------------------------------
// Hand-built files that break one rule each.

constexpr std::string_view kIntSchema = R"({"type":"record","name":"R","fields":[{"name":"a","type":"long"}]})";
const SyncMarker kSync = {0xa0, 0xa1, 0xa2, 0xa3, 0xa4, 0xa5, 0xa6, 0xa7, 0xa8, 0xa9, 0xaa, 0xab, 0xac, 0xad, 0xae, 0xaf};

std::string SyncBytes(const SyncMarker& s = kSync) { return std::string(reinterpret_cast<const char*>(s.data()), s.size()); }

std::string Header(const std::vector<std::pair<std::string, std::string>>& meta) {
  BinaryWriter w;
  w.WriteRaw(std::string_view("Obj\x01", 4));
  w.WriteBlockCount(static_cast<std::int64_t>(meta.size()));
  for (const auto& [k, v] : meta) {
    w.WriteString(k);
    w.WriteBytes(v);
  }
  w.WriteBlockCount(0);
  w.WriteFixed(SyncBytes());
  return w.Release();
}

std::string Header(std::string_view codec = "null") {
  return Header({{"avro.schema", std::string(kIntSchema)}, {"avro.codec", std::string(codec)}});
}

std::string Block(std::int64_t count, std::string_view data, std::int64_t size = -1) {
  BinaryWriter w;
  w.WriteLong(count);
  w.WriteLong(size >= 0 ? size : static_cast<std::int64_t>(data.size()));
  w.WriteRaw(data);
  w.WriteFixed(SyncBytes());
  return w.Release();
}

std::string Longs(std::initializer_list<std::int64_t> values) {
  BinaryWriter w;
  for (auto v : values) w.WriteLong(v);
  return w.Release();
}

TEST(AvroContainerErrors, HandBuiltFileIsValid) {
  auto reader = OpenOk(Header() + Block(2, Longs({1, 2})) + Block(1, Longs({3})));
  ASSERT_TRUE(reader);
  auto batch = reader->ReadAll();
  ASSERT_TRUE(batch.ok()) << batch.status().ToString();
  EXPECT_EQ((*batch)->num_rows(), 3);
  // No avro.codec means null.
  EXPECT_TRUE(ReadError(Header({{"avro.schema", std::string(kIntSchema)}}) + Block(1, Longs({3}))).ok());
}

TEST(AvroContainerErrors, Magic) {
  EXPECT_ERROR_HAS(ReadError("PAR1xxxxxxxxxxxxxxxxxxxxxx"),
                   "invalid Avro container file at byte 0: not an Avro object container file: it starts with "
                   "50 41 52 31, not the magic 4f 62 6a 01");
  EXPECT_ERROR_HAS(ReadError("Obj\x02" + Header().substr(4)), "starts with 4f 62 6a 02");
  EXPECT_ERROR_HAS(ReadError("Ob"), "truncated Avro container file at byte 0: the file has 2 bytes, fewer than the 4-byte magic");
  EXPECT_ERROR_HAS(ReadError(""), "fewer than the 4-byte magic");
  // A large file that is not Avro fails on its first bytes (no growing header reads).
  Status big = ReadError(std::string(1 << 20, 'x'));
  EXPECT_ERROR_HAS(big, "starts with 78 78 78 78");
  EXPECT_EQ(big.message().find("does not end within"), std::string::npos) << big.ToString();
}

TEST(AvroContainerErrors, HeaderMetadata) {
  EXPECT_ERROR_HAS(ReadError(Header({{"avro.codec", "null"}})), "at byte 4: the header's metadata has no \"avro.schema\"");
  EXPECT_ERROR_HAS(ReadError(Header({{"avro.schema", std::string(kIntSchema)}, {"avro.schema", "\"int\""}})),
                   "metadata key 'avro.schema' appears a second time (first at byte 5)");
  EXPECT_ERROR_HAS(ReadError(Header({{"avro.schema", "{\"type\": \"recrd\"}"}})),
                   "the writer schema (\"avro.schema\" at byte 5)");
  Status codec = ReadError(Header("lz4"));
  EXPECT_EQ(codec.code(), StatusCode::kUnsupported);
  EXPECT_ERROR_HAS(codec, "Avro codec 'lz4' is not supported");
  EXPECT_ERROR_HAS(codec, "\"avro.codec\" at byte");
  // A map block claiming more entries than there are bytes.
  std::string lie = std::string("Obj\x01", 4) + Longs({1000000});
  EXPECT_ERROR_HAS(ReadError(lie + std::string(100, 'x')), "at byte 4: the metadata map says it has a block of 1000000 entries");
  // Truncated everywhere in the header.
  const std::string header = Header();
  for (std::size_t n = 4; n < header.size(); ++n) {
    Status st = ReadError(header.substr(0, n));
    EXPECT_FALSE(st.ok()) << n;
    EXPECT_NE(st.message().find("at byte"), std::string::npos) << st.ToString();
  }
  EXPECT_ERROR_HAS(ReadError(header.substr(0, header.size() - 3)),
                   "the header ends before its 16-byte sync marker");
}

TEST(AvroContainerErrors, BlockFraming) {
  const std::string h = Header();
  const std::string at = "at byte " + std::to_string(h.size());
  // A size that runs past the end of the file.
  EXPECT_ERROR_HAS(ReadError(h + Block(1, Longs({7}), 500)),
                   "says its data has 500 bytes, but the file ends 17 bytes later");
  // The sync marker is not where the size says.
  EXPECT_ERROR_HAS(ReadError(h + Block(1, Longs({7, 8}), 1)),
                   "are not the file's sync marker: the block's size is wrong or the file is corrupt");
  std::string wrong_sync = h + Block(1, Longs({7}));
  wrong_sync.back() ^= 1;
  EXPECT_ERROR_HAS(ReadError(wrong_sync), "(1 datums, 1 bytes) are not the file's sync marker");
  // Counts that lie.
  EXPECT_ERROR_HAS(ReadError(h + Block(5, Longs({1, 2}))), at + ": the block says it has 5 datums, but its 2 bytes");
  EXPECT_ERROR_HAS(ReadError(h + Block(1, Longs({1, 2}))),
                   at + ": the block's 1 datums end at byte 1 of its 2 bytes of data");
  EXPECT_ERROR_HAS(ReadError(h + Block(-1, Longs({1}))), at + ": the block says it has a negative number of datums");
  EXPECT_ERROR_HAS(ReadError(h + Longs({1, -3}) + std::string(20, 'x')), "its data has a negative size");
  // Truncated inside the block header and before the sync marker.
  EXPECT_ERROR_HAS(ReadError(h + "\x02"), "the file ends inside the header (datum count and size) of the block " + at);
  EXPECT_ERROR_HAS(ReadError(h + Block(1, Longs({7})).substr(0, 10)),
                   "the file ends before the 16-byte sync marker of the block " + at);
  // An over-long varint where the count should be.
  EXPECT_ERROR_HAS(ReadError(h + std::string(30, '\xff')), "the block header is not two valid longs");
  // A block larger than the reader allows.
  ContainerReaderOptions small;
  small.max_block_bytes = 4;
  EXPECT_ERROR_HAS(ReadError(h + Block(3, Longs({1000, 2000, 3000})), small),
                   "the block's data has 6 bytes, more than 4 (ContainerReaderOptions::max_block_bytes)");
}

TEST(AvroContainerErrors, DatumErrorsNameTheBlockAndTheDatum) {
  const std::string h = Header();
  std::string over_long(11, '\x80');  // a long varint that never ends within 10 bytes
  Status st = ReadError(h + Block(2, Longs({1}) + over_long));
  EXPECT_ERROR_HAS(st, "datum 1 of the block at byte " + std::to_string(h.size()));
  EXPECT_ERROR_HAS(st, "which starts at byte " + std::to_string(h.size() + 2));
  EXPECT_ERROR_HAS(st, "long varint is longer than 10 bytes");
  // Once a file is found corrupt, it stays so.
  auto reader = OpenOk(h + Block(2, Longs({1}) + over_long));
  EXPECT_FALSE(reader->ReadAll().ok());
  std::string_view datum;
  EXPECT_FALSE(reader->NextDatum(&datum).ok());
}

TEST(AvroContainerErrors, Codecs) {
  // snappy: the CRC of the uncompressed data is checked.
  ContainerWriterOptions options;
  options.codec = Codec::kSnappy;
  options.sync_marker = kSync;
  options.block_bytes = 1 << 20;
  std::string snappy = WriteManifestLikeFile(20, options);
  snappy[snappy.size() - 17] ^= 0x10;  // the last CRC byte, before the final sync marker
  EXPECT_ERROR_HAS(ReadError(snappy), "corrupt snappy data: the block's CRC-32 is 0x");
  EXPECT_ERROR_HAS(ReadError(snappy), "but its decompressed data's is 0x");
  const std::string hs = Header("snappy");
  EXPECT_ERROR_HAS(ReadError(hs + Block(1, "ab")), "a block of 2 bytes cannot hold the 4-byte CRC-32");
  EXPECT_ERROR_HAS(ReadError(hs + Block(1, std::string("\xff\xff\xff\xff\x0f", 5) + "abcd")),
                   "says it decompresses to 4294967295 bytes, more than");
  EXPECT_ERROR_HAS(ReadError(hs + Block(1, std::string("\xe8\x07", 2) + "xyzw" + "abcd")),
                   "says it decompresses to 1000 bytes, which 6 bytes of snappy data cannot hold");
  // deflate and zstandard: garbage, truncated streams, trailing bytes.
  for (Codec codec : {Codec::kDeflate, Codec::kZstandard}) {
    SCOPED_TRACE(std::string(CodecName(codec)));
    const std::string hc = Header(CodecName(codec));
    EXPECT_ERROR_HAS(ReadError(hc + Block(1, "\xff\xfe\xfd\xfc garbage")), "corrupt " + std::string(CodecName(codec)) + " data");
    options.codec = codec;
    options.block_bytes = 1 << 20;
    const std::string good = WriteManifestLikeFile(200, options);
    auto reader = OpenOk(good);
    const std::int64_t header_size = reader->header_size();
    BinaryReader in(std::string_view(good).substr(static_cast<std::size_t>(header_size)));
    const std::int64_t count = *in.ReadLong();
    const std::int64_t size = *in.ReadLong();
    const std::string data = good.substr(static_cast<std::size_t>(header_size) + in.offset(), static_cast<std::size_t>(size));
    EXPECT_ERROR_HAS(ReadError(hc + Block(count, data.substr(0, data.size() - 5))), "end before the compressed stream does");
    if (codec == Codec::kDeflate) {
      // Bytes after the end of the deflate stream are ignored, as Java's and Python's
      // readers do: fastavro and pyiceberg leave 3 bytes of zlib's Adler-32 there.
      auto r = ContainerFileReader::Open(hc + Block(count, data + "junk"));
      ASSERT_TRUE(r.ok());
      BinaryReader* datum = nullptr;
      EXPECT_TRUE((*r)->NextDatum(&datum).ok());
    }
    ContainerReaderOptions small;
    small.max_block_bytes = static_cast<std::size_t>(size) + 100;  // compressed fits, decompressed does not
    EXPECT_ERROR_HAS(ReadError(good, small), "(ContainerReaderOptions::max_block_bytes)");
  }
}

}  // namespace
}  // namespace floe::avro
