// Test tool for Avro container file interop (tests/integration/test_avro_container_interop.py):
//
//   floe_avro_container_tool schema                 the fixed schema, as JSON text
//   floe_avro_container_tool write --codec C --out F --rows N [--block-bytes B]
//                                                   N rows of that schema; row i's values
//                                                   are a function of i (WriteRow)
//   floe_avro_container_tool read F                 every row of any container file, as
//                                                   JSON lines (decoded with the file's
//                                                   own schema by ContainerFileReader::ReadAll)
//   floe_avro_container_tool header F               {"codec", "schema", "metadata"} as JSON
//
// Errors go to stderr, with exit status 1.
#include <arrow/api.h>
#include <arrow/io/file.h>
#include <CLI/CLI.hpp>
#include <nlohmann/json.hpp>

#include <cstdio>
#include <iostream>
#include <string>

#include "floe/avro/container_file.h"
#include "floe/core/arrow_interop.h"

namespace {

using floe::Result;
using floe::Status;
using floe::avro::BinaryWriter;
using Json = nlohmann::ordered_json;

// An Iceberg manifest entry, more or less, with Iceberg's id attributes, and a few more
// types (enum, fixed, float, decimal, timestamp, an empty record).
constexpr const char* kSchema = R"({"type": "record", "name": "manifest_entry", "namespace": "floe.interop", "fields": [
  {"name": "status", "type": "int", "field-id": 0},
  {"name": "snapshot_id", "type": ["null", "long"], "default": null, "field-id": 1},
  {"name": "sequence_number", "type": "long", "field-id": 3},
  {"name": "data_file", "field-id": 2, "type": {"type": "record", "name": "r2", "fields": [
    {"name": "file_path", "type": "string", "field-id": 100},
    {"name": "file_format", "type": {"type": "enum", "name": "FileFormat", "symbols": ["AVRO", "ORC", "PARQUET"]}, "field-id": 101},
    {"name": "partition", "field-id": 102, "type": {"type": "record", "name": "r102", "fields": [
      {"name": "day", "type": ["null", {"type": "int", "logicalType": "date"}], "default": null, "field-id": 1000},
      {"name": "bucket", "type": "int", "field-id": 1001}]}},
    {"name": "record_count", "type": "long", "field-id": 103},
    {"name": "file_size_in_bytes", "type": "long", "field-id": 104},
    {"name": "column_sizes", "field-id": 108, "default": null, "type": ["null", {"type": "array", "logicalType": "map",
      "items": {"type": "record", "name": "k117_v118", "fields": [
        {"name": "key", "type": "int", "field-id": 117}, {"name": "value", "type": "long", "field-id": 118}]}}]},
    {"name": "lower_bounds", "field-id": 125, "default": null, "type": ["null", {"type": "array", "logicalType": "map",
      "items": {"type": "record", "name": "k126_v127", "fields": [
        {"name": "key", "type": "int", "field-id": 126}, {"name": "value", "type": "bytes", "field-id": 127}]}}]},
    {"name": "split_offsets", "type": ["null", {"type": "array", "items": "long", "element-id": 133}], "default": null, "field-id": 132},
    {"name": "key_metadata", "type": ["null", "bytes"], "default": null, "field-id": 131},
    {"name": "sort_order_id", "type": ["null", "int"], "default": null, "field-id": 140},
    {"name": "checksum", "type": {"type": "fixed", "name": "Crc", "size": 4}, "field-id": 141},
    {"name": "ratio", "type": "float", "field-id": 142},
    {"name": "score", "type": "double", "field-id": 143},
    {"name": "created_at", "type": {"type": "long", "logicalType": "timestamp-micros"}, "field-id": 144},
    {"name": "amount", "type": {"type": "bytes", "logicalType": "decimal", "precision": 10, "scale": 2}, "field-id": 145}]}},
  {"name": "props", "type": {"type": "map", "values": "string", "key-id": 7, "value-id": 8}, "field-id": 6},
  {"name": "flag", "type": "boolean", "field-id": 9},
  {"name": "extra", "type": {"type": "record", "name": "r999", "fields": []}, "field-id": 10}]})";

