// Manifests written by other engines (tests/data/iceberg/manifests/: Apache Iceberg Java
// 1.11.0 and pyiceberg 0.12.0, format v1 and v2, every codec; tests/data/avro/: two
// pyiceberg manifests of the Avro module's goldens) read back with ReadManifest. The
// generators write entry i as a function of i; Expected() computes it again here.
#include <gtest/gtest.h>

#include <cstring>
#include <filesystem>
#include <string>
#include <vector>

#include "floe/iceberg/manifest_internal.h"
#include "floe/schema/partition.h"
#include "iceberg_test_util.h"

namespace floe::iceberg {
namespace {

using schema::Type;
using schema::TypeId;
using testing::Bytes;
using testing::ExpectSameFile;
using testing::Field;
using testing::P;
using testing::PField;

std::string Le64(std::int64_t v) {
  std::string out(8, '\0');
  std::memcpy(out.data(), &v, 8);
  return out;
}

// The unscaled value as minimal big-endian two's-complement bytes (Floe's decimal literal).
std::string Unscaled(std::int64_t v) {
  std::string be(8, '\0');
  for (int i = 0; i < 8; ++i) be[static_cast<std::size_t>(i)] = static_cast<char>((static_cast<std::uint64_t>(v) >> (56 - 8 * i)) & 0xff);
  return schema::MinimalDecimalBytes(be);
}

schema::Schema GoldenSchema() {
  schema::Schema s;
  s.fields = {Field(1, "b", P(TypeId::kBoolean)),      Field(2, "i", P(TypeId::kInt)),
              Field(3, "l", P(TypeId::kLong)),         Field(4, "f", P(TypeId::kFloat)),
              Field(5, "d", P(TypeId::kDouble)),       Field(6, "dt", P(TypeId::kDate)),
              Field(7, "t", P(TypeId::kTime)),         Field(8, "ts", P(TypeId::kTimestamp)),
              Field(9, "tstz", P(TypeId::kTimestampTz)), Field(10, "s", P(TypeId::kString)),
              Field(11, "u", P(TypeId::kUuid)),        Field(12, "fx", Type::Fixed(4)),
              Field(13, "bin", P(TypeId::kBinary)),    Field(14, "dec", Type::Decimal(9, 2)),
              Field(15, "dec_big", Type::Decimal(20, 4))};
  return s;
}

schema::PartitionSpec GoldenSpec() {
  using K = schema::TransformKind;
  schema::PartitionSpec spec;
  spec.spec_id = 3;
  const std::vector<std::pair<int, std::string>> identity = {{1, "b"},   {2, "i"},   {3, "l"},    {4, "f"},
                                                             {5, "d"},   {6, "dt"},  {7, "t"},    {8, "ts"},
                                                             {9, "tstz"}, {10, "s"}, {11, "u"},   {13, "bin"},
                                                             {14, "dec"}, {15, "dec_big"}};
  int id = 1000;
  for (const auto& [source, name] : identity) spec.fields.push_back(PField(source, id++, name, K::kIdentity));
  spec.fields.push_back(PField(8, 1014, "ts_day", K::kDay));
  spec.fields.push_back(PField(9, 1015, "tstz_hour", K::kHour));
  spec.fields.push_back(PField(3, 1016, "l_bucket", K::kBucket, 8));
  spec.fields.push_back(PField(10, 1017, "s_trunc", K::kTruncate, 3));
  spec.fields.push_back(PField(6, 1018, "dt_month", K::kMonth));
  return spec;
}

std::vector<PartitionValue> GoldenPartition(int i) {
  using L = Literal;
  if (i == 0) {
    return {L(true), L(std::int32_t{42}), L(std::int64_t{1234567890123}), L(1.5f), L(-2.25), L(std::int32_t{19000}),
            L(std::int64_t{45296789012}), L(std::int64_t{1700000000123456}), L(std::int64_t{-86400000001}),
            L(std::string("h\xc3\xa9llo")),
            L(Bytes({0xf7, 0x9c, 0x3e, 0x09, 0x67, 0x7c, 0x4b, 0xbd, 0xa4, 0x79, 0x3f, 0x34, 0x9c, 0xb7, 0x85, 0xe7})),
            L(Bytes({0x00, 0xff, 0x10})), L(Unscaled(12345)), L(Unscaled(123456789012345678)), L(std::int32_t{19675}),
            L(std::int32_t{-25}), L(std::int32_t{5}), L(std::string("h\xc3\xa9l")), L(std::int32_t{624})};
  }
  if (i == 1) {
    return {L(false), L(std::int32_t{-7}), L(std::int64_t{-9}), L(-0.25f), L(1e300), L(std::int32_t{-1}),
            L(std::int64_t{0}), L(std::int64_t{-1}), L(std::int64_t{0}), L(std::string()),
            L(Bytes({0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1})), L(std::string()), L(Unscaled(-1)),
            L(Unscaled(-123456789012345678)), L(std::int32_t{-1}), L(std::int32_t{0}), L(std::int32_t{0}),
            L(std::string()), L(std::int32_t{-1})};
  }
  return std::vector<PartitionValue>(19);
}

DataFile GoldenFile(int i, std::vector<PartitionValue> partition, int spec_id, int bounds_column) {
  DataFile f;
  f.file_path = "s3://bucket/t/data/f" + std::to_string(i) + ".parquet";
  f.file_format = "PARQUET";
  f.partition = std::move(partition);
  f.spec_id = spec_id;
  f.record_count = 100 + i;
  f.file_size_in_bytes = 4096 + i;
  f.column_sizes = {{1, 800 + i}, {2, 900 + i}};
  f.value_counts = {{1, 100 + i}, {2, 100 + i}};
  f.null_value_counts = {{1, 0}, {2, i}};
  f.lower_bounds = {{bounds_column, Le64(i)}};
  f.upper_bounds = {{bounds_column, Le64(1000 + i)}};
  f.sort_order_id = 0;
  return f;
}

std::string GoldenPath(const std::string& name) {
  return (testing::DataDir() / "manifests" / name).string();
}

ManifestFile ListEntry(const std::string& path, int spec_id, std::int64_t sequence_number) {
  ManifestFile m;
  m.manifest_path = path;
  m.partition_spec_id = spec_id;
  m.sequence_number = sequence_number;
  m.min_sequence_number = sequence_number;
  m.added_snapshot_id = 42;
  return m;
}

struct Golden {
  const char* name;
  int format_version;
};

class IcebergManifestFromEngines : public ::testing::TestWithParam<Golden> {};

TEST_P(IcebergManifestFromEngines, ReadsEveryFieldAndInheritsSequenceNumbers) {
  const Golden g = GetParam();
  const bool v1 = g.format_version == 1;
  // A v1 manifest list has no sequence numbers: 0. A v2 list entry's sequence number (7
  // here) is inherited by ADDED entries only.
  const std::int64_t list_sequence = v1 ? 0 : 7;
  auto entries = ReadManifest(ListEntry(GoldenPath(g.name), 3, list_sequence), GoldenSchema(), GoldenSpec());
  ASSERT_TRUE(entries.ok()) << entries.status().ToString();
  ASSERT_EQ(entries->size(), 3u);
  const EntryStatus statuses[] = {EntryStatus::kAdded, EntryStatus::kExisting, EntryStatus::kDeleted};
  const std::int64_t snapshots[] = {42, 11, 42};
  const std::int64_t data_seq[] = {7, 3, 4};
  const std::int64_t file_seq[] = {7, 2, 4};
  for (int i = 0; i < 3; ++i) {
    SCOPED_TRACE(i);
    const ManifestEntry& e = (*entries)[static_cast<std::size_t>(i)];
    EXPECT_EQ(e.status, statuses[i]);
    EXPECT_EQ(e.content, FileContent::kData);
    EXPECT_EQ(e.snapshot_id, snapshots[i]);
    EXPECT_EQ(e.sequence_number, v1 ? 0 : data_seq[i]);
    EXPECT_EQ(e.file_sequence_number, v1 ? 0 : file_seq[i]);
    DataFile expected = GoldenFile(i, GoldenPartition(i), 3, 3);
    expected.nan_value_counts = {{4, i}};
    expected.split_offsets = {4, 1000 + i};
    ExpectSameFile(e.data_file, expected);
  }
}

// Full names: IcebergManifestGolden/IcebergManifestFromEngines.ReadsEveryField…/java_v2_null, …
INSTANTIATE_TEST_SUITE_P(IcebergManifestGolden, IcebergManifestFromEngines,
                         ::testing::Values(Golden{"java-v2-null.avro", 2}, Golden{"java-v2-deflate.avro", 2},
                                           Golden{"java-v2-snappy.avro", 2}, Golden{"java-v2-zstandard.avro", 2},
                                           Golden{"java-v1-deflate.avro", 1}, Golden{"pyiceberg-v2-null.avro", 2},
                                           Golden{"pyiceberg-v2-deflate.avro", 2},
                                           Golden{"pyiceberg-v2-zstandard.avro", 2},
                                           Golden{"pyiceberg-v1-deflate.avro", 1}),
                         [](const ::testing::TestParamInfo<Golden>& p) {
                           std::string name = p.param.name;
                           name = name.substr(0, name.find('.'));
                           for (char& c : name) {
                             if (c == '-') c = '_';
                           }
                           return name;
                         });

TEST(IcebergManifestGolden, JavaDeleteManifestEntriesSayTheyAreDeletes) {
  auto entries = ReadManifest(ListEntry(GoldenPath("java-v2-deletes.avro"), 3, 5), GoldenSchema(), GoldenSpec());
  ASSERT_TRUE(entries.ok()) << entries.status().ToString();
  ASSERT_EQ(entries->size(), 1u);
  const ManifestEntry& e = entries->front();
  EXPECT_EQ(e.content, FileContent::kPositionDeletes);
  EXPECT_EQ(e.data_file.file_path, "s3://bucket/t/data/d0.parquet");
  EXPECT_EQ(e.data_file.record_count, 5);
  EXPECT_EQ(e.sequence_number, 5);
  EXPECT_EQ(e.data_file.partition, std::vector<PartitionValue>(19));
}

// Java refers to a named Avro type by name when a second partition field has the same
// decimal type (pyiceberg 0.12 cannot read such files; Floe must).
TEST(IcebergManifestGolden, JavaRefersToARepeatedDecimalTypeByName) {
  schema::PartitionSpec spec;
  spec.spec_id = 5;
  spec.fields = {PField(14, 1000, "dec", schema::TransformKind::kIdentity),
                 PField(14, 1001, "dec_trunc", schema::TransformKind::kTruncate, 100)};
  auto entries = ReadManifest(ListEntry(GoldenPath("java-v2-shared-decimal.avro"), 5, 2), GoldenSchema(), spec);
  ASSERT_TRUE(entries.ok()) << entries.status().ToString();
  ASSERT_EQ(entries->size(), 1u);
  EXPECT_EQ(entries->front().data_file.partition,
            (std::vector<PartitionValue>{Literal(Unscaled(12345)), Literal(Unscaled(12300))}));
  EXPECT_EQ(entries->front().data_file.record_count, 3);
}

// The partition field is found by its id even when the caller's spec renamed it.
TEST(IcebergManifestGolden, PartitionFieldsMatchByIdNotName) {
  schema::PartitionSpec spec = GoldenSpec();
  spec.fields[1].name = "renamed_i";
  auto entries = ReadManifest(ListEntry(GoldenPath("java-v2-null.avro"), 3, 7), GoldenSchema(), spec);
  ASSERT_TRUE(entries.ok()) << entries.status().ToString();
  EXPECT_EQ(entries->front().data_file.partition[1], PartitionValue(Literal(std::int32_t{42})));
}

TEST(IcebergManifestGolden, WrongSpecOrMissingFileIsAnError) {
  auto wrong_id = ReadManifest(ListEntry(GoldenPath("java-v2-null.avro"), 4, 7), GoldenSchema(), GoldenSpec());
  ASSERT_FALSE(wrong_id.ok());
  EXPECT_EQ(wrong_id.status().code(), StatusCode::kInvalidArgument);

  schema::PartitionSpec extra = GoldenSpec();
  extra.fields.push_back(PField(2, 1099, "not_there", schema::TransformKind::kIdentity));
  auto missing_field = ReadManifest(ListEntry(GoldenPath("java-v2-null.avro"), 3, 7), GoldenSchema(), extra);
  ASSERT_FALSE(missing_field.ok());
  EXPECT_NE(missing_field.status().message().find("not_there"), std::string::npos) << missing_field.status().ToString();

  auto missing_file = ReadManifest(ListEntry(GoldenPath("no-such.avro"), 3, 7), GoldenSchema(), GoldenSpec());
  ASSERT_FALSE(missing_file.ok());
  EXPECT_NE(missing_file.status().message().find("no-such.avro"), std::string::npos);
}

// The two pyiceberg manifests the Avro module keeps (tests/data/avro/README.md): schema
// id long, name string, day date; unpartitioned, and day(day) + identity(name) as spec 1.
schema::Schema AvroGoldenSchema() {
  schema::Schema s;
  s.fields = {Field(1, "id", P(TypeId::kLong), true), Field(2, "name", P(TypeId::kString)),
              Field(3, "day", P(TypeId::kDate))};
  return s;
}

std::string AvroGoldenPath(const std::string& name) {
  return (testing::DataDir().parent_path() / "avro" / name).string();
}

TEST(IcebergManifestGolden, AvroModulePyicebergManifests) {
  schema::PartitionSpec unpartitioned;
  schema::PartitionSpec partitioned;
  partitioned.spec_id = 1;
  partitioned.fields = {PField(3, 1000, "day_day", schema::TransformKind::kDay),
                        PField(2, 1001, "name", schema::TransformKind::kIdentity)};
  for (const auto* spec : {&unpartitioned, &partitioned}) {
    const bool is_partitioned = spec == &partitioned;
    SCOPED_TRACE(is_partitioned ? "partitioned" : "unpartitioned");
    const std::string path =
        AvroGoldenPath(is_partitioned ? "pyiceberg_manifest_partitioned.avro" : "pyiceberg_manifest_unpartitioned.avro");
    auto entries = ReadManifest(ListEntry(path, spec->spec_id, 9), AvroGoldenSchema(), *spec);
    ASSERT_TRUE(entries.ok()) << entries.status().ToString();
    ASSERT_EQ(entries->size(), 3u);
    for (int i = 0; i < 3; ++i) {
      const ManifestEntry& e = (*entries)[static_cast<std::size_t>(i)];
      EXPECT_EQ(e.status, EntryStatus::kAdded);
      EXPECT_EQ(e.snapshot_id, 42);
      EXPECT_EQ(e.sequence_number, 9);
      EXPECT_EQ(e.file_sequence_number, 9);
      std::vector<PartitionValue> partition;
      if (is_partitioned) {
        partition = {Literal(std::int32_t{19000 + i}), Literal(std::string("n") + std::to_string(i))};
      }
      DataFile expected = GoldenFile(i, partition, spec->spec_id, 1);
      expected.split_offsets = {4};
      ExpectSameFile(e.data_file, expected);
    }
  }
}

}  // namespace
}  // namespace floe::iceberg
