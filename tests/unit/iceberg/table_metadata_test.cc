// Table metadata parsing and writing, against files written by pyiceberg 0.12.0 (see
// tests/data/iceberg/README.md) and hand-written v1 / v3 files.
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <set>
#include <string>

#include "floe/core/uuid.h"
#include "floe/iceberg/table_metadata.h"
#include "floe/iceberg/table_metadata_json.h"
#include "floe/schema/json.h"
#include "iceberg_test_util.h"

namespace floe::iceberg {
namespace {

using nlohmann::json;
using testing::MetadataFiles;
using testing::ParseDataFile;
using testing::ReadDataFile;

TEST(IcebergTableMetadata, DataFilesArePresent) {
  auto files = MetadataFiles();
  EXPECT_GE(files.size(), 10u) << "test data dir: " << testing::DataDir();
}

TEST(IcebergTableMetadata, ParsesPyicebergFinalVersion) {
  const std::string text = ReadDataFile("pyiceberg-00007.metadata.json");
  const json raw = json::parse(text);
  TableMetadata m = ParseDataFile("pyiceberg-00007.metadata.json");

  EXPECT_EQ(m.format_version, 2);
  EXPECT_EQ(m.table_uuid, raw["table-uuid"].get<std::string>());
  EXPECT_EQ(m.location, raw["location"].get<std::string>());
  EXPECT_EQ(m.last_sequence_number, 3);
  EXPECT_EQ(m.last_updated_ms, raw["last-updated-ms"].get<std::int64_t>());
  EXPECT_EQ(m.last_column_id, 13);

  // Schemas: the int -> long promotion and the added column.
  ASSERT_EQ(m.schemas.size(), 2u);
  EXPECT_EQ(m.current_schema_id, 1);
  ASSERT_NE(m.CurrentSchema(), nullptr);
  EXPECT_EQ(m.CurrentSchema()->schema_id, 1);
  const schema::Schema* v0 = m.SchemaById(0);
  ASSERT_NE(v0, nullptr);
  ASSERT_NE(v0->FindByName("qty"), nullptr);
  EXPECT_EQ(v0->FindByName("qty")->type->id(), schema::TypeId::kInt);
  EXPECT_EQ(m.CurrentSchema()->FindByName("qty")->type->id(), schema::TypeId::kLong);
  ASSERT_NE(m.CurrentSchema()->FindByName("note"), nullptr);
  EXPECT_EQ(m.CurrentSchema()->FindByName("note")->doc, "free text");
  EXPECT_EQ(m.CurrentSchema()->identifier_field_ids, std::vector<int>{1});
  EXPECT_EQ(m.SchemaById(7), nullptr);

  // Specs.
  ASSERT_EQ(m.partition_specs.size(), 2u);
  EXPECT_EQ(m.default_spec_id, 1);
  EXPECT_EQ(m.last_partition_id, 1002);
  const schema::PartitionSpec* spec = m.SpecById(1);
  ASSERT_NE(spec, nullptr);
  ASSERT_EQ(spec->fields.size(), 3u);
  EXPECT_EQ(spec->fields[2].name, "id_bucket");
  EXPECT_EQ(spec->fields[2].transform.kind, schema::TransformKind::kBucket);
  EXPECT_EQ(spec->fields[2].transform.param, 4);
  EXPECT_EQ(m.DefaultSpec(), spec);
  EXPECT_EQ(m.SpecById(5), nullptr);

  // Sort order.
  EXPECT_EQ(m.default_sort_order_id, 1);
  ASSERT_NE(m.DefaultSortOrder(), nullptr);
  ASSERT_EQ(m.DefaultSortOrder()->fields.size(), 2u);
  EXPECT_EQ(m.DefaultSortOrder()->fields[1].direction, schema::SortDirection::kDesc);
  EXPECT_EQ(m.DefaultSortOrder()->fields[1].null_order, schema::NullOrder::kNullsLast);

  // Properties.
  EXPECT_EQ(m.Property("owner"), "floe-tests");
  EXPECT_EQ(m.Property("floe.topic"), "orders");
  EXPECT_EQ(m.Property("missing"), std::nullopt);

  // Snapshots, with Floe's offsets in the summary.
  ASSERT_EQ(m.snapshots.size(), 3u);
  const std::int64_t current = raw["current-snapshot-id"].get<std::int64_t>();
  EXPECT_EQ(m.current_snapshot_id, current);
  ASSERT_NE(m.CurrentSnapshot(), nullptr);
  const Snapshot& head = *m.CurrentSnapshot();
  EXPECT_EQ(head.snapshot_id, current);
  EXPECT_EQ(head.sequence_number, 3);
  EXPECT_EQ(head.schema_id, 1);
  EXPECT_EQ(head.parent_snapshot_id, m.snapshots[1].snapshot_id);
  EXPECT_EQ(head.operation(), "append");
  EXPECT_EQ(head.SummaryValue(kSummaryFloeOffsets), R"({"orders":{"0":6}})");
  EXPECT_EQ(head.SummaryValue(kSummaryFloeCommitId), "c-0003");
  EXPECT_EQ(head.SummaryValue("total-records"), "6");
  EXPECT_FALSE(m.snapshots[0].parent_snapshot_id.has_value());
  EXPECT_TRUE(head.manifest_list.ends_with(".avro"));
  EXPECT_EQ(m.SnapshotById(m.snapshots[0].snapshot_id), &m.snapshots[0]);
  EXPECT_EQ(m.SnapshotById(12345), nullptr);
  EXPECT_EQ(m.NextSequenceNumber(), 4);

  // Refs.
  EXPECT_EQ(m.RefSnapshotId("main"), current);
  EXPECT_EQ(m.RefSnapshotId("first"), m.snapshots[0].snapshot_id);
  EXPECT_EQ(m.RefSnapshotId("nope"), std::nullopt);
  ASSERT_NE(m.Ref("first"), nullptr);
  EXPECT_EQ(m.Ref("first")->type, SnapshotRefType::kTag);
  const SnapshotRef* audit = m.Ref("audit");
  ASSERT_NE(audit, nullptr);
  EXPECT_EQ(audit->type, SnapshotRefType::kBranch);
  EXPECT_EQ(audit->min_snapshots_to_keep, 2);
  EXPECT_EQ(audit->max_snapshot_age_ms, 86400000);
  EXPECT_EQ(audit->max_ref_age_ms, 604800000);

  // Logs.
  ASSERT_EQ(m.snapshot_log.size(), 3u);
  EXPECT_EQ(m.snapshot_log.back().snapshot_id, current);
  ASSERT_EQ(m.metadata_log.size(), 7u);
  EXPECT_TRUE(m.metadata_log.front().metadata_file.ends_with(".metadata.json"));
  EXPECT_TRUE(m.statistics.empty());
  EXPECT_TRUE(m.partition_statistics.empty());
  EXPECT_FALSE(m.next_row_id.has_value());
}

TEST(IcebergTableMetadata, ParsesPyicebergNewTableWithoutSnapshots) {
  TableMetadata m = ParseDataFile("pyiceberg-00000.metadata.json");
  EXPECT_FALSE(m.current_snapshot_id.has_value());
  EXPECT_EQ(m.CurrentSnapshot(), nullptr);
  EXPECT_EQ(m.RefSnapshotId("main"), std::nullopt);
  EXPECT_TRUE(m.refs.empty());
  EXPECT_EQ(m.last_sequence_number, 0);
  EXPECT_EQ(m.last_column_id, 12);
  EXPECT_EQ(m.last_partition_id, 1000);
  // Nested types with their own field ids.
  const schema::Schema* s = m.CurrentSchema();
  ASSERT_NE(s, nullptr);
  const schema::NestedField* loc = s->FindByName("location");
  ASSERT_NE(loc, nullptr);
  EXPECT_EQ(loc->type->id(), schema::TypeId::kStruct);
  const schema::NestedField* attrs = s->FindByName("attrs");
  ASSERT_NE(attrs, nullptr);
  ASSERT_EQ(attrs->type->id(), schema::TypeId::kMap);
  EXPECT_EQ(attrs->type->key().id, 11);
  EXPECT_EQ(attrs->type->value().id, 12);
  EXPECT_EQ(s->HighestFieldId(), 12);
}

// parse -> serialize -> parse gives equal metadata, and serializing is a fixpoint.
TEST(IcebergTableMetadata, RoundTripsEveryDataFile) {
  for (const std::string& name : MetadataFiles()) {
    SCOPED_TRACE(name);
    auto first = ParseTableMetadata(ReadDataFile(name));
    ASSERT_TRUE(first.ok()) << first.status().ToString();
    std::string text = SerializeTableMetadata(*first);
    auto second = ParseTableMetadata(text);
    ASSERT_TRUE(second.ok()) << second.status().ToString() << "\n" << text;
    EXPECT_TRUE(*first == *second) << text;
    EXPECT_EQ(SerializeTableMetadata(*second), text);
  }
}

// What Floe writes says the same as what pyiceberg wrote, key by key (modulo the
// representation of "no current snapshot", which Floe writes as -1).
TEST(IcebergTableMetadata, SerializationMatchesPyicebergSemantically) {
  for (const std::string& name : MetadataFiles()) {
    if (!name.starts_with("pyiceberg-")) continue;
    SCOPED_TRACE(name);
    json original = json::parse(ReadDataFile(name));
    auto m = ParseTableMetadata(original.dump());
    ASSERT_TRUE(m.ok()) << m.status().ToString();
    json ours = json::parse(SerializeTableMetadata(*m));
    if (!original.contains("current-snapshot-id")) {
      EXPECT_EQ(ours["current-snapshot-id"], -1);
      ours.erase("current-snapshot-id");
    }
    for (auto it = original.begin(); it != original.end(); ++it) {
      EXPECT_EQ(ours[it.key()], it.value()) << "key " << it.key();
    }
    for (auto it = ours.begin(); it != ours.end(); ++it) {
      EXPECT_TRUE(original.contains(it.key())) << "Floe wrote an extra key " << it.key();
    }
  }
}

TEST(IcebergTableMetadata, FloeOffsetsInSummarySurviveRoundTrip) {
  TableMetadata m = ParseDataFile("pyiceberg-00002.metadata.json");
  ASSERT_NE(m.CurrentSnapshot(), nullptr);
  // Replace the summary's offsets with awkward JSON text (quotes, escapes, unicode).
  const std::string offsets = R"({"orders":{"0":1234567890123,"17":5},"päyments\"x":{"3":0}})";
  for (auto& s : m.snapshots) {
    if (s.snapshot_id == *m.current_snapshot_id) {
      s.summary[std::string(kSummaryFloeOffsets)] = offsets;
      s.summary[std::string(kSummaryFloeCommitId)] = "worker-3/42";
    }
  }
  auto back = ParseTableMetadata(SerializeTableMetadata(m));
  ASSERT_TRUE(back.ok()) << back.status().ToString();
  EXPECT_EQ(back->CurrentSnapshot()->SummaryValue(kSummaryFloeOffsets), offsets);
  EXPECT_EQ(back->CurrentSnapshot()->SummaryValue(kSummaryFloeCommitId), "worker-3/42");
  // The older snapshot keeps what pyiceberg wrote.
  EXPECT_EQ(back->snapshots[0].SummaryValue(kSummaryFloeOffsets), R"({"orders":{"0":2}})");
  EXPECT_TRUE(*back == m);
  // And the value is a JSON string inside the summary object, as the spec's string map requires.
  json j = json::parse(SerializeTableMetadata(m));
  bool found = false;
  for (const auto& s : j["snapshots"]) {
    if (s["summary"].contains("floe.offsets") && s["summary"]["floe.offsets"] == offsets) found = true;
  }
  EXPECT_TRUE(found);
}

