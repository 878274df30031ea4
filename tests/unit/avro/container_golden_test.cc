// Container files written by other implementations (fastavro, Apache Avro's Python
// library, pyiceberg's manifest writer): see tests/data/avro/README.md. The rows are
// row(i) of tests/data/avro/generate_golden.py, computed again here.
#include <arrow/api.h>
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "arrow_test_util.h"
#include "container_test_util.h"
#include "floe/avro/container_file.h"

namespace floe::avro {
namespace {

using testing::BinaryAt;
using testing::CountBlocks;
using testing::ExpectJsonArray;
using testing::ReadTestFile;

constexpr int kRows = 40;

struct Golden {
  const char* file;
  Codec codec;
};

const Golden kGolden[] = {
    {"fastavro_null.avro", Codec::kNull},           {"fastavro_deflate.avro", Codec::kDeflate},
    {"fastavro_snappy.avro", Codec::kSnappy},       {"fastavro_zstandard.avro", Codec::kZstandard},
    {"apache_avro_null.avro", Codec::kNull},        {"apache_avro_deflate.avro", Codec::kDeflate},
    {"apache_avro_zstandard.avro", Codec::kZstandard},
};

std::string Join(const std::vector<std::string>& items) {
  std::string out = "[";
  for (std::size_t i = 0; i < items.size(); ++i) out += (i == 0 ? "" : ", ") + items[i];
  return out + "]";
}

std::string Quote(const std::string& s) { return "\"" + s + "\""; }

std::string Number(double v) {
  char buf[32];
  std::snprintf(buf, sizeof(buf), "%.17g", v);
  return buf;
}

// Arrow JSON of each column, from the formulas of row(i) in generate_golden.py.
std::map<std::string, std::string> ExpectedColumns() {
  std::map<std::string, std::vector<std::string>> c;
  for (std::int64_t i = 0; i < kRows; ++i) {
    const std::string n = std::to_string(i);
    c["id"].push_back(std::to_string(i * 1000003 - 5000));
    c["name"].push_back(Quote("row-" + n + (i % 3 == 0 ? "-\xc3\xa9" : "")));
    c["flag"].push_back(i % 2 == 0 ? "true" : "false");
    c["small"].push_back(std::to_string(-(i * i)));
    c["ratio"].push_back(Number(static_cast<double>(i) * 0.25));
    c["score"].push_back(Number(static_cast<double>(i) * 0.5 - 3.25));
    c["kind"].push_back(Quote(std::string(1, "ABC"[i % 3])));
    c["note"].push_back(i % 4 == 0 ? "null" : Quote("note" + n));
    std::vector<std::string> tags;
    for (std::int64_t k = 0; k < i % 4; ++k) tags.push_back(Quote("t" + std::to_string(k)));
    c["tags"].push_back(Join(tags));
    std::vector<std::string> counts;
    for (std::int64_t k = 0; k < i % 3; ++k) counts.push_back("[\"k" + std::to_string(k) + "\", " + std::to_string(k * i) + "]");
    c["counts"].push_back(Join(counts));
    c["point"].push_back("{\"x\": " + n + ", \"y\": " + (i % 5 == 0 ? std::string("null") : Number(static_cast<double>(i) / 8)) + "}");
    c["partition"].push_back("{}");
    std::vector<std::string> kv;
    for (std::int64_t k = 0; k < i % 3; ++k) {
      kv.push_back("{\"key\": " + std::to_string(k) + ", \"value\": " + std::to_string(k * i - 1) + "}");
    }
    c["kv"].push_back(Join(kv));
    c["day"].push_back(std::to_string(19000 + i));
    c["tms"].push_back(std::to_string((i * 1000 + 7) * 1000));  // time-millis is stored in micros
    c["ts"].push_back(std::to_string(1700000000000000 + i * 1000001));
    const std::int64_t unscaled = i * 101 - 3000;
    const std::int64_t a = unscaled < 0 ? -unscaled : unscaled;
    char dec[40];
    std::snprintf(dec, sizeof(dec), "\"%s%lld.%02lld\"", unscaled < 0 ? "-" : "", static_cast<long long>(a / 100),
                  static_cast<long long>(a % 100));
    c["dec"].push_back(dec);
    if (i % 3 == 0) {
      c["choice"].push_back("null");
    } else if (i % 3 == 1) {
      c["choice"].push_back("{\"member0\": " + n + ", \"member1\": null}");
    } else {
      c["choice"].push_back("{\"member0\": null, \"member1\": \"s" + n + "\"}");
    }
    c["opt_point"].push_back(i % 2 ? std::string("null") : "{\"x\": " + std::to_string(-i) + ", \"y\": 1.5}");
  }
  std::map<std::string, std::string> out;
  for (const auto& [name, values] : c) out[name] = Join(values);
  return out;
}

TEST(AvroContainerGolden, FilesOfOtherImplementationsDecodeToTheirRows) {
  const auto expected = ExpectedColumns();
  for (const Golden& g : kGolden) {
    SCOPED_TRACE(g.file);
    const std::string bytes = ReadTestFile(std::string("avro/") + g.file);
    ASSERT_FALSE(bytes.empty());
    auto reader = ContainerFileReader::Open(bytes);
    ASSERT_TRUE(reader.ok()) << reader.status().ToString();
    auto& r = **reader;
    EXPECT_EQ(r.codec(), g.codec);
    EXPECT_EQ(r.metadata().at("floe.golden"), "yes");
    EXPECT_EQ(r.metadata().at("format-version"), "2");
    EXPECT_GE(CountBlocks(bytes, r.sync_marker(), r.header_size()), 4);  // several blocks
    // Iceberg's attributes survive the other writers and Floe's parser.
    const Node& root = *r.schema();
    EXPECT_EQ(root.full_name, "floe.golden.Golden");
    EXPECT_EQ(root.fields[0].attributes.at("field-id"), "1");
    EXPECT_EQ(root.fields[10].node->attributes.at("element-id"), "12");
    EXPECT_EQ(root.fields[11].node->attributes.at("key-id"), "14");
    EXPECT_EQ(root.fields[14].node->attributes.at("logicalType"), "\"map\"");
    EXPECT_EQ(root.fields[12].node->fields[1].attributes.at("field-id"), "18");

    auto batch = r.ReadAll();
    ASSERT_TRUE(batch.ok()) << batch.status().ToString();
    ASSERT_EQ((*batch)->num_rows(), kRows);
    ASSERT_TRUE((*batch)->ValidateFull().ok());
    int checked = 0;
    for (const auto& [name, json] : expected) {
      ExpectJsonArray((*batch)->GetColumnByName(name), json, name);
      ++checked;
    }
    auto payload = (*batch)->GetColumnByName("payload");
    auto hash = (*batch)->GetColumnByName("hash");
    ASSERT_TRUE(payload && hash);
    for (std::int64_t i = 0; i < kRows; ++i) {
      std::string p;
      for (std::int64_t k = 0; k < i % 4; ++k) {
        p.push_back(static_cast<char>(i % 256));
        p.push_back(static_cast<char>((i * 7) % 256));
      }
      EXPECT_EQ(BinaryAt(*payload, i), p) << i;
      const auto h = static_cast<std::uint32_t>((static_cast<std::uint64_t>(i) * 2654435761u) % (1ull << 32));
      const char hb[4] = {static_cast<char>(h >> 24), static_cast<char>(h >> 16), static_cast<char>(h >> 8),
                          static_cast<char>(h)};
      EXPECT_EQ(BinaryAt(*hash, i), std::string_view(hb, 4)) << i;
    }
    EXPECT_EQ(checked + 2, (*batch)->num_columns());  // every column is checked
  }
}

// Real Iceberg manifests, from pyiceberg's own Avro writer: what Floe's iceberg module
// reads. The unpartitioned one has an empty `partition` record.
TEST(AvroContainerGolden, PyicebergManifests) {
  for (const char* name : {"unpartitioned", "partitioned"}) {
    SCOPED_TRACE(name);
    const std::string bytes = ReadTestFile(std::string("avro/pyiceberg_manifest_") + name + ".avro");
    auto reader = ContainerFileReader::Open(bytes);
    ASSERT_TRUE(reader.ok()) << reader.status().ToString();
    auto& r = **reader;
    EXPECT_EQ(r.codec(), Codec::kDeflate);
    EXPECT_EQ(r.metadata().at("format-version"), "2");
    EXPECT_EQ(r.metadata().at("content"), "data");
    EXPECT_NE(r.metadata().at("schema").find("\"name\":\"day\""), std::string::npos);
    EXPECT_EQ(r.schema()->full_name, "manifest_entry");
    EXPECT_EQ(r.schema()->fields[4].attributes.at("field-id"), "2");  // data_file
    auto batch = r.ReadAll();
    ASSERT_TRUE(batch.ok()) << batch.status().ToString();
    ASSERT_TRUE((*batch)->ValidateFull().ok());
    ExpectJsonArray((*batch)->GetColumnByName("status"), "[1, 1, 1]", "status");
    ExpectJsonArray((*batch)->GetColumnByName("snapshot_id"), "[42, 42, 42]", "snapshot_id");
    ExpectJsonArray((*batch)->GetColumnByName("sequence_number"), "[null, null, null]", "sequence_number");
    auto data_file = std::dynamic_pointer_cast<arrow::StructArray>((*batch)->GetColumnByName("data_file"));
    ASSERT_TRUE(data_file);
    ExpectJsonArray(data_file->GetFieldByName("file_path"),
                    R"(["s3://bucket/t/data/f0.parquet", "s3://bucket/t/data/f1.parquet", "s3://bucket/t/data/f2.parquet"])",
                    "file_path");
    ExpectJsonArray(data_file->GetFieldByName("file_format"), R"(["PARQUET", "PARQUET", "PARQUET"])", "file_format");
    ExpectJsonArray(data_file->GetFieldByName("record_count"), "[100, 101, 102]", "record_count");
    ExpectJsonArray(data_file->GetFieldByName("column_sizes"),
                    R"([[{"key": 1, "value": 800}, {"key": 2, "value": 900}],
                        [{"key": 1, "value": 801}, {"key": 2, "value": 901}],
                        [{"key": 1, "value": 802}, {"key": 2, "value": 902}]])",
                    "column_sizes");
    ExpectJsonArray(data_file->GetFieldByName("split_offsets"), "[[4], [4], [4]]", "split_offsets");
    auto partition = data_file->GetFieldByName("partition");
    ASSERT_TRUE(partition);
    if (std::string(name) == "unpartitioned") {
      EXPECT_EQ(partition->type()->num_fields(), 0);
      EXPECT_EQ(partition->length(), 3);
    } else {
      ExpectJsonArray(partition, R"([{"day_day": 19000, "name": "n0"}, {"day_day": 19001, "name": "n1"},
                                     {"day_day": 19002, "name": "n2"}])",
                      "partition");
    }
    auto lower = std::dynamic_pointer_cast<arrow::ListArray>(data_file->GetFieldByName("lower_bounds"));
    ASSERT_TRUE(lower);
    auto entries = std::static_pointer_cast<arrow::StructArray>(lower->values());
    auto values = std::static_pointer_cast<arrow::BinaryArray>(entries->GetFieldByName("value"));
    ASSERT_EQ(values->length(), 3);
    EXPECT_EQ(values->GetView(2), std::string_view("\x02\0\0\0\0\0\0\0", 8));
  }
}

}  // namespace
}  // namespace floe::avro
