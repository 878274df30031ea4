#pragma once
// Shared helpers of the Iceberg unit tests: test data files, small schemas and comparing
// data files.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <initializer_list>
#include <sstream>
#include <string>
#include <vector>

#include "floe/iceberg/data_file.h"
#include "floe/iceberg/table_metadata.h"
#include "floe/schema/partition.h"
#include "floe/schema/types.h"

namespace floe::iceberg::testing {

// $FLOE_TEST_DATA/iceberg (set by ctest), else tests/data/iceberg next to this source file
// (the per-module test binary runs without ctest's environment).
inline std::filesystem::path DataDir() {
  if (const char* env = std::getenv("FLOE_TEST_DATA"); env != nullptr && *env != '\0') {
    return std::filesystem::path(env) / "iceberg";
  }
  return std::filesystem::path(__FILE__).parent_path().parent_path().parent_path() / "data" / "iceberg";
}

inline std::string ReadDataFile(const std::string& name) {
  std::ifstream in(DataDir() / name, std::ios::binary);
  EXPECT_TRUE(in.good()) << "cannot open " << (DataDir() / name);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

// All *.metadata.json files in the data dir, sorted by name.
inline std::vector<std::string> MetadataFiles() {
  std::vector<std::string> out;
  std::error_code ec;
  for (const auto& e : std::filesystem::directory_iterator(DataDir(), ec)) {
    std::string name = e.path().filename().string();
    if (name.size() > 14 && name.ends_with(".metadata.json")) out.push_back(name);
  }
  std::sort(out.begin(), out.end());
  return out;
}

inline TableMetadata ParseDataFile(const std::string& name) {
  auto m = ParseTableMetadata(ReadDataFile(name));
  EXPECT_TRUE(m.ok()) << name << ": " << m.status().ToString();
  return m.ok() ? std::move(m).value() : TableMetadata{};
}

// Bytes from their values ({0x01, 0xff}), for binary literals and bounds.
inline std::string Bytes(std::initializer_list<int> values) {
  std::string out;
  for (int v : values) out.push_back(static_cast<char>(v));
  return out;
}

// Every field of a data file as a manifest stores it; `e` is the expected one.
inline void ExpectSameFile(const DataFile& a, const DataFile& e) {
  SCOPED_TRACE(e.file_path);
  EXPECT_EQ(a.file_path, e.file_path);
  EXPECT_EQ(a.file_format, e.file_format);
  ASSERT_EQ(a.partition.size(), e.partition.size());
  for (std::size_t k = 0; k < e.partition.size(); ++k) {
    EXPECT_EQ(a.partition[k], e.partition[k]) << "partition field " << k;
  }
  EXPECT_EQ(a.spec_id, e.spec_id);
  EXPECT_EQ(a.record_count, e.record_count);
  EXPECT_EQ(a.file_size_in_bytes, e.file_size_in_bytes);
  EXPECT_EQ(a.column_sizes, e.column_sizes);
  EXPECT_EQ(a.value_counts, e.value_counts);
  EXPECT_EQ(a.null_value_counts, e.null_value_counts);
  EXPECT_EQ(a.nan_value_counts, e.nan_value_counts);
  EXPECT_EQ(a.lower_bounds, e.lower_bounds);
  EXPECT_EQ(a.upper_bounds, e.upper_bounds);
  EXPECT_EQ(a.split_offsets, e.split_offsets);
  EXPECT_EQ(a.sort_order_id, e.sort_order_id);
}

inline schema::NestedField Field(int id, std::string name, schema::TypePtr type, bool required = false) {
  schema::NestedField f;
  f.id = id;
  f.name = std::move(name);
  f.type = std::move(type);
  f.required = required;
  return f;
}

inline schema::TypePtr P(schema::TypeId id) { return schema::Type::Primitive(id); }

// id long required, category string, ts timestamptz, qty int, loc struct<lat double, lon double>.
inline schema::Schema SampleSchema() {
  schema::Schema s;
  s.schema_id = 0;
  s.fields = {Field(1, "id", P(schema::TypeId::kLong), true), Field(2, "category", P(schema::TypeId::kString)),
              Field(3, "ts", P(schema::TypeId::kTimestampTz)), Field(4, "qty", P(schema::TypeId::kInt)),
              Field(5, "loc", schema::Type::Struct({Field(6, "lat", P(schema::TypeId::kDouble)),
                                                    Field(7, "lon", P(schema::TypeId::kDouble))}))};
  s.identifier_field_ids = {1};
  return s;
}

inline schema::PartitionField PField(int source_id, int field_id, std::string name, schema::TransformKind kind,
                                     int param = 0) {
  schema::PartitionField f;
  f.source_id = source_id;
  f.field_id = field_id;
  f.name = std::move(name);
  f.transform = schema::Transform{kind, param};
  return f;
}

inline schema::PartitionSpec SampleSpec() {
  schema::PartitionSpec spec;
  spec.spec_id = 0;
  spec.fields = {PField(3, 1000, "ts_day", schema::TransformKind::kDay),
                 PField(1, 1001, "id_bucket_16", schema::TransformKind::kBucket, 16)};
  return spec;
}

inline schema::SortOrder SampleOrder() {
  schema::SortOrder order;
  order.order_id = 1;
  schema::SortField f;
  f.source_id = 1;
  f.transform = schema::Transform{schema::TransformKind::kIdentity, 0};
  f.direction = schema::SortDirection::kAsc;
  f.null_order = schema::NullOrder::kNullsFirst;
  order.fields = {f};
  return order;
}

}  // namespace floe::iceberg::testing