// The shortest big-endian two's complement of v: an Avro decimal on bytes.
std::string DecimalBytes(std::int64_t v) {
  std::string out;
  for (int n = 1; n <= 8; ++n) {
    const std::int64_t lo = n == 8 ? INT64_MIN : -(std::int64_t{1} << (8 * n - 1));
    const std::int64_t hi = n == 8 ? INT64_MAX : (std::int64_t{1} << (8 * n - 1)) - 1;
    if (v >= lo && v <= hi) {
      for (int i = n - 1; i >= 0; --i) out.push_back(static_cast<char>(static_cast<std::uint64_t>(v) >> (8 * i)));
      return out;
    }
  }
  return out;
}

// Row i. The pytest computes the same values (expected_row).
void WriteRow(BinaryWriter& w, std::int64_t i) {
  auto optional_long = [&](bool null, std::int64_t v) {
    w.WriteUnionBranch(null ? 0 : 1);
    if (!null) w.WriteLong(v);
  };
  w.WriteInt(static_cast<std::int32_t>(i % 3));  // status
  optional_long(i % 5 == 0, i * 1000 + 7);       // snapshot_id
  w.WriteLong(i);                                // sequence_number
  char path[64];
  std::snprintf(path, sizeof(path), "s3://bucket/data/%05lld-\xc3\xa9.parquet", static_cast<long long>(i));
  w.WriteString(path);                           // file_path
  w.WriteEnum(static_cast<std::int32_t>(i % 3));  // file_format
  w.WriteUnionBranch(i % 4 == 0 ? 0 : 1);        // partition.day
  if (i % 4 != 0) w.WriteInt(static_cast<std::int32_t>(19000 + i % 30));
  w.WriteInt(static_cast<std::int32_t>(i % 16));  // partition.bucket
  w.WriteLong(i * i * 1000);                     // record_count
  w.WriteLong(4096 + i);                         // file_size_in_bytes
  if (i % 6 == 0) {                              // column_sizes
    w.WriteUnionBranch(0);
  } else {
    w.WriteUnionBranch(1);
    if (i % 3 != 0) {
      w.WriteBlockCount(i % 3);
      for (std::int64_t k = 0; k < i % 3; ++k) {
        w.WriteInt(static_cast<std::int32_t>(k + 1));
        w.WriteLong((k + 1) * i);
      }
    }
    w.WriteBlockCount(0);
  }
  w.WriteUnionBranch(1);                         // lower_bounds: {1: i as 8 bytes little-endian}
  w.WriteBlockCount(1);
  w.WriteInt(1);
  std::string le(8, '\0');
  for (int b = 0; b < 8; ++b) le[static_cast<std::size_t>(b)] = static_cast<char>(static_cast<std::uint64_t>(i) >> (8 * b));
  w.WriteBytes(le);
  w.WriteBlockCount(0);
  if (i % 2 == 1) {                              // split_offsets
    w.WriteUnionBranch(0);
  } else {
    w.WriteUnionBranch(1);
    w.WriteBlockCount(2);
    w.WriteLong(4);
    w.WriteLong(4 + i);
    w.WriteBlockCount(0);
  }
  if (i % 7 != 0) {                              // key_metadata
    w.WriteUnionBranch(0);
  } else {
    w.WriteUnionBranch(1);
    const char km[3] = {static_cast<char>(i % 256), '\xff', '\x00'};
    w.WriteBytes(std::string_view(km, 3));
  }
  w.WriteUnionBranch(1);                         // sort_order_id
  w.WriteInt(0);
  const auto crc = static_cast<std::uint32_t>((static_cast<std::uint64_t>(i) * 2654435761u) & 0xffffffffu);
  const char cb[4] = {static_cast<char>(crc >> 24), static_cast<char>(crc >> 16), static_cast<char>(crc >> 8),
                      static_cast<char>(crc)};
  w.WriteFixed(std::string_view(cb, 4));         // checksum
  w.WriteFloat(static_cast<float>(i) * 0.25f);   // ratio
  w.WriteDouble(static_cast<double>(i) / 3.0);   // score
  w.WriteLong(1700000000000000 + i * 1000003);   // created_at
  w.WriteBytes(DecimalBytes(i * 12345 - 500000));  // amount
  w.WriteBlockCount(i % 2 == 1 ? 3 : 2);         // props
  w.WriteString("writer");
  w.WriteString("floe");
  w.WriteString("row");
  w.WriteString(std::to_string(i));
  if (i % 2 == 1) {
    w.WriteString("odd");
    w.WriteString("");
  }
  w.WriteBlockCount(0);
  w.WriteBoolean(i % 2 == 0);                    // flag
  // extra: an empty record, no bytes
}

