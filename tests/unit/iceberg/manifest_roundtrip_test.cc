// Manifests and manifest lists written with WriteManifest / WriteManifestList read back
// with ReadManifest / ReadManifestList: every partition type, metric maps, statuses,
// sequence-number inheritance, promotions, and the errors of bad input.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <random>
#include <string>
#include <vector>

#include "floe/iceberg/manifest_internal.h"
#include "floe/schema/partition.h"
#include "floe/storage/file_io.h"
#include "iceberg_test_util.h"
#include "support/temp_dir.h"

namespace floe::iceberg {
namespace {

using schema::Type;
using schema::TypeId;
using testing::Bytes;
using testing::ExpectSameFile;
using testing::Field;
using testing::P;
using testing::PField;

class ManifestTempDir : public floe::test_support::TempDir {
 public:
  ManifestTempDir() : floe::test_support::TempDir("floe-manifest") {}
};

// One column of every primitive type a partition can have.
schema::Schema AllTypesSchema() {
  schema::Schema s;
  s.schema_id = 4;
  s.fields = {Field(1, "b", P(TypeId::kBoolean)),        Field(2, "i", P(TypeId::kInt)),
              Field(3, "l", P(TypeId::kLong), true),     Field(4, "f", P(TypeId::kFloat)),
              Field(5, "d", P(TypeId::kDouble)),         Field(6, "dt", P(TypeId::kDate)),
              Field(7, "t", P(TypeId::kTime)),           Field(8, "ts", P(TypeId::kTimestamp)),
              Field(9, "tstz", P(TypeId::kTimestampTz)), Field(10, "s", P(TypeId::kString)),
              Field(11, "u", P(TypeId::kUuid)),          Field(12, "fx", Type::Fixed(3)),
              Field(13, "bin", P(TypeId::kBinary)),      Field(14, "dec", Type::Decimal(9, 2)),
              Field(15, "dec_big", Type::Decimal(38, 10)), Field(16, "tsns", P(TypeId::kTimestampTzNs))};
  return s;
}

schema::PartitionSpec AllTypesSpec() {
  using K = schema::TransformKind;
  schema::PartitionSpec spec;
  spec.spec_id = 2;
  int id = 1000;
  for (int source = 1; source <= 16; ++source) {
    spec.fields.push_back(PField(source, id++, "p" + std::to_string(source), K::kIdentity));
  }
  spec.fields.push_back(PField(9, id++, "tstz_day", K::kDay));
  spec.fields.push_back(PField(9, id++, "tstz_hour", K::kHour));
  spec.fields.push_back(PField(6, id++, "dt_year", K::kYear));
  spec.fields.push_back(PField(3, id++, "l_bucket", K::kBucket, 16));
  spec.fields.push_back(PField(10, id++, "s_trunc", K::kTruncate, 2));
  spec.fields.push_back(PField(14, id++, "dec_trunc", K::kTruncate, 10));
  spec.fields.push_back(PField(2, id++, "i_void", K::kVoid));
  return spec;
}

std::vector<PartitionValue> AllTypesPartition(int i) {
  using L = Literal;
  if (i % 3 == 2) return std::vector<PartitionValue>(23);  // all null
  const bool neg = i % 3 == 1;
  return {L(!neg),
          L(std::int32_t{neg ? -2147483647 - 1 : 2147483647}),
          L(std::int64_t{neg ? -9 : 1LL << 60}),
          L(neg ? -0.0f : 3.25f),
          L(neg ? -1e-300 : 6.02e23),
          L(std::int32_t{neg ? -719162 : 2932896}),  // 0001-01-01 and 9999-12-31
          L(std::int64_t{neg ? 0 : 86399999999}),
          L(std::int64_t{neg ? -62135596800000000 : 253402300799999999}),
          L(std::int64_t{neg ? -1 : 1}),
          L(std::string(neg ? "" : "z\xe2\x82\xac\xf0\x9f\x98\x80")),
          L(Bytes({0x12, 0x3e, 0x45, 0x67, 0xe8, 0x9b, 0x12, 0xd3, 0xa4, 0x56, 0x42, 0x66, 0x14, 0x17, 0x40, 0x00})),
          L(Bytes({neg ? 0xff : 0x00, 0x01, 0x02})),
          L(neg ? std::string() : Bytes({0x00, 0x00, 0xfe})),
          L(neg ? Bytes({0x80}) : Bytes({0x7f, 0xff, 0xff})),  // -128, 8388607 (minimal bytes)
          L(neg ? Bytes({0xb5, 0xb3, 0xc7, 0x1e, 0x0a, 0xbb, 0x9a, 0x10, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00})
                : Bytes({0x4b, 0x3b, 0x4c, 0xa8, 0x5a, 0x86, 0xc4, 0x7a, 0x09, 0x8a, 0x22, 0x3f, 0xff, 0xff, 0xff, 0xff})),
          L(std::int64_t{neg ? -1 : 1700000000123456789}),
          L(std::int32_t{neg ? -1 : 19675}),
          L(std::int32_t{neg ? -1 : 472222}),
          L(std::int32_t{neg ? 0 : 54}),
          L(std::int32_t{neg ? 0 : 15}),
          L(std::string(neg ? "" : "z\xe2\x82\xac")),
          L(neg ? Bytes({0x80}) : Bytes({0x7f, 0xff, 0xf6})),
          PartitionValue()};
}

DataFile SampleFile(int i, int spec_id, std::vector<PartitionValue> partition) {
  DataFile f;
  f.file_path = "file:///tmp/t/data/part-" + std::to_string(i) + ".parquet";
  f.partition = std::move(partition);
  f.spec_id = spec_id;
  f.record_count = 10 * i + 1;
  f.file_size_in_bytes = 1000 + i;
  if (i % 2 == 0) {  // odd files have no metrics at all: null maps read back empty
    f.column_sizes = {{1, 11}, {3, 33 + i}, {16, 1}};
    f.value_counts = {{1, 10}, {3, 10}};
    f.null_value_counts = {{1, 0}, {3, i}};
    f.nan_value_counts = {{4, 0}, {5, 2}};
    f.lower_bounds = {{3, std::string("\x01\x00\x00\x00\x00\x00\x00\x00", 8)}, {10, "a"}};
    f.upper_bounds = {{3, std::string("\xff\x00\x00\x00\x00\x00\x00\x00", 8)}, {10, std::string("\xff\x00z", 3)}};
    f.split_offsets = {4, 1024 + i, 99999};
    f.sort_order_id = i;
  }
  return f;
}

TEST(IcebergManifestRoundTrip, EveryPartitionTypeAndStatus) {
  ManifestTempDir dir;
  auto io = storage::FileIO::Open(dir.path().string());
  ASSERT_TRUE(io.ok()) << io.status().ToString();
  const schema::Schema schema = AllTypesSchema();
  const schema::PartitionSpec spec = AllTypesSpec();
  std::vector<ManifestEntry> entries;
  for (int i = 0; i < 9; ++i) {
    ManifestEntry e;
    e.status = static_cast<EntryStatus>((i + 1) % 3);  // added, deleted, existing, ...
    if (e.status == EntryStatus::kAdded) {
      e.snapshot_id = i % 2 ? std::optional<std::int64_t>() : std::optional<std::int64_t>(77);  // null: inherited
    } else {
      e.snapshot_id = 1000 + i;
      e.sequence_number = i;
      e.file_sequence_number = i + 1;
    }
    e.data_file = SampleFile(i, spec.spec_id, AllTypesPartition(i));
    entries.push_back(std::move(e));
  }
  ManifestContext context{&schema, &spec, 2};
  auto written = WriteManifest(*io, "metadata/m0.avro", context, 77, 12, entries);
  ASSERT_TRUE(written.ok()) << written.status().ToString();
  EXPECT_EQ(written->partition_spec_id, 2);
  EXPECT_EQ(written->added_snapshot_id, 77);
  EXPECT_EQ(written->added_files_count, 3);
  EXPECT_EQ(written->existing_files_count, 3);
  EXPECT_EQ(written->deleted_files_count, 3);
  // Over live entries only: the existing ones (sequence numbers 2, 5, 8) and the added
  // (12); the deleted ones (1, 4, 7) do not count.
  EXPECT_EQ(written->min_sequence_number, 2);
  EXPECT_EQ(written->manifest_length, static_cast<std::int64_t>(std::filesystem::file_size(dir.path() / "metadata/m0.avro")));

  auto read = ReadManifest(*written, schema, spec);
  ASSERT_TRUE(read.ok()) << read.status().ToString();
  ASSERT_EQ(read->size(), entries.size());
  for (std::size_t i = 0; i < entries.size(); ++i) {
    SCOPED_TRACE(i);
    const ManifestEntry& e = entries[i];
    const ManifestEntry& r = (*read)[i];
    EXPECT_EQ(r.status, e.status);
    EXPECT_EQ(r.content, FileContent::kData);
    if (e.status == EntryStatus::kAdded) {
      EXPECT_EQ(r.snapshot_id, 77);
      EXPECT_EQ(r.sequence_number, 12);
      EXPECT_EQ(r.file_sequence_number, 12);
    } else {
      EXPECT_EQ(r.snapshot_id, e.snapshot_id);
      EXPECT_EQ(r.sequence_number, e.sequence_number);
      EXPECT_EQ(r.file_sequence_number, e.file_sequence_number);
    }
    ExpectSameFile(r.data_file, e.data_file);
  }
}

// Partition fields of one decimal / uuid / fixed type each get their own Avro type name:
// a second definition of one name is invalid Avro, and pyiceberg cannot follow a reference.
TEST(IcebergManifestRoundTrip, RepeatedNamedTypesGetUniqueNames) {
  ManifestTempDir dir;
  auto io = storage::FileIO::Open(dir.path().string());
  ASSERT_TRUE(io.ok());
  const schema::Schema schema = AllTypesSchema();
  const schema::PartitionSpec spec = AllTypesSpec();  // identity(dec) and truncate[10](dec)
  ManifestContext context{&schema, &spec, 2};
  auto written = WriteManifest(*io, "metadata/names.avro", context, 1, 1, {});
  ASSERT_TRUE(written.ok()) << written.status().ToString();
  std::ifstream in(dir.path() / "metadata/names.avro", std::ios::binary);
  const std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  EXPECT_NE(bytes.find(R"("name":"decimal_9_2")"), std::string::npos);
  EXPECT_NE(bytes.find(R"("name":"decimal_9_2_2")"), std::string::npos);
}

// Manifest-list partition summaries order values as numbers: decimals by value (not by
// their bytes), NaN outside the bounds but flagged.
TEST(IcebergManifestRoundTrip, PartitionSummariesOrderDecimalsAndSkipNaN) {
  ManifestTempDir dir;
  auto io = storage::FileIO::Open(dir.path().string());
  ASSERT_TRUE(io.ok());
  schema::Schema schema;
  schema.fields = {Field(1, "price", Type::Decimal(9, 2)), Field(2, "x", P(TypeId::kDouble))};
  schema::PartitionSpec spec;
  spec.fields = {PField(1, 1000, "price", schema::TransformKind::kIdentity),
                 PField(2, 1001, "x", schema::TransformKind::kIdentity)};
  ManifestContext context{&schema, &spec, 2};
  std::vector<ManifestEntry> entries(4);
  const std::vector<std::string> prices = {Bytes({0x61, 0xa8}), Bytes({0xfe, 0xa2}), Bytes({0x7d}), Bytes({0xff})};
  const std::vector<double> xs = {1.5, std::nan(""), -2.0, 0.0};
  for (std::size_t i = 0; i < entries.size(); ++i) {
    entries[i].data_file = SampleFile(static_cast<int>(i), 0, {Literal(prices[i]), Literal(xs[i])});
  }
  auto written = WriteManifest(*io, "metadata/s.avro", context, 1, 1, entries);
  ASSERT_TRUE(written.ok()) << written.status().ToString();
  ASSERT_EQ(written->partitions.size(), 2u);
  const FieldSummary& price = written->partitions[0];
  EXPECT_FALSE(price.contains_null);
  EXPECT_EQ(price.lower_bound, Bytes({0xfe, 0xa2}));  // -3.50
  EXPECT_EQ(price.upper_bound, Bytes({0x61, 0xa8}));  // 250.00
  const FieldSummary& x = written->partitions[1];
  EXPECT_EQ(x.contains_nan, true);
  EXPECT_EQ(x.lower_bound, std::string("\x00\x00\x00\x00\x00\x00\x00\xc0", 8));  // -2.0
  EXPECT_EQ(x.upper_bound, std::string("\x00\x00\x00\x00\x00\x00\xf8\x3f", 8));  // 1.5
}

TEST(IcebergManifestRoundTrip, UnpartitionedAndEmpty) {
  ManifestTempDir dir;
  auto io = storage::FileIO::Open(dir.path().string());
  ASSERT_TRUE(io.ok());
  const schema::Schema schema = testing::SampleSchema();
  const schema::PartitionSpec spec;  // unpartitioned, id 0
  ManifestContext context{&schema, &spec, 2};
  std::vector<ManifestEntry> entries(2);
  entries[0].snapshot_id = 5;
  entries[0].data_file = SampleFile(0, 0, {});
  entries[1].snapshot_id = 5;
  entries[1].data_file = SampleFile(1, 0, {});
  auto written = WriteManifest(*io, "metadata/u.avro", context, 5, 3, entries);
  ASSERT_TRUE(written.ok()) << written.status().ToString();
  auto read = ReadManifest(*written, schema, spec);
  ASSERT_TRUE(read.ok()) << read.status().ToString();
  ASSERT_EQ(read->size(), 2u);
  ExpectSameFile((*read)[1].data_file, entries[1].data_file);

  auto empty = WriteManifest(*io, "metadata/e.avro", context, 5, 3, {});
  ASSERT_TRUE(empty.ok()) << empty.status().ToString();
  auto none = ReadManifest(*empty, schema, spec);
  ASSERT_TRUE(none.ok()) << none.status().ToString();
  EXPECT_TRUE(none->empty());
}

// A manifest written before int → long and float → double promotions reads under the new schema.
TEST(IcebergManifestRoundTrip, PartitionValuesFollowTypePromotions) {
  ManifestTempDir dir;
  auto io = storage::FileIO::Open(dir.path().string());
  ASSERT_TRUE(io.ok());
  schema::Schema before;
  before.fields = {Field(1, "n", P(TypeId::kInt)), Field(2, "x", P(TypeId::kFloat))};
  schema::Schema after = before;
  after.schema_id = 1;
  after.fields = {Field(1, "n", P(TypeId::kLong)), Field(2, "x", P(TypeId::kDouble))};
  schema::PartitionSpec spec;
  spec.fields = {PField(1, 1000, "n", schema::TransformKind::kIdentity),
                 PField(2, 1001, "x", schema::TransformKind::kIdentity)};
  ManifestContext context{&before, &spec, 2};
  std::vector<ManifestEntry> entries(1);
  entries[0].data_file = SampleFile(0, 0, {Literal(std::int32_t{-5}), Literal(0.5f)});
  auto written = WriteManifest(*io, "metadata/p.avro", context, 1, 1, entries);
  ASSERT_TRUE(written.ok()) << written.status().ToString();
  auto read = ReadManifest(*written, after, spec);
  ASSERT_TRUE(read.ok()) << read.status().ToString();
  EXPECT_EQ(read->at(0).data_file.partition[0], PartitionValue(Literal(std::int64_t{-5})));
  EXPECT_EQ(read->at(0).data_file.partition[1], PartitionValue(Literal(0.5)));
  // The other way round is not a promotion.
  auto narrowed = ReadManifest(*written, before, spec);
  ASSERT_TRUE(narrowed.ok());
  schema::Schema strings = before;
  strings.fields = {Field(1, "n", P(TypeId::kString)), Field(2, "x", P(TypeId::kDouble))};
  auto wrong = ReadManifest(*written, strings, spec);
  ASSERT_FALSE(wrong.ok());
  EXPECT_EQ(wrong.status().code(), StatusCode::kInvalidArgument);
  EXPECT_NE(wrong.status().message().find("partition field 'n'"), std::string::npos) << wrong.status().ToString();
}

TEST(IcebergManifestRoundTrip, WriteRejectsBadEntriesBeforeWriting) {
  ManifestTempDir dir;
  auto io = storage::FileIO::Open(dir.path().string());
  ASSERT_TRUE(io.ok());
  const schema::Schema schema = testing::SampleSchema();
  const schema::PartitionSpec spec = testing::SampleSpec();
  ManifestContext context{&schema, &spec, 2};
  std::vector<ManifestEntry> entries(1);
  entries[0].data_file = SampleFile(0, 0, {Literal(std::int32_t{1})});  // the spec has two fields
  auto short_tuple = WriteManifest(*io, "metadata/bad.avro", context, 1, 1, entries);
  ASSERT_FALSE(short_tuple.ok());
  EXPECT_EQ(short_tuple.status().code(), StatusCode::kInvalidArgument);
  entries[0].data_file.partition = {Literal(std::int32_t{1}), Literal(std::int32_t{2})};
  entries[0].content = FileContent::kEqualityDeletes;
  auto deletes = WriteManifest(*io, "metadata/bad.avro", context, 1, 1, entries);
  ASSERT_FALSE(deletes.ok());
  EXPECT_EQ(deletes.status().code(), StatusCode::kUnsupported);
  EXPECT_FALSE(std::filesystem::exists(dir.path() / "metadata/bad.avro"));
}

TEST(IcebergManifestRoundTrip, TruncatedOrForeignFilesAreErrors) {
  ManifestTempDir dir;
  auto io = storage::FileIO::Open(dir.path().string());
  ASSERT_TRUE(io.ok());
  const schema::Schema schema = testing::SampleSchema();
  const schema::PartitionSpec spec = testing::SampleSpec();
  ManifestContext context{&schema, &spec, 2};
  std::vector<ManifestEntry> entries(3);
  for (int i = 0; i < 3; ++i) {
    entries[static_cast<std::size_t>(i)].data_file =
        SampleFile(i, 0, {Literal(std::int32_t{19000 + i}), Literal(std::int32_t{i})});
  }
  auto written = WriteManifest(*io, "metadata/t.avro", context, 1, 1, entries);
  ASSERT_TRUE(written.ok()) << written.status().ToString();
  const auto path = dir.path() / "metadata/t.avro";
  const auto size = std::filesystem::file_size(path);
  std::filesystem::resize_file(path, size - 7);
  auto truncated = ReadManifest(*written, schema, spec);
  ASSERT_FALSE(truncated.ok());
  EXPECT_NE(truncated.status().message().find("t.avro"), std::string::npos) << truncated.status().ToString();

  // A manifest list is not a manifest.
  ASSERT_TRUE(WriteManifestList(*io, "metadata/list.avro", 1, std::nullopt, 1, {*written}).ok());
  ManifestFile list = *written;
  list.manifest_path = io->Uri("metadata/list.avro");
  auto not_manifest = ReadManifest(list, schema, spec);
  ASSERT_FALSE(not_manifest.ok());
  EXPECT_EQ(not_manifest.status().code(), StatusCode::kInvalidArgument);
}

TEST(IcebergManifestRoundTrip, ManifestListKeepsEveryField) {
  ManifestTempDir dir;
  auto io = storage::FileIO::Open(dir.path().string());
  ASSERT_TRUE(io.ok());
  ManifestFile a;
  a.manifest_path = "file:///t/metadata/a.avro";
  a.manifest_length = 1234;
  a.partition_spec_id = 3;
  a.sequence_number = 9;
  a.min_sequence_number = 2;
  a.added_snapshot_id = 99;
  a.added_files_count = 1;
  a.existing_files_count = 2;
  a.deleted_files_count = 3;
  a.added_rows_count = 10;
  a.existing_rows_count = 20;
  a.deleted_rows_count = 30;
  a.partitions = {FieldSummary{true, false, std::string("\x01\x00\x00\x00", 4), std::string("\x09\x00\x00\x00", 4)},
                  FieldSummary{false, std::nullopt, std::nullopt, std::nullopt}};
  a.key_metadata = std::string("k\x00y", 3);
  ManifestFile b;
  b.manifest_path = "file:///t/metadata/b.avro";
  b.content = 1;
  ASSERT_TRUE(WriteManifestList(*io, "metadata/snap.avro", 99, 98, 9, {a, b}).ok());
  auto read = ReadManifestList(io->Uri("metadata/snap.avro"));
  ASSERT_TRUE(read.ok()) << read.status().ToString();
  ASSERT_EQ(read->size(), 2u);
  const ManifestFile& r = (*read)[0];
  EXPECT_EQ(r.manifest_path, a.manifest_path);
  EXPECT_EQ(r.manifest_length, 1234);
  EXPECT_EQ(r.partition_spec_id, 3);
  EXPECT_EQ(r.sequence_number, 9);
  EXPECT_EQ(r.min_sequence_number, 2);
  EXPECT_EQ(r.added_snapshot_id, 99);
  EXPECT_EQ(r.added_files_count, 1);
  EXPECT_EQ(r.existing_files_count, 2);
  EXPECT_EQ(r.deleted_files_count, 3);
  EXPECT_EQ(r.added_rows_count, 10);
  EXPECT_EQ(r.existing_rows_count, 20);
  EXPECT_EQ(r.deleted_rows_count, 30);
  ASSERT_EQ(r.partitions.size(), 2u);
  EXPECT_TRUE(r.partitions[0].contains_null);
  EXPECT_EQ(r.partitions[0].contains_nan, false);
  EXPECT_EQ(r.partitions[0].lower_bound, a.partitions[0].lower_bound);
  EXPECT_EQ(r.partitions[0].upper_bound, a.partitions[0].upper_bound);
  EXPECT_FALSE(r.partitions[1].contains_nan.has_value());
  EXPECT_FALSE(r.partitions[1].lower_bound.has_value());
  EXPECT_EQ(r.key_metadata, a.key_metadata);
  EXPECT_EQ((*read)[1].content, 1);
  EXPECT_FALSE((*read)[1].key_metadata.has_value());
  EXPECT_TRUE((*read)[1].partitions.empty());
}

}  // namespace
}  // namespace floe::iceberg