TEST(IcebergTableMetadata, ParsesV1) {
  TableMetadata m = ParseDataFile("v1-handwritten.metadata.json");
  EXPECT_EQ(m.format_version, 1);
  EXPECT_EQ(m.table_uuid, "d20125c8-7284-442c-9aea-15fee620737c");
  EXPECT_EQ(m.last_sequence_number, 0);
  // "schema" becomes the only schema, id 0.
  ASSERT_EQ(m.schemas.size(), 1u);
  EXPECT_EQ(m.current_schema_id, 0);
  ASSERT_NE(m.CurrentSchema(), nullptr);
  EXPECT_EQ(m.CurrentSchema()->fields.size(), 3u);
  EXPECT_EQ(m.CurrentSchema()->fields[1].doc, "comment");
  // "partition-spec" becomes spec 0; the field without field-id gets 1001.
  ASSERT_EQ(m.partition_specs.size(), 1u);
  EXPECT_EQ(m.default_spec_id, 0);
  ASSERT_EQ(m.DefaultSpec()->fields.size(), 2u);
  EXPECT_EQ(m.DefaultSpec()->fields[0].field_id, 1000);
  EXPECT_EQ(m.DefaultSpec()->fields[1].field_id, 1001);
  EXPECT_EQ(m.DefaultSpec()->fields[1].transform.kind, schema::TransformKind::kTruncate);
  EXPECT_EQ(m.last_partition_id, 1001);
  // No sort orders: unsorted.
  ASSERT_EQ(m.sort_orders.size(), 1u);
  EXPECT_EQ(m.default_sort_order_id, 0);
  EXPECT_TRUE(m.DefaultSortOrder()->fields.empty());
  // No refs: main follows current-snapshot-id.
  ASSERT_NE(m.Ref("main"), nullptr);
  EXPECT_EQ(m.Ref("main")->snapshot_id, 3055729675574597004);
  EXPECT_EQ(m.RefSnapshotId("main"), 3055729675574597004);
  // Snapshots: legacy manifests list, no sequence numbers.
  ASSERT_EQ(m.snapshots.size(), 2u);
  EXPECT_TRUE(m.snapshots[0].manifest_list.empty());
  ASSERT_EQ(m.snapshots[0].v1_manifests.size(), 1u);
  EXPECT_TRUE(m.snapshots[0].summary.empty());
  EXPECT_EQ(m.snapshots[0].sequence_number, 0);
  EXPECT_EQ(m.snapshots[1].operation(), "append");
  EXPECT_EQ(m.NextSequenceNumber(), 0);
  // A numeric property value is kept as its text.
  EXPECT_EQ(m.Property("commit.retry.num-retries"), "5");
}