Status Write(const std::string& codec_name, const std::string& out, std::int64_t rows, std::size_t block_bytes) {
  FLOE_ASSIGN_OR_RETURN(auto codec, floe::avro::CodecFromName(codec_name));
  FLOE_ASSIGN_OR_RETURN_ARROW(auto sink, arrow::io::FileOutputStream::Open(out));
  floe::avro::ContainerWriterOptions options;
  options.codec = codec;
  options.block_bytes = block_bytes;
  options.validate_datums = true;
  options.metadata = {{"format-version", "2"}, {"content", "data"}, {"partition-spec-id", "0"},
                      {"schema", R"({"type":"struct","schema-id":0,"fields":[]})"}};
  FLOE_ASSIGN_OR_RETURN(auto writer, floe::avro::ContainerFileWriter::Open(sink, kSchema, options));
  for (std::int64_t i = 0; i < rows; ++i) {
    WriteRow(writer->datum(), i);
    FLOE_RETURN_IF_ERROR(writer->EndDatum());
  }
  return writer->Close();
}

std::string Hex(std::string_view bytes) {
  static const char* kDigits = "0123456789abcdef";
  std::string out;
  for (unsigned char c : bytes) {
    out.push_back(kDigits[c >> 4]);
    out.push_back(kDigits[c & 15]);
  }
  return out;
}

// One Arrow value as JSON: binary as hex, decimals as strings, dates/times/timestamps as
// their integer value, maps as objects.
Result<Json> ToJson(const arrow::Array& a, std::int64_t i) {
  if (a.IsNull(i)) return Json(nullptr);
  switch (a.type_id()) {
    case arrow::Type::BOOL: return Json(static_cast<const arrow::BooleanArray&>(a).Value(i));
    case arrow::Type::INT32: return Json(static_cast<const arrow::Int32Array&>(a).Value(i));
    case arrow::Type::INT64: return Json(static_cast<const arrow::Int64Array&>(a).Value(i));
    case arrow::Type::FLOAT: return Json(static_cast<double>(static_cast<const arrow::FloatArray&>(a).Value(i)));
    case arrow::Type::DOUBLE: return Json(static_cast<const arrow::DoubleArray&>(a).Value(i));
    case arrow::Type::DATE32: return Json(static_cast<const arrow::Date32Array&>(a).Value(i));
    case arrow::Type::TIME64: return Json(static_cast<const arrow::Time64Array&>(a).Value(i));
    case arrow::Type::TIMESTAMP: return Json(static_cast<const arrow::TimestampArray&>(a).Value(i));
    case arrow::Type::STRING: return Json(std::string(static_cast<const arrow::StringArray&>(a).GetView(i)));
    case arrow::Type::BINARY: return Json(Hex(static_cast<const arrow::BinaryArray&>(a).GetView(i)));
    case arrow::Type::FIXED_SIZE_BINARY: return Json(Hex(static_cast<const arrow::FixedSizeBinaryArray&>(a).GetView(i)));
    case arrow::Type::DECIMAL128: return Json(static_cast<const arrow::Decimal128Array&>(a).FormatValue(i));
    case arrow::Type::STRUCT: {
      const auto& s = static_cast<const arrow::StructArray&>(a);
      Json out = Json::object();
      for (int f = 0; f < s.num_fields(); ++f) {
        FLOE_ASSIGN_OR_RETURN(out[s.type()->field(f)->name()], ToJson(*s.field(f), i));
      }
      return out;
    }
    case arrow::Type::LIST: {
      const auto& l = static_cast<const arrow::ListArray&>(a);
      Json out = Json::array();
      for (std::int64_t k = l.value_offset(i); k < l.value_offset(i + 1); ++k) {
        FLOE_ASSIGN_OR_RETURN(auto v, ToJson(*l.values(), k));
        out.push_back(std::move(v));
      }
      return out;
    }
    case arrow::Type::MAP: {
      const auto& m = static_cast<const arrow::MapArray&>(a);
      const auto& keys = static_cast<const arrow::StringArray&>(*m.keys());
      Json out = Json::object();
      for (std::int64_t k = m.value_offset(i); k < m.value_offset(i + 1); ++k) {
        FLOE_ASSIGN_OR_RETURN(out[std::string(keys.GetView(k))], ToJson(*m.items(), k));
      }
      return out;
    }
    default: return Status::Unsupported("no JSON form for Arrow type " + a.type()->ToString());
  }
}

