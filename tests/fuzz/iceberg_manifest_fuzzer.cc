// Fuzz target: Iceberg manifests and manifest lists (Avro container files written by Floe,
// Java or pyiceberg), decoded from memory by the readers Floe uses on tables it commits to.
// Every input is read both ways: as a manifest list, and as a manifest of the table schema
// and partition spec of tests/data/iceberg/manifests (README.md there), whose spec covers
// every transform and partition type.
#include <arrow/buffer.h>
#include <arrow/io/memory.h>

#include "floe/iceberg/manifest_internal.h"
#include "floe/schema/json.h"
#include "fuzz_check.h"

namespace floe::fuzz {
namespace {

constexpr std::string_view kSchema = R"json({"type": "struct", "schema-id": 0, "fields": [
  {"id": 1, "name": "b", "required": false, "type": "boolean"},
  {"id": 2, "name": "i", "required": false, "type": "int"},
  {"id": 3, "name": "l", "required": false, "type": "long"},
  {"id": 4, "name": "f", "required": false, "type": "float"},
  {"id": 5, "name": "d", "required": false, "type": "double"},
  {"id": 6, "name": "dt", "required": false, "type": "date"},
  {"id": 7, "name": "t", "required": false, "type": "time"},
  {"id": 8, "name": "ts", "required": false, "type": "timestamp"},
  {"id": 9, "name": "tstz", "required": false, "type": "timestamptz"},
  {"id": 10, "name": "s", "required": false, "type": "string"},
  {"id": 11, "name": "u", "required": false, "type": "uuid"},
  {"id": 12, "name": "fx", "required": false, "type": "fixed[4]"},
  {"id": 13, "name": "bin", "required": false, "type": "binary"},
  {"id": 14, "name": "dec", "required": false, "type": "decimal(9, 2)"},
  {"id": 15, "name": "dec_big", "required": false, "type": "decimal(20, 4)"}]})json";

constexpr std::string_view kSpec = R"({"spec-id": 3, "fields": [
  {"source-id": 1, "field-id": 1000, "name": "b", "transform": "identity"},
  {"source-id": 2, "field-id": 1001, "name": "i", "transform": "identity"},
  {"source-id": 3, "field-id": 1002, "name": "l", "transform": "identity"},
  {"source-id": 4, "field-id": 1003, "name": "f", "transform": "identity"},
  {"source-id": 5, "field-id": 1004, "name": "d", "transform": "identity"},
  {"source-id": 6, "field-id": 1005, "name": "dt", "transform": "identity"},
  {"source-id": 7, "field-id": 1006, "name": "t", "transform": "identity"},
  {"source-id": 8, "field-id": 1007, "name": "ts", "transform": "identity"},
  {"source-id": 9, "field-id": 1008, "name": "tstz", "transform": "identity"},
  {"source-id": 10, "field-id": 1009, "name": "s", "transform": "identity"},
  {"source-id": 11, "field-id": 1010, "name": "u", "transform": "identity"},
  {"source-id": 13, "field-id": 1011, "name": "bin", "transform": "identity"},
  {"source-id": 14, "field-id": 1012, "name": "dec", "transform": "identity"},
  {"source-id": 15, "field-id": 1013, "name": "dec_big", "transform": "identity"},
  {"source-id": 8, "field-id": 1014, "name": "ts_day", "transform": "day"},
  {"source-id": 9, "field-id": 1015, "name": "tstz_hour", "transform": "hour"},
  {"source-id": 3, "field-id": 1016, "name": "l_bucket", "transform": "bucket[8]"},
  {"source-id": 10, "field-id": 1017, "name": "s_trunc", "transform": "truncate[3]"},
  {"source-id": 6, "field-id": 1018, "name": "dt_month", "transform": "month"}]})";

struct Fixture {
  Fixture() {
    auto s = schema::SchemaFromJson(nlohmann::json::parse(kSchema));
    CheckOk(s.status(), "the fuzz table schema");
    schema = *s;
    auto p = schema::PartitionSpecFromJson(nlohmann::json::parse(kSpec));
    CheckOk(p.status(), "the fuzz partition spec");
    spec = *p;
  }
  schema::Schema schema;
  schema::PartitionSpec spec;
};

const Fixture& TheFixture() {
  static const Fixture* fixture = new Fixture();  // never destroyed: libFuzzer exits without unwinding
  return *fixture;
}

void CheckRefusal(const Status& status, std::string_view what) {
  const StatusCode code = status.code();
  Check(code == StatusCode::kInvalidArgument || code == StatusCode::kUnsupported || code == StatusCode::kIoError, what);
}

}  // namespace
}  // namespace floe::fuzz

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace floe;
  using namespace floe::fuzz;
  const Fixture& f = TheFixture();
  auto buffer = std::make_shared<arrow::Buffer>(data, static_cast<std::int64_t>(size));

  auto list = iceberg::ReadManifestList(std::make_shared<arrow::io::BufferReader>(buffer));
  if (!list.ok()) CheckRefusal(list.status(), "a bad manifest list is refused with a Status");

  iceberg::ManifestFile manifest;
  manifest.manifest_path = "memory://fuzz-manifest.avro";
  manifest.manifest_length = static_cast<std::int64_t>(size);
  manifest.partition_spec_id = f.spec.spec_id;
  manifest.sequence_number = 5;
  manifest.added_snapshot_id = 42;
  auto entries = iceberg::ReadManifest(manifest, std::make_shared<arrow::io::BufferReader>(buffer), f.schema, f.spec);
  if (!entries.ok()) {
    CheckRefusal(entries.status(), "a bad manifest is refused with a Status");
    return 0;
  }
  for (const auto& e : *entries) {
    Check(e.snapshot_id.has_value(), "an entry's snapshot id is set or inherited");
    Check(e.data_file.partition.size() == f.spec.fields.size(), "an entry has one partition value per spec field");
  }
  return 0;
}