TEST(IcebergTableMetadata, WritesV1WithSingularForms) {
  TableMetadata m = ParseDataFile("v1-handwritten.metadata.json");
  json j = json::parse(SerializeTableMetadata(m));
  EXPECT_EQ(j["format-version"], 1);
  EXPECT_FALSE(j.contains("last-sequence-number"));
  ASSERT_TRUE(j.contains("schema"));
  EXPECT_EQ(j["schema"], j["schemas"][0]);
  ASSERT_TRUE(j.contains("partition-spec"));
  EXPECT_EQ(j["partition-spec"], j["partition-specs"][0]["fields"]);
  for (const auto& s : j["snapshots"]) EXPECT_FALSE(s.contains("sequence-number"));
  EXPECT_TRUE(j["snapshots"][0].contains("manifests"));
  EXPECT_FALSE(j["snapshots"][0].contains("summary"));
  EXPECT_FALSE(j.contains("a-key-from-the-future"));
}

TEST(IcebergTableMetadata, ParsesV3) {
  TableMetadata m = ParseDataFile("v3-handwritten.metadata.json");
  EXPECT_EQ(m.format_version, 3);
  EXPECT_EQ(m.next_row_id, 150);
  ASSERT_EQ(m.snapshots.size(), 2u);
  EXPECT_EQ(m.snapshots[0].first_row_id, 0);
  EXPECT_EQ(m.snapshots[0].added_rows, 100);
  EXPECT_EQ(m.snapshots[1].first_row_id, 100);
  EXPECT_EQ(m.snapshots[1].added_rows, 50);
  EXPECT_EQ(m.snapshots[1].key_id, 7);
  EXPECT_EQ(m.CurrentSnapshot()->SummaryValue(kSummaryFloeOffsets), R"({"orders":{"0":150,"1":7}})");
  EXPECT_EQ(m.CurrentSchema()->FindByName("at")->type->id(), schema::TypeId::kTimestampNs);
  ASSERT_EQ(m.statistics.size(), 1u);
  EXPECT_EQ(m.statistics[0].snapshot_id, 2);
  ASSERT_EQ(m.partition_statistics.size(), 1u);

  // Statistics come back exactly as read.
  json original = json::parse(ReadDataFile("v3-handwritten.metadata.json"));
  json ours = json::parse(SerializeTableMetadata(m));
  EXPECT_EQ(ours["statistics"], original["statistics"]);
  EXPECT_EQ(ours["partition-statistics"], original["partition-statistics"]);
  EXPECT_EQ(ours["next-row-id"], 150);
  EXPECT_EQ(ours["snapshots"][1]["first-row-id"], 100);
  EXPECT_EQ(ours["snapshots"][1]["added-rows"], 50);
  EXPECT_EQ(ours["snapshots"][1]["key-id"], 7);
  EXPECT_FALSE(ours.contains("encryption-keys"));
}