Result<std::unique_ptr<floe::avro::ContainerFileReader>> OpenFile(const std::string& path) {
  FLOE_ASSIGN_OR_RETURN_ARROW(auto file, arrow::io::ReadableFile::Open(path));
  auto reader = floe::avro::ContainerFileReader::Open(file);
  if (!reader.ok()) return reader.status().WithContext(path);
  return reader;
}

Status Read(const std::string& path) {
  FLOE_ASSIGN_OR_RETURN(auto reader, OpenFile(path));
  auto batch = reader->ReadAll();
  if (!batch.ok()) return batch.status().WithContext(path);
  for (std::int64_t i = 0; i < (*batch)->num_rows(); ++i) {
    Json row = Json::object();
    for (int c = 0; c < (*batch)->num_columns(); ++c) {
      FLOE_ASSIGN_OR_RETURN(row[(*batch)->schema()->field(c)->name()], ToJson(*(*batch)->column(c), i));
    }
    std::cout << row.dump() << "\n";
  }
  return Status::OK();
}

Status Header(const std::string& path) {
  FLOE_ASSIGN_OR_RETURN(auto reader, OpenFile(path));
  Json out = Json::object();
  out["codec"] = std::string(floe::avro::CodecName(reader->codec()));
  out["schema"] = reader->schema_json();
  Json meta = Json::object();
  for (const auto& [k, v] : reader->metadata()) meta[k] = v;
  out["metadata"] = std::move(meta);
  std::cout << out.dump() << "\n";
  return Status::OK();
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"Write and read Avro object container files with Floe (interop tests)"};
  app.require_subcommand(1);
  auto* schema = app.add_subcommand("schema", "print the schema that `write` uses");
  auto* write = app.add_subcommand("write", "write rows of the fixed schema");
  std::string codec = "null";
  std::string out;
  std::int64_t rows = 100;
  std::size_t block_bytes = 64 * 1024;
  write->add_option("--codec", codec, "null, deflate, snappy or zstandard");
  write->add_option("--out", out)->required();
  write->add_option("--rows", rows);
  write->add_option("--block-bytes", block_bytes);
  std::string path;
  auto* read = app.add_subcommand("read", "print every row of a container file as JSON lines");
  read->add_option("file", path)->required();
  auto* header = app.add_subcommand("header", "print the codec, schema and metadata of a container file");
  header->add_option("file", path)->required();
  CLI11_PARSE(app, argc, argv);

  Status st;
  if (schema->parsed()) {
    std::cout << kSchema << "\n";
  } else if (write->parsed()) {
    st = Write(codec, out, rows, block_bytes);
  } else if (read->parsed()) {
    st = Read(path);
  } else if (header->parsed()) {
    st = Header(path);
  }
  if (!st.ok()) {
    std::cerr << st.ToString() << "\n";
    return 1;
  }
  return 0;
}
