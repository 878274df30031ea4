#pragma once
// Shared by the container file tests: an Iceberg-manifest-like schema with field ids,
// rows derived from the row index, writing a whole file to memory, and the test data dir.
#include <arrow/api.h>
#include <arrow/buffer.h>
#include <arrow/io/memory.h>
#include <arrow/json/from_string.h>
#include <gtest/gtest.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>
#include <string_view>
#include <vector>

#include "floe/avro/container_file.h"

namespace floe::avro::testing {

// Deliberately unusual formatting (spacing, key order, an escaped character in a doc):
// the writer must store it byte for byte.
inline constexpr std::string_view kManifestLikeSchema = R"({"type": "record", "name": "manifest_entry",
  "fields": [
    {"name": "status", "type": "int", "field-id": 0},
    {"field-id": 1, "name": "snapshot_id", "type": ["null", "long"], "default": null},
    {"name": "data_file", "field-id": 2, "type": {"type": "record", "name": "r2", "fields": [
      {"name": "file_path", "type": "string", "field-id": 100, "doc": "Location URI \u00e9"},
      {"name": "partition", "field-id": 102, "type": {"type": "record", "name": "r102", "fields": [
        {"name": "day", "type": ["null", {"type": "int", "logicalType": "date"}], "default": null, "field-id": 1000}]}},
      {"name": "record_count", "type": "long", "field-id": 103},
      {"name": "column_sizes", "field-id": 108, "default": null, "type": ["null", {"type": "array", "logicalType": "map",
        "items": {"type": "record", "name": "k117_v118", "fields": [
          {"name": "key", "type": "int", "field-id": 117}, {"name": "value", "type": "long", "field-id": 118}]}}]},
      {"name": "split_offsets", "field-id": 132, "type": ["null", {"type": "array", "items": "long", "element-id": 133}], "default": null},
      {"name": "key_metadata", "type": ["null", "bytes"], "default": null, "field-id": 131}]}},
    {"name": "props", "type": {"type": "map", "values": "string", "key-id": 7, "value-id": 8}, "field-id": 6},
    {"name": "score", "type": "double", "field-id": 9},
    {"name": "flag", "type": "boolean", "field-id": 10}]})";

// Row i of kManifestLikeSchema, encoded.
inline void WriteManifestLikeRow(BinaryWriter& w, std::int64_t i) {
  w.WriteInt(static_cast<std::int32_t>(i % 3));              // status
  if (i % 5 == 0) {                                          // snapshot_id
    w.WriteUnionBranch(0);
  } else {
    w.WriteUnionBranch(1);
    w.WriteLong(i * 1000 + 7);
  }
  w.WriteString("s3://bucket/data/file-" + std::to_string(i) + ".parquet");  // data_file.file_path
  if (i % 4 == 0) {                                          // data_file.partition.day
    w.WriteUnionBranch(0);
  } else {
    w.WriteUnionBranch(1);
    w.WriteInt(static_cast<std::int32_t>(19000 + i % 30));
  }
  w.WriteLong(i * i);                                        // data_file.record_count
  if (i % 6 == 0) {                                          // data_file.column_sizes
    w.WriteUnionBranch(0);
  } else {
    w.WriteUnionBranch(1);
    if (i % 3 > 0) {
      w.WriteBlockCount(i % 3);
      for (std::int64_t k = 0; k < i % 3; ++k) {
        w.WriteInt(static_cast<std::int32_t>(k + 1));
        w.WriteLong((k + 1) * i);
      }
    }
    w.WriteBlockCount(0);
  }
  if (i % 2 == 1) {                                          // data_file.split_offsets
    w.WriteUnionBranch(0);
  } else {
    w.WriteUnionBranch(1);
    w.WriteBlockCount(1);
    w.WriteLong(4);
    w.WriteBlockCount(1);  // two blocks, on purpose
    w.WriteLong(4 + i);
    w.WriteBlockCount(0);
  }
  if (i % 3 != 0) {                                          // data_file.key_metadata
    w.WriteUnionBranch(0);
  } else {
    w.WriteUnionBranch(1);
    const char km[3] = {static_cast<char>(i % 256), '\xff', '\x00'};
    w.WriteBytes(std::string_view(km, 3));
  }
  w.WriteBlockCount(i % 2 == 1 ? 2 : 1);                     // props
  w.WriteString("a");
  w.WriteString("x" + std::to_string(i));
  if (i % 2 == 1) {
    w.WriteString("b");
    w.WriteString("");
  }
  w.WriteBlockCount(0);
  w.WriteDouble(static_cast<double>(i) * 0.5);               // score
  w.WriteBoolean(i % 2 == 0);                                // flag
}

inline void ExpectJsonArray(const std::shared_ptr<arrow::Array>& actual, const std::string& json,
                            const std::string& what) {
  ASSERT_TRUE(actual) << what;
  auto expected = arrow::json::ArrayFromJSONString(actual->type(), json);
  ASSERT_TRUE(expected.ok()) << what << ": " << expected.status().ToString();
  EXPECT_TRUE(actual->Equals(**expected)) << what << "\n  got      " << actual->ToString().substr(0, 2000)
                                          << "\n  expected " << (*expected)->ToString().substr(0, 2000);
}