// --- Errors -----------------------------------------------------------------------------

json MinimalV2() {
  return json::parse(R"({
    "format-version": 2, "table-uuid": "9c12d441-03fe-4693-9a96-a0705ddf69c1", "location": "s3://b/t",
    "last-sequence-number": 1, "last-updated-ms": 1, "last-column-id": 1,
    "schemas": [{"type": "struct", "schema-id": 0, "fields": [{"id": 1, "name": "a", "required": true, "type": "long"}]}],
    "current-schema-id": 0,
    "partition-specs": [{"spec-id": 0, "fields": []}], "default-spec-id": 0, "last-partition-id": 999,
    "sort-orders": [{"order-id": 0, "fields": []}], "default-sort-order-id": 0,
    "current-snapshot-id": 5,
    "snapshots": [{"snapshot-id": 5, "sequence-number": 1, "timestamp-ms": 1, "manifest-list": "s3://b/t/m.avro",
                   "summary": {"operation": "append"}}],
    "refs": {"main": {"snapshot-id": 5, "type": "branch"}}
  })");
}

Status ParseStatus(const json& j) { return ParseTableMetadata(j.dump()).status(); }

TEST(IcebergTableMetadata, MinimalV2Parses) {
  auto m = ParseTableMetadata(MinimalV2().dump());
  ASSERT_TRUE(m.ok()) << m.status().ToString();
  EXPECT_TRUE(m->properties.empty());
  EXPECT_TRUE(m->snapshot_log.empty());
}

