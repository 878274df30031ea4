// Corrupt container files, fuzz style: valid files truncated at every length and with
// bytes flipped at many positions must give a Status, never a crash (this binary runs
// under AddressSanitizer and UBSan in the sanitizer build), never a hang, and never an
// error without a byte offset.
#include <arrow/api.h>
#include <gtest/gtest.h>

#include <set>
#include <string>
#include <vector>

#include "container_test_util.h"
#include "floe/avro/container_file.h"
#include "floe/avro/datum_decoder.h"

namespace floe::avro {
namespace {

using testing::ReadTestFile;

struct Outcome {
  Status status;
  std::int64_t rows = 0;
};

// Everything a caller can do with a file, in one of two ways (each Open parses the
// schema, which is most of the time this test takes under the sanitizers, so each
// corrupt file is opened once): decode it all with ReadAll, or walk it datum by datum
// with NextDatum(string_view*) and decode each view on its own.
Outcome ReadEverything(const std::string& bytes, bool by_views) {
  Outcome out;
  auto reader = ContainerFileReader::Open(bytes);
  if (!reader.ok()) {
    out.status = reader.status();
    return out;
  }
  if (!by_views) {
    auto batch = (*reader)->ReadAll();
    if (!batch.ok()) {
      out.status = batch.status();
      return out;
    }
    EXPECT_TRUE((*batch)->ValidateFull().ok());
    out.rows = (*batch)->num_rows();
    return out;
  }
  MappingOptions mapping;
  mapping.allow_empty_records = true;
  auto decoder = RecordBatchDecoder::Make((*reader)->schema(), arrow::default_memory_pool(), mapping);
  std::string_view datum;
  while (true) {
    auto more = (*reader)->NextDatum(&datum);
    if (!more.ok()) {
      out.status = more.status();
      return out;
    }
    if (!*more) break;
    if (decoder.ok()) {
      // SkipDatum found the datum's end; the decoder must agree on it (or reject the datum).
      Status st = decoder->Append(datum);
      if (!st.ok()) {
        out.status = st;
        return out;
      }
    }
    ++out.rows;
  }
  return out;
}

void ExpectUsefulError(const Status& st, const std::string& what) {
  if (st.ok()) return;
  EXPECT_TRUE(st.code() == StatusCode::kInvalidArgument || st.code() == StatusCode::kUnsupported)
      << what << ": " << st.ToString();
  EXPECT_NE(st.message().find("byte"), std::string::npos) << what << ": " << st.ToString();
}

struct Sample {
  std::string name;
  std::string bytes;
};

// Small, so that the many runs below stay fast under the sanitizers, but with nesting,
// unions, arrays and maps in it.
constexpr std::string_view kSmallSchema = R"({"type":"record","name":"R","fields":[
  {"name":"id","type":"long","field-id":1},
  {"name":"name","type":["null","string"],"field-id":2},
  {"name":"tags","type":{"type":"array","items":"string","element-id":4},"field-id":3},
  {"name":"m","type":{"type":"map","values":"double"},"field-id":5},
  {"name":"kv","type":{"type":"array","logicalType":"map","items":{"type":"record","name":"kv","fields":[
    {"name":"key","type":"int"},{"name":"value","type":"bytes"}]}}},
  {"name":"e","type":{"type":"enum","name":"E","symbols":["A","B","C"]}}]})";

std::string SmallFile(Codec codec, int rows) {
  auto sink = arrow::io::BufferOutputStream::Create().ValueOrDie();
  ContainerWriterOptions options;
  options.codec = codec;
  options.block_bytes = 120;  // many small blocks
  auto writer = ContainerFileWriter::Open(sink, std::string(kSmallSchema), options);
  EXPECT_TRUE(writer.ok());
  for (int i = 0; i < rows; ++i) {
    BinaryWriter& w = (*writer)->datum();
    w.WriteLong(i * 7919 - 100);
    if (i % 3 == 0) {
      w.WriteUnionBranch(0);
    } else {
      w.WriteUnionBranch(1);
      w.WriteString("n" + std::to_string(i));
    }
    if (i % 2 == 0) {
      w.WriteBlockCount(2);
      w.WriteString("a");
      w.WriteString("bc");
    }
    w.WriteBlockCount(0);
    w.WriteBlockCount(1);
    w.WriteString("k");
    w.WriteDouble(i * 0.5);
    w.WriteBlockCount(0);
    if (i % 4 != 0) {
      w.WriteBlockCount(1);
      w.WriteInt(i);
      w.WriteBytes(std::string(static_cast<std::size_t>(i % 5), 'x'));
    }
    w.WriteBlockCount(0);
    w.WriteEnum(i % 3);
    EXPECT_TRUE((*writer)->EndDatum().ok());
  }
  EXPECT_TRUE((*writer)->Close().ok());
  return sink->Finish().ValueOrDie()->ToString();
}

// Floe's own files, every codec; and one written by fastavro (checked at a stride: its
// schema is large, so each run costs more).
std::vector<Sample> Samples() {
  std::vector<Sample> samples;
  for (Codec codec : {Codec::kNull, Codec::kDeflate, Codec::kSnappy, Codec::kZstandard}) {
    samples.push_back({"floe_" + std::string(CodecName(codec)), SmallFile(codec, 25)});
  }
  samples.push_back({"fastavro_snappy", ReadTestFile("avro/fastavro_snappy.avro")});
  return samples;
}