// Checks that `batch` holds rows [0, rows) of kManifestLikeSchema, column by column.
inline void ExpectManifestLikeBatch(const arrow::RecordBatch& batch, std::int64_t rows) {
  ASSERT_EQ(batch.num_rows(), rows);
  ASSERT_TRUE(batch.ValidateFull().ok());
  std::string status, snapshot, path, partition, count, sizes, offsets, props, score, flag;
  for (std::int64_t i = 0; i < rows; ++i) {
    const std::string sep = i == 0 ? "" : ",";
    const std::string n = std::to_string(i);
    status += sep + std::to_string(i % 3);
    snapshot += sep + (i % 5 == 0 ? std::string("null") : std::to_string(i * 1000 + 7));
    path += sep + "\"s3://bucket/data/file-" + n + ".parquet\"";
    partition += sep + (i % 4 == 0 ? std::string(R"({"day": null})") : R"({"day": )" + std::to_string(19000 + i % 30) + "}");
    count += sep + std::to_string(i * i);
    if (i % 6 == 0) {
      sizes += sep + "null";
    } else {
      sizes += sep + "[";
      for (std::int64_t k = 0; k < i % 3; ++k) {
        sizes += (k == 0 ? "" : ",") + std::string(R"({"key": )") + std::to_string(k + 1) + R"(, "value": )" +
                 std::to_string((k + 1) * i) + "}";
      }
      sizes += "]";
    }
    offsets += sep + (i % 2 == 1 ? std::string("null") : "[4, " + std::to_string(4 + i) + "]");
    props += sep + R"([["a", "x)" + n + "\"]" + (i % 2 == 1 ? R"(, ["b", ""])" : "") + "]";
    char buf[32];
    std::snprintf(buf, sizeof(buf), "%.17g", static_cast<double>(i) * 0.5);
    score += sep + buf;
    flag += sep + (i % 2 == 0 ? "true" : "false");
  }
  auto wrap = [](const std::string& s) { return "[" + s + "]"; };
  ExpectJsonArray(batch.GetColumnByName("status"), wrap(status), "status");
  ExpectJsonArray(batch.GetColumnByName("snapshot_id"), wrap(snapshot), "snapshot_id");
  auto data_file = std::dynamic_pointer_cast<arrow::StructArray>(batch.GetColumnByName("data_file"));
  ASSERT_TRUE(data_file);
  ExpectJsonArray(data_file->GetFieldByName("file_path"), wrap(path), "data_file.file_path");
  ExpectJsonArray(data_file->GetFieldByName("partition"), wrap(partition), "data_file.partition");
  ExpectJsonArray(data_file->GetFieldByName("record_count"), wrap(count), "data_file.record_count");
  ExpectJsonArray(data_file->GetFieldByName("column_sizes"), wrap(sizes), "data_file.column_sizes");
  ExpectJsonArray(data_file->GetFieldByName("split_offsets"), wrap(offsets), "data_file.split_offsets");
  auto key_metadata = std::dynamic_pointer_cast<arrow::BinaryArray>(data_file->GetFieldByName("key_metadata"));
  ASSERT_TRUE(key_metadata);
  for (std::int64_t i = 0; i < rows; ++i) {
    if (i % 3 != 0) {
      EXPECT_TRUE(key_metadata->IsNull(i)) << i;
    } else {
      const char km[3] = {static_cast<char>(i % 256), '\xff', '\x00'};
      EXPECT_EQ(key_metadata->GetView(i), std::string_view(km, 3)) << i;
    }
  }
  ExpectJsonArray(batch.GetColumnByName("props"), wrap(props), "props");
  ExpectJsonArray(batch.GetColumnByName("score"), wrap(score), "score");
  ExpectJsonArray(batch.GetColumnByName("flag"), wrap(flag), "flag");
}

// A whole container file of `rows` rows of kManifestLikeSchema, in memory.
inline std::string WriteManifestLikeFile(std::int64_t rows, ContainerWriterOptions options) {
  auto sink = arrow::io::BufferOutputStream::Create().ValueOrDie();
  auto writer = ContainerFileWriter::Open(sink, std::string(kManifestLikeSchema), std::move(options));
  EXPECT_TRUE(writer.ok()) << writer.status().ToString();
  if (!writer.ok()) return "";
  for (std::int64_t i = 0; i < rows; ++i) {
    WriteManifestLikeRow((*writer)->datum(), i);
    Status st = (*writer)->EndDatum();
    EXPECT_TRUE(st.ok()) << st.ToString();
  }
  Status st = (*writer)->Close();
  EXPECT_TRUE(st.ok()) << st.ToString();
  auto buffer = sink->Finish().ValueOrDie();
  return buffer->ToString();
}

// How often the sync marker occurs after the header: the number of blocks (a random
// 16-byte marker does not occur by chance in a small file).
inline int CountBlocks(std::string_view file, const SyncMarker& sync, std::int64_t header_size) {
  const std::string_view marker(reinterpret_cast<const char*>(sync.data()), sync.size());
  int n = 0;
  for (std::size_t at = file.find(marker, static_cast<std::size_t>(header_size)); at != std::string_view::npos;
       at = file.find(marker, at + 1)) {
    ++n;
  }
  return n;
}

// The test data directory (tests/data): ctest sets FLOE_TEST_DATA.
inline std::string TestDataDir() {
  const char* dir = std::getenv("FLOE_TEST_DATA");
  return dir == nullptr ? std::string() : std::string(dir);
}

inline std::string ReadTestFile(const std::string& relative) {
  const std::string dir = TestDataDir();
  EXPECT_FALSE(dir.empty()) << "FLOE_TEST_DATA is not set: point it at tests/data (ctest does)";
  std::ifstream in(dir + "/" + relative, std::ios::binary);
  EXPECT_TRUE(in.good()) << "cannot open " << dir << "/" << relative;
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

}  // namespace floe::avro::testing