TEST(IcebergTableMetadata, MissingRequiredKeysAreNamed) {
  for (const char* key : {"format-version", "table-uuid", "location", "last-sequence-number", "last-updated-ms",
                          "last-column-id", "schemas", "current-schema-id", "partition-specs", "default-spec-id",
                          "last-partition-id", "sort-orders", "default-sort-order-id"}) {
    SCOPED_TRACE(key);
    json j = MinimalV2();
    j.erase(key);
    Status st = ParseStatus(j);
    EXPECT_EQ(st.code(), StatusCode::kInvalidArgument);
    EXPECT_NE(st.message().find(std::string("'") + key + "'"), std::string::npos) << st.message();
    EXPECT_NE(st.message().find("table metadata"), std::string::npos) << st.message();
  }
}

TEST(IcebergTableMetadata, InvalidValuesAreNamedWithTheirPath) {
  json j = MinimalV2();
  j["snapshots"][0].erase("timestamp-ms");
  Status st = ParseStatus(j);
  EXPECT_EQ(st.code(), StatusCode::kInvalidArgument);
  EXPECT_NE(st.message().find("snapshots[0]"), std::string::npos) << st.message();
  EXPECT_NE(st.message().find("'timestamp-ms'"), std::string::npos) << st.message();

  j = MinimalV2();
  j["last-column-id"] = "one";
  st = ParseStatus(j);
  EXPECT_NE(st.message().find("'last-column-id' must be an integer, got string"), std::string::npos) << st.message();

  j = MinimalV2();
  j["last-updated-ms"] = 1.5;
  EXPECT_NE(ParseStatus(j).message().find("'last-updated-ms'"), std::string::npos);

  j = MinimalV2();
  j["last-column-id"] = 5000000000;
  EXPECT_NE(ParseStatus(j).message().find("32-bit"), std::string::npos);

  j = MinimalV2();
  j["snapshots"][0]["summary"].erase("operation");
  st = ParseStatus(j);
  EXPECT_NE(st.message().find("'operation'"), std::string::npos) << st.message();

  j = MinimalV2();
  j["snapshots"][0].erase("manifest-list");
  EXPECT_NE(ParseStatus(j).message().find("'manifest-list'"), std::string::npos);

  j = MinimalV2();
  j["properties"] = {{"a", {1, 2}}};
  EXPECT_NE(ParseStatus(j).message().find("'properties.a'"), std::string::npos);

  j = MinimalV2();
  j["refs"]["main"]["type"] = "twig";
  st = ParseStatus(j);
  EXPECT_NE(st.message().find("refs.main"), std::string::npos) << st.message();

  j = MinimalV2();
  j["refs"]["t"] = {{"snapshot-id", 5}, {"type", "tag"}, {"min-snapshots-to-keep", 1}};
  EXPECT_NE(ParseStatus(j).message().find("branch-only"), std::string::npos);

  j = MinimalV2();
  j["schemas"] = json::array({json::object()});
  st = ParseStatus(j);
  EXPECT_EQ(st.code(), StatusCode::kInvalidArgument);
  EXPECT_NE(st.message().find("schemas[0]"), std::string::npos) << st.message();
}