std::size_t Stride(const Sample& s) { return s.name.starts_with("fastavro") ? 17 : 1; }

// Where a file may end and still be valid: after the header, and after each block.
std::set<std::size_t> BlockBoundaries(const std::string& file) {
  auto reader = ContainerFileReader::Open(file);
  EXPECT_TRUE(reader.ok());
  std::set<std::size_t> out;
  if (!reader.ok()) return out;
  out.insert(static_cast<std::size_t>((*reader)->header_size()));
  const SyncMarker& sync = (*reader)->sync_marker();
  const std::string_view marker(reinterpret_cast<const char*>(sync.data()), sync.size());
  for (std::size_t at = file.find(marker, out.begin().operator*()); at != std::string::npos; at = file.find(marker, at + 1)) {
    out.insert(at + marker.size());
  }
  return out;
}

TEST(AvroContainerCorruption, EveryTruncationIsAnErrorOrEndsAtABlock) {
  for (const Sample& s : Samples()) {
    SCOPED_TRACE(s.name);
    ASSERT_FALSE(s.bytes.empty());
    const std::int64_t full_rows = ReadEverything(s.bytes, false).rows;
    ASSERT_GT(full_rows, 0);
    ASSERT_EQ(ReadEverything(s.bytes, true).rows, full_rows);
    const std::set<std::size_t> boundaries = BlockBoundaries(s.bytes);
    ASSERT_GT(boundaries.size(), 4u);
    for (std::size_t n = 0; n < s.bytes.size(); n += Stride(s)) {
      for (std::size_t cut : {n, n + 1}) {  // with a stride, still every block boundary's neighbour
        if (cut >= s.bytes.size()) continue;
        const Outcome o = ReadEverything(s.bytes.substr(0, cut), cut % 2 == 0);
        if (boundaries.count(cut) != 0) {
          EXPECT_TRUE(o.status.ok()) << "cut at block boundary " << cut << ": " << o.status.ToString();
          EXPECT_LT(o.rows, full_rows);
        } else {
          EXPECT_FALSE(o.status.ok()) << "a file cut at byte " << cut << " of " << s.bytes.size() << " was read";
          ExpectUsefulError(o.status, "cut at " + std::to_string(cut));
        }
        if (Stride(s) == 1) break;
      }
    }
    for (std::size_t b : boundaries) {  // every boundary, whatever the stride
      if (b < s.bytes.size()) {
        EXPECT_TRUE(ReadEverything(s.bytes.substr(0, b), false).status.ok()) << b;
      }
    }
  }
}

TEST(AvroContainerCorruption, FlippedBytesNeverCrash) {
  for (const Sample& s : Samples()) {
    SCOPED_TRACE(s.name);
    auto reader = ContainerFileReader::Open(s.bytes);
    ASSERT_TRUE(reader.ok());
    const auto header = static_cast<std::size_t>((*reader)->header_size());
    int errors = 0;
    int runs = 0;
    for (std::size_t pos = 0; pos < s.bytes.size(); pos += Stride(s)) {
      for (std::uint8_t mask : {std::uint8_t{0xff}, std::uint8_t{0x01}}) {
        // Each mask everywhere in the blocks; in the header (mostly schema JSON text) one.
        if (mask != 0xff && pos >= 8 && pos + 16 < header) continue;
        std::string bad = s.bytes;
        bad[pos] = static_cast<char>(bad[pos] ^ mask);
        const Outcome o = ReadEverything(bad, (pos + mask) % 2 == 0);
        ++runs;
        ExpectUsefulError(o.status, "flip at " + std::to_string(pos));
        if (!o.status.ok()) ++errors;
        // The magic and the sync markers are checked exactly.
        if (pos < 4 || (pos >= header - 16 && pos < header)) {
          EXPECT_FALSE(o.status.ok()) << "flip at " << pos << " went unnoticed";
        }
      }
    }
    // Many flips are noticed (sync markers, counts, sizes, snappy's CRC, compressed
    // streams, varints, branch indices); for the null codec a flipped value is often just
    // another value. Crashes are what this test is after.
    EXPECT_GT(errors, runs / 10);
  }
}

// Random multi-byte damage, many times, on small files.
TEST(AvroContainerCorruption, RandomDamage) {
  std::uint64_t state = 0x9e3779b97f4a7c15ull;
  auto next = [&] {
    state ^= state << 13;
    state ^= state >> 7;
    state ^= state << 17;
    return state;
  };
  for (Codec codec : {Codec::kNull, Codec::kDeflate, Codec::kSnappy, Codec::kZstandard}) {
    const std::string good = SmallFile(codec, 12);
    auto reader = ContainerFileReader::Open(good);
    ASSERT_TRUE(reader.ok());
    const auto header = static_cast<std::size_t>((*reader)->header_size());
    for (int round = 0; round < 400; ++round) {
      std::string bad = good;
      const int damage = 1 + static_cast<int>(next() % 4);
      // Mostly in the blocks: the header is mostly schema text, covered above.
      for (int k = 0; k < damage; ++k) {
        bad[header - 20 + next() % (bad.size() - header + 20)] = static_cast<char>(next());
      }
      if (next() % 4 == 0) bad.resize(next() % bad.size());
      const Outcome o = ReadEverything(bad, round % 2 == 0);
      ExpectUsefulError(o.status, std::string(CodecName(codec)) + " round " + std::to_string(round));
    }
  }
}

}  // namespace
}  // namespace floe::avro