TEST(IcebergTableMetadata, BrokenCrossReferencesAreRejected) {
  struct Case {
    const char* what;
    void (*edit)(json&);
    const char* expected;
  };
  const Case cases[] = {
      {"current schema", [](json& j) { j["current-schema-id"] = 3; }, "current-schema-id 3"},
      {"default spec", [](json& j) { j["default-spec-id"] = 3; }, "default-spec-id 3"},
      {"default order", [](json& j) { j["default-sort-order-id"] = 3; }, "default-sort-order-id 3"},
      {"current snapshot", [](json& j) { j["current-snapshot-id"] = 6; j.erase("refs"); }, "current-snapshot-id 6"},
      {"main mismatch",
       [](json& j) {
         j["snapshots"].push_back({{"snapshot-id", 6}, {"sequence-number", 1}, {"timestamp-ms", 1},
                                   {"manifest-list", "x"}, {"summary", {{"operation", "append"}}}});
         j["current-snapshot-id"] = 6;
       },
       "does not match refs.main"},
      {"dangling ref", [](json& j) { j["refs"]["b"] = {{"snapshot-id", 9}, {"type", "branch"}}; }, "refs.b"},
      {"main without current", [](json& j) { j.erase("current-snapshot-id"); }, "refs.main exists"},
      {"main is a tag", [](json& j) { j["refs"]["main"]["type"] = "tag"; }, "must be a branch"},
      {"duplicate snapshot", [](json& j) { j["snapshots"].push_back(j["snapshots"][0]); }, "duplicate snapshot-id 5"},
      {"duplicate schema", [](json& j) { j["schemas"].push_back(j["schemas"][0]); }, "duplicate schema-id 0"},
  };
  for (const auto& c : cases) {
    SCOPED_TRACE(c.what);
    json j = MinimalV2();
    c.edit(j);
    Status st = ParseStatus(j);
    EXPECT_EQ(st.code(), StatusCode::kInvalidArgument);
    EXPECT_NE(st.message().find(c.expected), std::string::npos) << st.message();
  }
}

TEST(IcebergTableMetadata, CurrentSnapshotMinusOneOrNullMeansNone) {
  for (json none : {json(-1), json(nullptr)}) {
    json j = MinimalV2();
    j["current-snapshot-id"] = none;
    j.erase("refs");
    auto m = ParseTableMetadata(j.dump());
    ASSERT_TRUE(m.ok()) << m.status().ToString();
    EXPECT_FALSE(m->current_snapshot_id.has_value());
    EXPECT_EQ(m->RefSnapshotId("main"), std::nullopt);
    EXPECT_EQ(json::parse(SerializeTableMetadata(*m))["current-snapshot-id"], -1);
  }
}

TEST(IcebergTableMetadata, FormatVersions) {
  json j = MinimalV2();
  j["format-version"] = 4;
  EXPECT_EQ(ParseStatus(j).code(), StatusCode::kUnsupported);
  j["format-version"] = 0;
  EXPECT_EQ(ParseStatus(j).code(), StatusCode::kInvalidArgument);
  // v1 without "schemas" needs "schema".
  j = MinimalV2();
  j["format-version"] = 1;
  j.erase("schemas");
  EXPECT_NE(ParseStatus(j).message().find("'schema'"), std::string::npos);
}

TEST(IcebergTableMetadata, InvalidJsonText) {
  auto m = ParseTableMetadata("{\"format-version\": 2,");
  EXPECT_EQ(m.status().code(), StatusCode::kInvalidArgument);
  EXPECT_NE(m.status().message().find("invalid JSON"), std::string::npos);
  EXPECT_EQ(ParseTableMetadata("[1]").status().code(), StatusCode::kInvalidArgument);
  EXPECT_EQ(ParseTableMetadata("").status().code(), StatusCode::kInvalidArgument);
}

// --- New tables -------------------------------------------------------------------------

TEST(IcebergTableMetadata, NewTableMetadata) {
  schema::PartitionSpec spec = testing::SampleSpec();
  spec.spec_id = 7;
  spec.fields[0].field_id = 5;  // reassigned from 1000
  auto m = NewTableMetadata(testing::SampleSchema(), spec, testing::SampleOrder(), "s3://bucket/db/t/",
                            {{"owner", "me"}}, 1700000000000);
  ASSERT_TRUE(m.ok()) << m.status().ToString();
  EXPECT_EQ(m->format_version, 2);
  EXPECT_TRUE(IsValidUuid(m->table_uuid));
  EXPECT_EQ(m->location, "s3://bucket/db/t");
  EXPECT_EQ(m->last_sequence_number, 0);
  EXPECT_EQ(m->last_updated_ms, 1700000000000);
  EXPECT_EQ(m->last_column_id, 7);
  ASSERT_EQ(m->schemas.size(), 1u);
  EXPECT_EQ(m->current_schema_id, 0);
  EXPECT_TRUE(SameSchema(*m->CurrentSchema(), testing::SampleSchema()));
  ASSERT_EQ(m->partition_specs.size(), 1u);
  EXPECT_EQ(m->default_spec_id, 0);
  EXPECT_EQ(m->DefaultSpec()->fields[0].field_id, 1000);
  EXPECT_EQ(m->DefaultSpec()->fields[1].field_id, 1001);
  EXPECT_EQ(m->last_partition_id, 1001);
  EXPECT_EQ(m->default_sort_order_id, 1);
  ASSERT_EQ(m->sort_orders.size(), 1u);
  EXPECT_FALSE(m->current_snapshot_id.has_value());
  EXPECT_TRUE(m->snapshots.empty());
  EXPECT_TRUE(m->refs.empty());
  EXPECT_EQ(m->Property("owner"), "me");
  EXPECT_TRUE(ValidateTableMetadata(*m).ok());

  // It round-trips, and two tables get different uuids.
  auto back = ParseTableMetadata(SerializeTableMetadata(*m));
  ASSERT_TRUE(back.ok()) << back.status().ToString();
  EXPECT_TRUE(*back == *m);
  auto other = NewTableMetadata(testing::SampleSchema(), spec, testing::SampleOrder(), "s3://bucket/db/t2");
  ASSERT_TRUE(other.ok());
  EXPECT_NE(other->table_uuid, m->table_uuid);
  EXPECT_GT(other->last_updated_ms, 1700000000000);
}

TEST(IcebergTableMetadata, NewTableUnpartitionedUnsortedAndFormatProperty) {
  auto m = NewTableMetadata(testing::SampleSchema(), schema::PartitionSpec{}, schema::SortOrder{}, "file:///tmp/t",
                            {{"format-version", "1"}}, 1);
  ASSERT_TRUE(m.ok()) << m.status().ToString();
  EXPECT_EQ(m->format_version, 1);
  EXPECT_FALSE(m->Property("format-version").has_value());
  EXPECT_EQ(m->last_partition_id, 999);
  EXPECT_EQ(m->default_sort_order_id, 0);
  EXPECT_TRUE(m->DefaultSpec()->fields.empty());

  // v3 (as Iceberg's REST compatibility kit creates): next-row-id, which v3 requires, starts at 0.
  auto v3 = NewTableMetadata(testing::SampleSchema(), {}, {}, "file:///tmp/t", {{"format-version", "3"}}, 1);
  ASSERT_TRUE(v3.ok()) << v3.status().ToString();
  EXPECT_EQ(v3->format_version, 3);
  EXPECT_EQ(v3->next_row_id, 0);
  auto json = nlohmann::json::parse(SerializeTableMetadata(*v3));
  EXPECT_EQ(json["format-version"], 3);
  EXPECT_EQ(json["next-row-id"], 0);
  auto v4 = NewTableMetadata(testing::SampleSchema(), {}, {}, "file:///tmp/t", {{"format-version", "4"}}, 1);
  EXPECT_EQ(v4.status().code(), StatusCode::kUnsupported);
  EXPECT_NE(v4.status().message().find("format version 1 to 3"), std::string::npos) << v4.status().message();
}

TEST(IcebergTableMetadata, NewTableRejectsInvalidLayouts) {
  using testing::PField;
  schema::PartitionSpec unknown;
  unknown.fields = {PField(42, 1000, "x", schema::TransformKind::kIdentity)};
  auto m = NewTableMetadata(testing::SampleSchema(), unknown, {}, "s3://b/t", {}, 1);
  EXPECT_EQ(m.status().code(), StatusCode::kInvalidArgument);
  EXPECT_NE(m.status().message().find("source column id 42"), std::string::npos) << m.status().message();

  schema::PartitionSpec day_on_string;
  day_on_string.fields = {PField(2, 1000, "category_day", schema::TransformKind::kDay)};
  m = NewTableMetadata(testing::SampleSchema(), day_on_string, {}, "s3://b/t", {}, 1);
  EXPECT_EQ(m.status().code(), StatusCode::kInvalidArgument);
  EXPECT_NE(m.status().message().find("category"), std::string::npos) << m.status().message();

  schema::PartitionSpec on_struct;
  on_struct.fields = {PField(5, 1000, "loc", schema::TransformKind::kIdentity)};
  m = NewTableMetadata(testing::SampleSchema(), on_struct, {}, "s3://b/t", {}, 1);
  EXPECT_NE(m.status().message().find("non-primitive"), std::string::npos) << m.status().message();

  schema::PartitionSpec duplicate;
  duplicate.fields = {PField(1, 1000, "x", schema::TransformKind::kIdentity),
                      PField(2, 1001, "x", schema::TransformKind::kIdentity)};
  m = NewTableMetadata(testing::SampleSchema(), duplicate, {}, "s3://b/t", {}, 1);
  EXPECT_NE(m.status().message().find("twice"), std::string::npos) << m.status().message();

  schema::SortOrder bad_order = testing::SampleOrder();
  bad_order.fields[0].source_id = 99;
  m = NewTableMetadata(testing::SampleSchema(), {}, bad_order, "s3://b/t", {}, 1);
  EXPECT_NE(m.status().message().find("sort order"), std::string::npos) << m.status().message();

  schema::Schema v3_type = testing::SampleSchema();
  v3_type.fields.push_back(testing::Field(8, "ns", testing::P(schema::TypeId::kTimestampNs)));
  m = NewTableMetadata(v3_type, {}, {}, "s3://b/t", {}, 1);
  EXPECT_NE(m.status().message().find("format version 3"), std::string::npos) << m.status().message();

  m = NewTableMetadata(testing::SampleSchema(), {}, {}, "", {}, 1);
  EXPECT_EQ(m.status().code(), StatusCode::kInvalidArgument);
}

TEST(IcebergTableMetadata, Uuids) {
  std::set<std::string> seen;
  for (int i = 0; i < 100; ++i) {
    std::string u = floe::NewUuid();
    EXPECT_TRUE(IsValidUuid(u)) << u;
    EXPECT_EQ(u[14], '4');
    EXPECT_NE(std::string("89ab").find(u[19]), std::string::npos) << u;
    seen.insert(u);
  }
  EXPECT_EQ(seen.size(), 100u);
  EXPECT_TRUE(IsValidUuid("D20125C8-7284-442C-9AEA-15FEE620737C"));
  EXPECT_FALSE(IsValidUuid("d20125c8-7284-442c-9aea-15fee620737"));
  EXPECT_FALSE(IsValidUuid("d20125c8x7284-442c-9aea-15fee620737c"));
  EXPECT_FALSE(IsValidUuid("g20125c8-7284-442c-9aea-15fee620737c"));
}

TEST(IcebergTableMetadata, EqualityIsDeep) {
  TableMetadata a = ParseDataFile("pyiceberg-00007.metadata.json");
  TableMetadata b = a;
  EXPECT_TRUE(a == b);
  b.schemas[0].fields[1].doc = "changed";
  EXPECT_FALSE(a == b);
  b = a;
  b.partition_specs[1].fields[0].field_id = 1500;
  EXPECT_FALSE(a == b);
  b = a;
  b.sort_orders[0].fields[0].direction = schema::SortDirection::kDesc;
  EXPECT_FALSE(a == b);
  b = a;
  b.snapshots[0].summary["x"] = "y";
  EXPECT_FALSE(a == b);
}

}  // namespace
}  // namespace floe::iceberg
