// TableUpdate: REST wire form and ApplyUpdates / CreateFromUpdates semantics. The replay
// tests re-apply pyiceberg's own commits (tests/data/iceberg) and must reproduce the
// metadata files pyiceberg wrote, field for field.
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <string>
#include <vector>

#include "floe/iceberg/table_metadata.h"
#include "floe/iceberg/table_metadata_json.h"
#include "floe/iceberg/table_update.h"
#include "iceberg_test_util.h"

namespace floe::iceberg {
namespace {

using nlohmann::json;
using testing::ParseDataFile;

constexpr std::int64_t kNow = 1800000000000;
constexpr const char* kPrev = "s3://bucket/db/t/metadata/00003-0e7f2a60-3bbb-4b43-9e5d-3b2e39c2c1a1.metadata.json";

TableMetadata Base() {
  auto m = NewTableMetadata(testing::SampleSchema(), testing::SampleSpec(), testing::SampleOrder(), "s3://bucket/db/t",
                            {{"owner", "floe"}}, 1700000000000);
  EXPECT_TRUE(m.ok()) << m.status().ToString();
  return std::move(m).value();
}

Snapshot MakeSnapshot(std::int64_t id, std::optional<std::int64_t> parent, std::int64_t seq, std::int64_t ts) {
  Snapshot s;
  s.snapshot_id = id;
  s.parent_snapshot_id = parent;
  s.sequence_number = seq;
  s.timestamp_ms = ts;
  s.manifest_list = "s3://bucket/db/t/metadata/snap-" + std::to_string(id) + ".avro";
  s.summary = {{"operation", "append"},
               {std::string(kSummaryFloeOffsets), R"({"orders":{"0":)" + std::to_string(id * 10) + "}}"},
               {std::string(kSummaryFloeCommitId), "c-" + std::to_string(id)}};
  s.schema_id = 0;
  return s;
}

SetSnapshotRefUpdate Main(std::int64_t id) { return SetSnapshotRefUpdate{"main", SnapshotRef{id, SnapshotRefType::kBranch, {}, {}, {}}}; }

// The base with snapshots 1 <- 2 committed one after the other, main at 2.
TableMetadata WithTwoSnapshots() {
  auto first = ApplyUpdates(Base(), {AddSnapshotUpdate{MakeSnapshot(1, std::nullopt, 1, 1700000001000)}, Main(1)}, kNow);
  EXPECT_TRUE(first.ok()) << first.status().ToString();
  auto m = ApplyUpdates(*first, {AddSnapshotUpdate{MakeSnapshot(2, 1, 2, 1700000002000)}, Main(2)}, kNow);
  EXPECT_TRUE(m.ok()) << m.status().ToString();
  EXPECT_EQ(m->snapshot_log.size(), 2u);
  return std::move(m).value();
}

Status ApplyStatus(const TableMetadata& base, std::vector<TableUpdate> updates) {
  return ApplyUpdates(base, updates, kNow, kPrev).status();
}

void ExpectInvalid(const TableMetadata& base, std::vector<TableUpdate> updates, const std::string& fragment,
                   StatusCode code = StatusCode::kInvalidArgument) {
  Status st = ApplyStatus(base, std::move(updates));
  EXPECT_EQ(st.code(), code) << st.ToString();
  EXPECT_NE(st.message().find(fragment), std::string::npos) << st.message();
}

// --- JSON -------------------------------------------------------------------------------

TEST(IcebergTableUpdate, ParsesAndWritesEveryRestAction) {
  const char* wire[] = {
      R"({"action":"assign-uuid","uuid":"9c12d441-03fe-4693-9a96-a0705ddf69c1"})",
      R"({"action":"upgrade-format-version","format-version":2})",
      R"({"action":"add-schema","schema":{"type":"struct","schema-id":1,"fields":[{"id":1,"name":"a","required":true,"type":"long"}]},"last-column-id":1})",
      R"({"action":"set-current-schema","schema-id":-1})",
      R"({"action":"add-spec","spec":{"spec-id":1,"fields":[{"name":"a_bucket","transform":"bucket[8]","source-id":1,"field-id":1000}]}})",
      R"({"action":"set-default-spec","spec-id":-1})",
      R"({"action":"add-sort-order","sort-order":{"order-id":1,"fields":[{"transform":"identity","source-id":1,"direction":"desc","null-order":"nulls-last"}]}})",
      R"({"action":"set-default-sort-order","sort-order-id":-1})",
      R"({"action":"add-snapshot","snapshot":{"snapshot-id":3,"parent-snapshot-id":2,"sequence-number":3,"timestamp-ms":17,"manifest-list":"s3://b/snap-3.avro","summary":{"operation":"append","floe.offsets":"{\"t\":{\"0\":5}}","floe.commit-id":"c-3"},"schema-id":1}})",
      R"({"action":"set-snapshot-ref","ref-name":"audit","type":"branch","snapshot-id":3,"max-ref-age-ms":10,"max-snapshot-age-ms":20,"min-snapshots-to-keep":2})",
      R"({"action":"remove-snapshots","snapshot-ids":[1,2]})",
      R"({"action":"remove-snapshot-ref","ref-name":"audit"})",
      R"({"action":"set-location","location":"s3://b/new"})",
      R"({"action":"set-properties","updates":{"a":"1","b":"2"}})",
      R"({"action":"remove-properties","removals":["a","c"]})",
      R"({"action":"set-statistics","snapshot-id":3,"statistics":{"snapshot-id":3,"statistics-path":"s3://b/s.puffin","file-size-in-bytes":10,"file-footer-size-in-bytes":2,"blob-metadata":[]}})",
      R"({"action":"remove-statistics","snapshot-id":3})",
      R"({"action":"set-partition-statistics","partition-statistics":{"snapshot-id":3,"statistics-path":"s3://b/p.parquet","file-size-in-bytes":10}})",
      R"({"action":"remove-partition-statistics","snapshot-id":3})",
      R"({"action":"remove-schemas","schema-ids":[0]})",
      R"({"action":"remove-partition-specs","spec-ids":[0]})",
  };
  std::set<std::string> actions;
  for (const char* text : wire) {
    SCOPED_TRACE(text);
    json in = json::parse(text);
    auto u = TableUpdateFromJson(in);
    ASSERT_TRUE(u.ok()) << u.status().ToString();
    EXPECT_EQ(UpdateAction(*u), in["action"].get<std::string>());
    actions.insert(std::string(UpdateAction(*u)));
    EXPECT_EQ(TableUpdateToJson(*u), in);
  }
  EXPECT_EQ(actions.size(), std::variant_size_v<TableUpdate>);

  json list = json::array();
  for (const char* text : wire) list.push_back(json::parse(text));
  auto all = TableUpdatesFromJson(list);
  ASSERT_TRUE(all.ok()) << all.status().ToString();
  EXPECT_EQ(TableUpdatesToJson(*all), list);
}

TEST(IcebergTableUpdate, ParsedMembersAreTyped) {
  auto u = TableUpdateFromJson(json::parse(
      R"({"action":"set-snapshot-ref","ref-name":"v1","type":"TAG","snapshot-id":9,"max-ref-age-ms":1000})"));
  ASSERT_TRUE(u.ok()) << u.status().ToString();
  const auto& ref = std::get<SetSnapshotRefUpdate>(*u);
  EXPECT_EQ(ref.ref_name, "v1");
  EXPECT_EQ(ref.ref.type, SnapshotRefType::kTag);
  EXPECT_EQ(ref.ref.snapshot_id, 9);
  EXPECT_EQ(ref.ref.max_ref_age_ms, 1000);

  // REST clients may omit server-assigned ids.
  u = TableUpdateFromJson(json::parse(
      R"({"action":"add-spec","spec":{"fields":[{"name":"a","transform":"identity","source-id":1}]}})"));
  ASSERT_TRUE(u.ok()) << u.status().ToString();
  EXPECT_EQ(std::get<AddPartitionSpecUpdate>(*u).spec.fields[0].field_id, 1000);
  u = TableUpdateFromJson(json::parse(
      R"({"action":"add-schema","schema":{"type":"struct","fields":[{"id":1,"name":"a","required":true,"type":"long"}]}})"));
  ASSERT_TRUE(u.ok()) << u.status().ToString();
  EXPECT_FALSE(std::get<AddSchemaUpdate>(*u).last_column_id.has_value());
}

TEST(IcebergTableUpdate, JsonErrorsNameTheProblem) {
  struct Case {
    const char* text;
    const char* fragment;
  };
  const Case cases[] = {
      {R"({"action":"rename-table"})", "unknown table update action 'rename-table'"},
      {R"({"uuid":"x"})", "'action'"},
      {R"([1])", "must be a JSON object"},
      {R"({"action":"add-snapshot"})", "add-snapshot: missing required key 'snapshot'"},
      {R"({"action":"add-snapshot","snapshot":{"snapshot-id":1,"manifest-list":"x"}})", "'timestamp-ms'"},
      {R"({"action":"set-current-schema"})", "'schema-id'"},
      {R"({"action":"set-snapshot-ref","ref-name":"b","snapshot-id":1})", "'type'"},
      {R"({"action":"set-snapshot-ref","snapshot-id":1,"type":"branch"})", "'ref-name'"},
      {R"({"action":"remove-snapshots","snapshot-ids":[1,"2"]})", "'snapshot-ids[1]'"},
      {R"({"action":"set-properties"})", "'updates'"},
      {R"({"action":"set-properties","updates":{"a":{"b":1}}})", "'updates.a'"},
      {R"({"action":"remove-properties","removals":"a"})", "'removals'"},
      {R"({"action":"set-statistics","statistics":{"statistics-path":"x"}})", "'snapshot-id'"},
      {R"({"action":"set-statistics","snapshot-id":2,"statistics":{"snapshot-id":3}})", "differs"},
      {R"({"action":"add-schema","schema":{"type":"struct","fields":[{"id":1}]}})", "add-schema: schema"},
  };
  for (const auto& c : cases) {
    SCOPED_TRACE(c.text);
    auto u = TableUpdateFromJson(json::parse(c.text));
    ASSERT_FALSE(u.ok());
    EXPECT_EQ(u.status().code(), StatusCode::kInvalidArgument);
    EXPECT_NE(u.status().message().find(c.fragment), std::string::npos) << u.status().message();
  }
  auto list = TableUpdatesFromJson(json::parse(R"([{"action":"set-location","location":"x"},{"action":"nope"}])"));
  ASSERT_FALSE(list.ok());
  EXPECT_NE(list.status().message().find("updates[1]"), std::string::npos) << list.status().message();
  EXPECT_FALSE(TableUpdatesFromJson(json::object()).ok());
}

// --- Applying: snapshots and refs -------------------------------------------------------

TEST(IcebergTableUpdate, AddSnapshotAndSetMain) {
  TableMetadata base = Base();
  Snapshot s = MakeSnapshot(11, std::nullopt, 1, 1700000005000);
  auto m = ApplyUpdates(base, {AddSnapshotUpdate{s}, Main(11)}, kNow, kPrev);
  ASSERT_TRUE(m.ok()) << m.status().ToString();
  EXPECT_EQ(m->current_snapshot_id, 11);
  EXPECT_EQ(m->RefSnapshotId("main"), 11);
  ASSERT_NE(m->CurrentSnapshot(), nullptr);
  EXPECT_EQ(*m->CurrentSnapshot(), s);
  EXPECT_EQ(m->last_sequence_number, 1);
  // Java: a snapshot added in this commit stamps last-updated-ms and the snapshot log.
  EXPECT_EQ(m->last_updated_ms, 1700000005000);
  ASSERT_EQ(m->snapshot_log.size(), 1u);
  EXPECT_EQ(m->snapshot_log[0], (SnapshotLogEntry{1700000005000, 11}));
  // The previous metadata file goes into the metadata log at the base's timestamp.
  ASSERT_EQ(m->metadata_log.size(), 1u);
  EXPECT_EQ(m->metadata_log[0], (MetadataLogEntry{base.last_updated_ms, kPrev}));
  EXPECT_EQ(m->CurrentSnapshot()->SummaryValue(kSummaryFloeOffsets), R"({"orders":{"0":110}})");
  // Everything else is untouched.
  EXPECT_EQ(m->table_uuid, base.table_uuid);
  EXPECT_EQ(m->properties, base.properties);
  // And the result round-trips.
  auto back = ParseTableMetadata(SerializeTableMetadata(*m));
  ASSERT_TRUE(back.ok()) << back.status().ToString();
  EXPECT_TRUE(*back == *m);
}

TEST(IcebergTableUpdate, SetMainToAnOlderSnapshotUsesNow) {
  TableMetadata base = WithTwoSnapshots();
  auto m = ApplyUpdates(base, {Main(1)}, kNow, kPrev);
  ASSERT_TRUE(m.ok()) << m.status().ToString();
  EXPECT_EQ(m->current_snapshot_id, 1);
  EXPECT_EQ(m->last_updated_ms, kNow);
  EXPECT_EQ(m->snapshot_log.back(), (SnapshotLogEntry{kNow, 1}));
  EXPECT_EQ(m->snapshot_log.size(), base.snapshot_log.size() + 1);
}

TEST(IcebergTableUpdate, AddSnapshotChecks) {
  TableMetadata base = WithTwoSnapshots();
  EXPECT_EQ(base.last_sequence_number, 2);
  ExpectInvalid(base, {AddSnapshotUpdate{MakeSnapshot(2, 1, 3, 5)}}, "snapshot 2 already exists");
  ExpectInvalid(base, {AddSnapshotUpdate{MakeSnapshot(3, 2, 2, 5)}},
                "sequence-number 2 is not greater than the table's last-sequence-number 2");
  Snapshot no_op = MakeSnapshot(3, 2, 3, 5);
  no_op.summary.erase("operation");
  ExpectInvalid(base, {AddSnapshotUpdate{no_op}}, "'operation'");
  Snapshot no_list = MakeSnapshot(3, 2, 3, 5);
  no_list.manifest_list.clear();
  ExpectInvalid(base, {AddSnapshotUpdate{no_list}}, "manifest-list");
  // The error names the update's position and action.
  ExpectInvalid(base, {SetLocationUpdate{"s3://x"}, AddSnapshotUpdate{MakeSnapshot(1, std::nullopt, 9, 5)}},
                "update 1 (add-snapshot): snapshot 1 already exists");

  // Java and pyiceberg accept an old sequence number for a snapshot without parent; the
  // table's last-sequence-number never goes down.
  auto m = ApplyUpdates(base, {AddSnapshotUpdate{MakeSnapshot(3, std::nullopt, 1, 5)}}, kNow);
  ASSERT_TRUE(m.ok()) << m.status().ToString();
  EXPECT_EQ(m->last_sequence_number, 2);
  // Adding without setting a ref leaves the current snapshot alone.
  EXPECT_EQ(m->current_snapshot_id, 2);

  // v1 tables have no sequence numbers to check.
  auto v1 = NewTableMetadata(testing::SampleSchema(), {}, {}, "s3://b/v1", {{"format-version", "1"}}, 1);
  ASSERT_TRUE(v1.ok());
  Snapshot v1_snapshot = MakeSnapshot(5, std::nullopt, 0, 10);
  v1_snapshot.summary.clear();
  m = ApplyUpdates(*v1, {AddSnapshotUpdate{v1_snapshot}, Main(5)}, kNow);
  ASSERT_TRUE(m.ok()) << m.status().ToString();
  EXPECT_EQ(m->last_sequence_number, 0);
}

TEST(IcebergTableUpdate, AddSnapshotV3RowLineage) {
  TableMetadata v3 = ParseDataFile("v3-handwritten.metadata.json");
  Snapshot s = MakeSnapshot(3, 2, 3, 1735689700000);
  ExpectInvalid(v3, {AddSnapshotUpdate{s}}, "first-row-id and added-rows");
  s.first_row_id = 149;
  s.added_rows = 10;
  ExpectInvalid(v3, {AddSnapshotUpdate{s}}, "behind the table's next-row-id 150");
  s.first_row_id = 150;
  auto m = ApplyUpdates(v3, {AddSnapshotUpdate{s}, Main(3)}, kNow);
  ASSERT_TRUE(m.ok()) << m.status().ToString();
  EXPECT_EQ(m->next_row_id, 160);
}

TEST(IcebergTableUpdate, IntermediateSnapshotsLeaveNoSnapshotLogEntry) {
  // Two snapshots committed together (Java: a transaction with two operations): only the
  // final main is history.
  auto m = ApplyUpdates(Base(),
                        {AddSnapshotUpdate{MakeSnapshot(1, std::nullopt, 1, 100)}, Main(1),
                         AddSnapshotUpdate{MakeSnapshot(2, 1, 2, 200)}, Main(2)},
                        kNow);
  ASSERT_TRUE(m.ok()) << m.status().ToString();
  ASSERT_EQ(m->snapshot_log.size(), 1u);
  EXPECT_EQ(m->snapshot_log[0], (SnapshotLogEntry{200, 2}));
  EXPECT_EQ(m->snapshots.size(), 2u);
  EXPECT_EQ(m->last_updated_ms, 200);
}

TEST(IcebergTableUpdate, SetSnapshotRef) {
  TableMetadata base = WithTwoSnapshots();
  SnapshotRef tag{1, SnapshotRefType::kTag, {}, {}, 86400000};
  SnapshotRef branch{1, SnapshotRefType::kBranch, 3, 1000, {}};
  auto m = ApplyUpdates(base, {SetSnapshotRefUpdate{"v1", tag}, SetSnapshotRefUpdate{"dev", branch}}, kNow, kPrev);
  ASSERT_TRUE(m.ok()) << m.status().ToString();
  EXPECT_EQ(*m->Ref("v1"), tag);
  EXPECT_EQ(*m->Ref("dev"), branch);
  EXPECT_EQ(m->current_snapshot_id, 2);                // main untouched
  EXPECT_EQ(m->snapshot_log, base.snapshot_log);       // only main has history
  EXPECT_EQ(m->last_updated_ms, kNow);

  // Setting a ref to what it is already is no change at all.
  auto same = ApplyUpdates(*m, {SetSnapshotRefUpdate{"v1", tag}, Main(2)}, kNow + 5, kPrev);
  ASSERT_TRUE(same.ok());
  EXPECT_TRUE(*same == *m);

  ExpectInvalid(base, {SetSnapshotRefUpdate{"dev", SnapshotRef{77, SnapshotRefType::kBranch, {}, {}, {}}}},
                "cannot set dev to unknown snapshot 77");
  ExpectInvalid(base, {SetSnapshotRefUpdate{"main", SnapshotRef{1, SnapshotRefType::kTag, {}, {}, {}}}},
                "main must be a branch");
  ExpectInvalid(base, {SetSnapshotRefUpdate{"t", SnapshotRef{1, SnapshotRefType::kTag, 2, {}, {}}}}, "branch-only");
  ExpectInvalid(base, {SetSnapshotRefUpdate{"b", SnapshotRef{1, SnapshotRefType::kBranch, 0, {}, {}}}},
                "greater than 0");
  ExpectInvalid(base, {SetSnapshotRefUpdate{"", SnapshotRef{1, SnapshotRefType::kBranch, {}, {}, {}}}}, "empty");
}

TEST(IcebergTableUpdate, RemoveSnapshotRef) {
  TableMetadata base = WithTwoSnapshots();
  auto tagged = ApplyUpdates(base, {SetSnapshotRefUpdate{"v1", SnapshotRef{1, SnapshotRefType::kTag, {}, {}, {}}}}, kNow);
  ASSERT_TRUE(tagged.ok());
  auto m = ApplyUpdates(*tagged, {RemoveSnapshotRefUpdate{"v1"}}, kNow);
  ASSERT_TRUE(m.ok()) << m.status().ToString();
  EXPECT_EQ(m->Ref("v1"), nullptr);
  EXPECT_EQ(m->current_snapshot_id, 2);

  m = ApplyUpdates(base, {RemoveSnapshotRefUpdate{"main"}}, kNow);
  ASSERT_TRUE(m.ok()) << m.status().ToString();
  EXPECT_FALSE(m->current_snapshot_id.has_value());
  EXPECT_EQ(m->RefSnapshotId("main"), std::nullopt);
  EXPECT_EQ(m->snapshots.size(), 2u);

  // Removing an absent ref changes nothing.
  m = ApplyUpdates(base, {RemoveSnapshotRefUpdate{"nope"}}, kNow, kPrev);
  ASSERT_TRUE(m.ok());
  EXPECT_TRUE(*m == base);
}

TEST(IcebergTableUpdate, RemoveSnapshots) {
  TableMetadata base = WithTwoSnapshots();
  StatisticsFile stats{1, R"({"snapshot-id":1,"statistics-path":"s3://s1.puffin","file-size-in-bytes":1,"file-footer-size-in-bytes":1,"blob-metadata":[]})"};
  StatisticsFile part{1, R"({"snapshot-id":1,"statistics-path":"s3://p1.parquet","file-size-in-bytes":1})"};
  auto prepared = ApplyUpdates(base,
                               {SetSnapshotRefUpdate{"old", SnapshotRef{1, SnapshotRefType::kTag, {}, {}, {}}},
                                SetStatisticsUpdate{stats}, SetPartitionStatisticsUpdate{part}},
                               kNow);
  ASSERT_TRUE(prepared.ok()) << prepared.status().ToString();
  ASSERT_EQ(prepared->snapshot_log.size(), 2u);

  auto m = ApplyUpdates(*prepared, {RemoveSnapshotsUpdate{{1, 999}}}, kNow + 1, kPrev);
  ASSERT_TRUE(m.ok()) << m.status().ToString();
  ASSERT_EQ(m->snapshots.size(), 1u);
  EXPECT_EQ(m->snapshots[0].snapshot_id, 2);
  EXPECT_EQ(m->snapshots[0].parent_snapshot_id, 1);  // snapshots are immutable: the parent id stays
  EXPECT_EQ(m->Ref("old"), nullptr);                 // refs to removed snapshots go
  EXPECT_TRUE(m->statistics.empty());
  EXPECT_TRUE(m->partition_statistics.empty());
  ASSERT_EQ(m->snapshot_log.size(), 1u);  // history before a removed entry is dropped
  EXPECT_EQ(m->snapshot_log[0].snapshot_id, 2);
  EXPECT_EQ(m->current_snapshot_id, 2);

  // Removing the current snapshot removes main.
  m = ApplyUpdates(base, {RemoveSnapshotsUpdate{{2}}}, kNow);
  ASSERT_TRUE(m.ok()) << m.status().ToString();
  EXPECT_FALSE(m->current_snapshot_id.has_value());
  EXPECT_EQ(m->Ref("main"), nullptr);
  EXPECT_TRUE(m->snapshot_log.empty());

  // Unknown ids only: no change.
  m = ApplyUpdates(base, {RemoveSnapshotsUpdate{{12345}}}, kNow, kPrev);
  ASSERT_TRUE(m.ok());
  EXPECT_TRUE(*m == base);
}

// --- Applying: schemas, specs, sort orders ----------------------------------------------

// SampleSchema with qty widened to long and an optional string column 8, as schema 5.
schema::Schema WidenedSchema() {
  schema::Schema s = testing::SampleSchema();
  s.schema_id = 5;  // the server assigns the id
  s.fields[3].type = testing::P(schema::TypeId::kLong);
  s.fields.push_back(testing::Field(8, "note", testing::P(schema::TypeId::kString)));
  return s;
}

TEST(IcebergTableUpdate, AddSchemaAndSetCurrent) {
  TableMetadata base = Base();
  auto m = ApplyUpdates(base, {AddSchemaUpdate{WidenedSchema(), 8}, SetCurrentSchemaUpdate{kLastAdded}}, kNow, kPrev);
  ASSERT_TRUE(m.ok()) << m.status().ToString();
  ASSERT_EQ(m->schemas.size(), 2u);
  EXPECT_EQ(m->current_schema_id, 1);
  EXPECT_EQ(m->CurrentSchema()->FindByName("qty")->type->id(), schema::TypeId::kLong);
  EXPECT_EQ(m->last_column_id, 8);
  EXPECT_EQ(m->last_updated_ms, kNow);
  ASSERT_EQ(m->metadata_log.size(), 1u);

  // Adding an equal schema again reuses it; -1 then means that one.
  auto again = ApplyUpdates(*m, {AddSchemaUpdate{testing::SampleSchema(), {}}, SetCurrentSchemaUpdate{kLastAdded}},
                            kNow + 1, kPrev);
  ASSERT_TRUE(again.ok()) << again.status().ToString();
  EXPECT_EQ(again->schemas.size(), 2u);
  EXPECT_EQ(again->current_schema_id, 0);
  // last-column-id never goes down.
  EXPECT_EQ(again->last_column_id, 8);

  // Setting the current schema explicitly.
  auto back = ApplyUpdates(*m, {SetCurrentSchemaUpdate{0}}, kNow);
  ASSERT_TRUE(back.ok()) << back.status().ToString();
  EXPECT_EQ(back->current_schema_id, 0);

  ExpectInvalid(base, {SetCurrentSchemaUpdate{kLastAdded}}, "no schema was added");
  ExpectInvalid(base, {SetCurrentSchemaUpdate{3}}, "unknown schema id 3");
  // A lower last-column-id (deprecated; Java 1.10 sends the schema's highest field id) is
  // accepted and never lowers the table's; a higher one raises it.
  auto lower = ApplyUpdates(*m, {AddSchemaUpdate{WidenedSchema(), 5}}, kNow + 1, kPrev);
  ASSERT_TRUE(lower.ok()) << lower.status().ToString();
  EXPECT_EQ(lower->last_column_id, 8);
  auto higher = ApplyUpdates(*m, {AddSchemaUpdate{WidenedSchema(), 12}}, kNow + 1, kPrev);
  ASSERT_TRUE(higher.ok()) << higher.status().ToString();
  EXPECT_EQ(higher->last_column_id, 12);
  schema::Schema v3 = WidenedSchema();
  v3.fields.push_back(testing::Field(9, "ns", testing::P(schema::TypeId::kTimestampTzNs)));
  ExpectInvalid(base, {AddSchemaUpdate{v3, {}}}, "format version 3");
  schema::Schema bad_identifier = WidenedSchema();
  bad_identifier.identifier_field_ids = {42};
  ExpectInvalid(base, {AddSchemaUpdate{bad_identifier, {}}}, "identifier field id 42");
}

TEST(IcebergTableUpdate, CurrentSchemaMustFitDefaultSpec) {
  // A schema without the column the default spec partitions by cannot become current.
  schema::Schema without_ts = testing::SampleSchema();
  without_ts.fields.erase(without_ts.fields.begin() + 2);
  ExpectInvalid(Base(), {AddSchemaUpdate{without_ts, {}}, SetCurrentSchemaUpdate{kLastAdded}},
                "source column id 3");
  // Adding it without making it current is fine.
  EXPECT_TRUE(ApplyStatus(Base(), {AddSchemaUpdate{without_ts, {}}}).ok());
}

TEST(IcebergTableUpdate, RemoveSchemas) {
  auto m = ApplyUpdates(Base(), {AddSchemaUpdate{WidenedSchema(), {}}, SetCurrentSchemaUpdate{kLastAdded}}, kNow);
  ASSERT_TRUE(m.ok());
  auto removed = ApplyUpdates(*m, {RemoveSchemasUpdate{{0, 44}}}, kNow);
  ASSERT_TRUE(removed.ok()) << removed.status().ToString();
  ASSERT_EQ(removed->schemas.size(), 1u);
  EXPECT_EQ(removed->schemas[0].schema_id, 1);
  ExpectInvalid(*m, {RemoveSchemasUpdate{{1}}}, "cannot remove the current schema 1");
}

TEST(IcebergTableUpdate, AddSpecAndSetDefault) {
  using testing::PField;
  TableMetadata base = Base();
  schema::PartitionSpec spec;
  spec.spec_id = 9;
  spec.fields = {PField(3, 1000, "ts_day", schema::TransformKind::kDay),
                 PField(2, 1002, "category_trunc", schema::TransformKind::kTruncate, 3)};
  auto m = ApplyUpdates(base, {AddPartitionSpecUpdate{spec}, SetDefaultSpecUpdate{kLastAdded}}, kNow);
  ASSERT_TRUE(m.ok()) << m.status().ToString();
  ASSERT_EQ(m->partition_specs.size(), 2u);
  EXPECT_EQ(m->default_spec_id, 1);
  EXPECT_EQ(m->DefaultSpec()->fields[1].name, "category_trunc");
  EXPECT_EQ(m->last_partition_id, 1002);

  // An equal spec (field ids aside, like Java) is reused.
  auto again = ApplyUpdates(*m, {AddPartitionSpecUpdate{testing::SampleSpec()}, SetDefaultSpecUpdate{kLastAdded}}, kNow);
  ASSERT_TRUE(again.ok()) << again.status().ToString();
  EXPECT_EQ(again->partition_specs.size(), 2u);
  EXPECT_EQ(again->default_spec_id, 0);

  schema::PartitionSpec unknown;
  unknown.fields = {PField(77, 1003, "x", schema::TransformKind::kIdentity)};
  ExpectInvalid(base, {AddPartitionSpecUpdate{unknown}}, "references source column id 77");
  schema::PartitionSpec bad_transform;
  bad_transform.fields = {PField(2, 1003, "c_hour", schema::TransformKind::kHour)};
  ExpectInvalid(base, {AddPartitionSpecUpdate{bad_transform}}, "cannot apply to column 'category'");
  schema::PartitionSpec low_id;
  low_id.fields = {PField(2, 5, "c", schema::TransformKind::kIdentity)};
  ExpectInvalid(base, {AddPartitionSpecUpdate{low_id}}, "start at 1000");
  ExpectInvalid(base, {SetDefaultSpecUpdate{kLastAdded}}, "no partition spec was added");
  ExpectInvalid(base, {SetDefaultSpecUpdate{4}}, "unknown partition spec id 4");
  // A void transform may keep a dropped source column.
  schema::PartitionSpec void_field;
  void_field.fields = {PField(99, 1003, "gone", schema::TransformKind::kVoid)};
  EXPECT_TRUE(ApplyStatus(base, {AddPartitionSpecUpdate{void_field}, SetDefaultSpecUpdate{kLastAdded}}).ok());
}

TEST(IcebergTableUpdate, RemovePartitionSpecs) {
  auto m = ApplyUpdates(Base(), {AddPartitionSpecUpdate{schema::PartitionSpec{}}, SetDefaultSpecUpdate{kLastAdded}}, kNow);
  ASSERT_TRUE(m.ok()) << m.status().ToString();
  EXPECT_EQ(m->default_spec_id, 1);
  auto removed = ApplyUpdates(*m, {RemovePartitionSpecsUpdate{{0}}}, kNow);
  ASSERT_TRUE(removed.ok()) << removed.status().ToString();
  EXPECT_EQ(removed->partition_specs.size(), 1u);
  ExpectInvalid(*m, {RemovePartitionSpecsUpdate{{1}}}, "cannot remove the default partition spec 1");
}

TEST(IcebergTableUpdate, AddSortOrderAndSetDefault) {
  TableMetadata base = Base();
  schema::SortOrder order = testing::SampleOrder();
  order.order_id = 0;
  order.fields[0].direction = schema::SortDirection::kDesc;
  auto m = ApplyUpdates(base, {AddSortOrderUpdate{order}, SetDefaultSortOrderUpdate{kLastAdded}}, kNow);
  ASSERT_TRUE(m.ok()) << m.status().ToString();
  EXPECT_EQ(m->default_sort_order_id, 2);
  EXPECT_EQ(m->sort_orders.size(), 2u);

  // Unsorted gets id 0.
  auto unsorted = ApplyUpdates(base, {AddSortOrderUpdate{schema::SortOrder{5, {}}}, SetDefaultSortOrderUpdate{kLastAdded}}, kNow);
  ASSERT_TRUE(unsorted.ok()) << unsorted.status().ToString();
  EXPECT_EQ(unsorted->default_sort_order_id, 0);
  // The existing order is reused.
  auto same = ApplyUpdates(base, {AddSortOrderUpdate{testing::SampleOrder()}, SetDefaultSortOrderUpdate{kLastAdded}}, kNow, kPrev);
  ASSERT_TRUE(same.ok());
  EXPECT_TRUE(*same == base);

  schema::SortOrder bad = testing::SampleOrder();
  bad.fields[0].source_id = 5;  // a struct
  ExpectInvalid(base, {AddSortOrderUpdate{bad}}, "non-primitive");
  ExpectInvalid(base, {SetDefaultSortOrderUpdate{kLastAdded}}, "no sort order was added");
  ExpectInvalid(base, {SetDefaultSortOrderUpdate{8}}, "unknown sort order id 8");
}

// --- Applying: table-level changes ------------------------------------------------------

TEST(IcebergTableUpdate, AssignUuid) {
  TableMetadata base = Base();
  auto same = ApplyUpdates(base, {AssignUuidUpdate{base.table_uuid}}, kNow, kPrev);
  ASSERT_TRUE(same.ok());
  EXPECT_TRUE(*same == base);
  ExpectInvalid(base, {AssignUuidUpdate{"9c12d441-03fe-4693-9a96-a0705ddf69c1"}}, "cannot reassign");
  ExpectInvalid(base, {AssignUuidUpdate{"not-a-uuid"}}, "is not a UUID");
  // v1 tables may have none yet.
  TableMetadata v1 = ParseDataFile("v1-handwritten.metadata.json");
  v1.table_uuid.clear();
  auto m = ApplyUpdates(v1, {AssignUuidUpdate{"9c12d441-03fe-4693-9a96-a0705ddf69c1"}}, kNow);
  ASSERT_TRUE(m.ok()) << m.status().ToString();
  EXPECT_EQ(m->table_uuid, "9c12d441-03fe-4693-9a96-a0705ddf69c1");
}

TEST(IcebergTableUpdate, UpgradeFormatVersion) {
  TableMetadata v1 = ParseDataFile("v1-handwritten.metadata.json");
  auto m = ApplyUpdates(v1, {UpgradeFormatVersionUpdate{2}}, kNow);
  ASSERT_TRUE(m.ok()) << m.status().ToString();
  EXPECT_EQ(m->format_version, 2);
  json j = json::parse(SerializeTableMetadata(*m));
  EXPECT_EQ(j["last-sequence-number"], 0);
  EXPECT_FALSE(j.contains("schema"));
  auto back = ParseTableMetadata(j.dump());
  ASSERT_TRUE(back.ok()) << back.status().ToString();
  EXPECT_TRUE(*back == *m);

  TableMetadata base = Base();
  auto same = ApplyUpdates(base, {UpgradeFormatVersionUpdate{2}}, kNow, kPrev);
  ASSERT_TRUE(same.ok());
  EXPECT_TRUE(*same == base);
  ExpectInvalid(base, {UpgradeFormatVersionUpdate{1}}, "cannot downgrade a v2 table to v1");
  ExpectInvalid(base, {UpgradeFormatVersionUpdate{4}}, "Floe writes up to v3", StatusCode::kUnsupported);
  // v2 -> v3: next-row-id, required in v3, starts at 0.
  auto v3 = ApplyUpdates(base, {UpgradeFormatVersionUpdate{3}}, kNow, kPrev);
  ASSERT_TRUE(v3.ok()) << v3.status().ToString();
  EXPECT_EQ(v3->format_version, 3);
  EXPECT_EQ(v3->next_row_id, 0);
  ExpectInvalid(*v3, {UpgradeFormatVersionUpdate{2}}, "cannot downgrade a v3 table to v2");
}

TEST(IcebergTableUpdate, LocationAndProperties) {
  TableMetadata base = Base();
  auto m = ApplyUpdates(base,
                        {SetLocationUpdate{"s3://other/t"}, SetPropertiesUpdate{{{"a", "1"}, {"owner", "new"}}},
                         RemovePropertiesUpdate{{"a", "never-there"}}},
                        kNow, kPrev);
  ASSERT_TRUE(m.ok()) << m.status().ToString();
  EXPECT_EQ(m->location, "s3://other/t");
  EXPECT_EQ(m->Property("owner"), "new");
  EXPECT_FALSE(m->Property("a").has_value());
  EXPECT_EQ(m->last_updated_ms, kNow);

  for (auto noop : std::vector<TableUpdate>{SetLocationUpdate{base.location}, SetPropertiesUpdate{}, RemovePropertiesUpdate{}}) {
    auto same = ApplyUpdates(base, {noop}, kNow, kPrev);
    ASSERT_TRUE(same.ok());
    EXPECT_TRUE(*same == base) << UpdateAction(noop);
  }
  ExpectInvalid(base, {SetLocationUpdate{""}}, "location is empty");
}

TEST(IcebergTableUpdate, Statistics) {
  TableMetadata base = WithTwoSnapshots();
  StatisticsFile a{2, R"({"snapshot-id":2,"statistics-path":"s3://a.puffin","file-size-in-bytes":1,"file-footer-size-in-bytes":1,"blob-metadata":[]})"};
  StatisticsFile b{2, R"({"snapshot-id":2,"statistics-path":"s3://b.puffin","file-size-in-bytes":2,"file-footer-size-in-bytes":1,"blob-metadata":[]})"};
  auto m = ApplyUpdates(base, {SetStatisticsUpdate{a}, SetStatisticsUpdate{b}}, kNow);
  ASSERT_TRUE(m.ok()) << m.status().ToString();
  ASSERT_EQ(m->statistics.size(), 1u);  // one entry per snapshot: b replaced a
  EXPECT_EQ(m->statistics[0], b);
  auto back = ParseTableMetadata(SerializeTableMetadata(*m));
  ASSERT_TRUE(back.ok()) << back.status().ToString();
  EXPECT_EQ(back->statistics, m->statistics);

  auto removed = ApplyUpdates(*m, {RemoveStatisticsUpdate{2}}, kNow);
  ASSERT_TRUE(removed.ok());
  EXPECT_TRUE(removed->statistics.empty());
  auto noop = ApplyUpdates(base, {RemoveStatisticsUpdate{2}}, kNow, kPrev);
  ASSERT_TRUE(noop.ok());
  EXPECT_TRUE(*noop == base);

  StatisticsFile p{2, R"({"snapshot-id":2,"statistics-path":"s3://p.parquet","file-size-in-bytes":3})"};
  m = ApplyUpdates(base, {SetPartitionStatisticsUpdate{p}}, kNow);
  ASSERT_TRUE(m.ok());
  ASSERT_EQ(m->partition_statistics.size(), 1u);
  m = ApplyUpdates(*m, {RemovePartitionStatisticsUpdate{2}}, kNow);
  ASSERT_TRUE(m.ok());
  EXPECT_TRUE(m->partition_statistics.empty());
}

TEST(IcebergTableUpdate, MetadataLogIsTrimmed) {
  TableMetadata m = Base();
  auto with_max = ApplyUpdates(m, {SetPropertiesUpdate{{{std::string(kPropMetadataPreviousVersionsMax), "2"}}}}, kNow, "m0");
  ASSERT_TRUE(with_max.ok());
  m = *with_max;
  for (int i = 1; i <= 4; ++i) {
    auto next = ApplyUpdates(m, {SetPropertiesUpdate{{{"i", std::to_string(i)}}}}, kNow + i, "m" + std::to_string(i));
    ASSERT_TRUE(next.ok()) << next.status().ToString();
    m = *next;
  }
  ASSERT_EQ(m.metadata_log.size(), 2u);
  EXPECT_EQ(m.metadata_log[0].metadata_file, "m3");
  EXPECT_EQ(m.metadata_log[0].timestamp_ms, kNow + 2);
  EXPECT_EQ(m.metadata_log[1].metadata_file, "m4");
  EXPECT_EQ(m.metadata_log[1].timestamp_ms, kNow + 3);

  // Without a previous location no entry is added.
  auto no_prev = ApplyUpdates(m, {SetPropertiesUpdate{{{"j", "1"}}}}, kNow + 9);
  ASSERT_TRUE(no_prev.ok());
  EXPECT_EQ(no_prev->metadata_log, m.metadata_log);
}

TEST(IcebergTableUpdate, NoChangesReturnTheBase) {
  TableMetadata base = WithTwoSnapshots();
  auto m = ApplyUpdates(base, {}, kNow, kPrev);
  ASSERT_TRUE(m.ok());
  EXPECT_TRUE(*m == base);
  // A failing update fails the whole list; nothing is half-applied (base is const anyway).
  ExpectInvalid(base, {SetPropertiesUpdate{{{"a", "1"}}}, SetCurrentSchemaUpdate{7}}, "update 1 (set-current-schema)");
}

// --- Create -----------------------------------------------------------------------------

std::vector<TableUpdate> CreateUpdates() {
  return {AssignUuidUpdate{"9c12d441-03fe-4693-9a96-a0705ddf69c1"},
          UpgradeFormatVersionUpdate{2},
          AddSchemaUpdate{testing::SampleSchema(), {}},
          SetCurrentSchemaUpdate{kLastAdded},
          AddPartitionSpecUpdate{testing::SampleSpec()},
          SetDefaultSpecUpdate{kLastAdded},
          AddSortOrderUpdate{testing::SampleOrder()},
          SetDefaultSortOrderUpdate{kLastAdded},
          SetLocationUpdate{"s3://bucket/db/t"},
          SetPropertiesUpdate{{{"owner", "floe"}}}};
}

TEST(IcebergTableUpdate, CreateFromUpdatesMatchesNewTableMetadata) {
  auto created = CreateFromUpdates(CreateUpdates(), 1700000000000);
  ASSERT_TRUE(created.ok()) << created.status().ToString();
  TableMetadata expected = Base();
  expected.table_uuid = "9c12d441-03fe-4693-9a96-a0705ddf69c1";
  EXPECT_TRUE(*created == expected) << SerializeTableMetadata(*created) << "\n" << SerializeTableMetadata(expected);
  EXPECT_TRUE(created->metadata_log.empty());
}

TEST(IcebergTableUpdate, CreateFromUpdatesDefaultsAndErrors) {
  // Minimal: schema + location; unpartitioned, unsorted, random uuid, v2.
  auto m = CreateFromUpdates({AddSchemaUpdate{testing::SampleSchema(), {}}, SetCurrentSchemaUpdate{kLastAdded},
                              SetLocationUpdate{"s3://b/t"}},
                             5);
  ASSERT_TRUE(m.ok()) << m.status().ToString();
  EXPECT_EQ(m->format_version, 2);
  EXPECT_TRUE(IsValidUuid(m->table_uuid));
  EXPECT_TRUE(m->DefaultSpec()->fields.empty());
  EXPECT_TRUE(m->DefaultSortOrder()->fields.empty());
  EXPECT_EQ(m->last_column_id, 7);
  EXPECT_EQ(m->last_updated_ms, 5);

  // A v1 create.
  auto updates = CreateUpdates();
  updates[1] = UpgradeFormatVersionUpdate{1};
  m = CreateFromUpdates(updates, 5);
  ASSERT_TRUE(m.ok()) << m.status().ToString();
  EXPECT_EQ(m->format_version, 1);

  // Create with a first snapshot in the same commit.
  updates = CreateUpdates();
  updates.push_back(AddSnapshotUpdate{MakeSnapshot(1, std::nullopt, 1, 9)});
  updates.push_back(Main(1));
  m = CreateFromUpdates(updates, 5);
  ASSERT_TRUE(m.ok()) << m.status().ToString();
  EXPECT_EQ(m->current_snapshot_id, 1);
  EXPECT_EQ(m->last_updated_ms, 9);

  auto st = CreateFromUpdates({AddSchemaUpdate{testing::SampleSchema(), {}}, SetCurrentSchemaUpdate{kLastAdded}}, 5).status();
  EXPECT_EQ(st.code(), StatusCode::kInvalidArgument);
  EXPECT_NE(st.message().find("no location"), std::string::npos) << st.message();
  st = CreateFromUpdates({SetLocationUpdate{"s3://b/t"}}, 5).status();
  EXPECT_NE(st.message().find("no current schema"), std::string::npos) << st.message();
  st = CreateFromUpdates({SetLocationUpdate{"s3://b/t"}, AddPartitionSpecUpdate{testing::SampleSpec()}}, 5).status();
  EXPECT_NE(st.message().find("needs a current schema"), std::string::npos) << st.message();
  st = CreateFromUpdates({UpgradeFormatVersionUpdate{4}}, 5).status();
  EXPECT_EQ(st.code(), StatusCode::kUnsupported);
  auto v3 = CreateFromUpdates({UpgradeFormatVersionUpdate{3}, SetLocationUpdate{"s3://b/t"},
                               AddSchemaUpdate{testing::SampleSchema(), {}}, SetCurrentSchemaUpdate{kLastAdded}},
                              5);
  ASSERT_TRUE(v3.ok()) << v3.status().ToString();
  EXPECT_EQ(v3->format_version, 3);
  EXPECT_EQ(v3->next_row_id, 0);
}

// --- Replaying pyiceberg's commits ------------------------------------------------------

std::string File(int version) {
  char name[64];
  std::snprintf(name, sizeof(name), "pyiceberg-%05d.metadata.json", version);
  return name;
}

// The updates pyiceberg committed to go from version v-1 to v (see the data README).
std::vector<TableUpdate> CommitOf(int v, const TableMetadata& prev, const TableMetadata& next) {
  switch (v) {
    case 1:
    case 2:
    case 4:
      return {AddSnapshotUpdate{next.snapshots.back()}, SetSnapshotRefUpdate{"main", *next.Ref("main")}};
    case 3:
      return {AddSchemaUpdate{next.schemas.back(), {}}, SetCurrentSchemaUpdate{kLastAdded}};
    case 5:
      return {AddPartitionSpecUpdate{next.partition_specs.back()}, SetDefaultSpecUpdate{kLastAdded}};
    case 6: {
      SetPropertiesUpdate u;
      for (const auto& [k, val] : next.properties) {
        if (prev.Property(k) != std::string_view(val)) u.updates.emplace(k, val);
      }
      return {u};
    }
    case 7:
      return {SetSnapshotRefUpdate{"first", *next.Ref("first")}, SetSnapshotRefUpdate{"audit", *next.Ref("audit")}};
  }
  return {};
}

TEST(IcebergTableUpdate, ReplayingPyicebergCommitsReproducesItsMetadata) {
  for (int v = 1; v <= 7; ++v) {
    SCOPED_TRACE(File(v));
    TableMetadata prev = ParseDataFile(File(v - 1));
    TableMetadata next = ParseDataFile(File(v));
    ASSERT_FALSE(next.metadata_log.empty());
    const std::string previous_location = next.metadata_log.back().metadata_file;
    // Round-trip the updates through the REST wire form, as a REST server receives them.
    auto wire = TableUpdatesFromJson(TableUpdatesToJson(CommitOf(v, prev, next)));
    ASSERT_TRUE(wire.ok()) << wire.status().ToString();
    auto applied = ApplyUpdates(prev, *wire, next.last_updated_ms, previous_location);
    ASSERT_TRUE(applied.ok()) << applied.status().ToString();
    EXPECT_TRUE(*applied == next) << "ours:     " << SerializeTableMetadata(*applied) << "\n"
                                  << "pyiceberg: " << SerializeTableMetadata(next);
  }
}

TEST(IcebergTableUpdate, CreateFromUpdatesReproducesPyicebergCreate) {
  TableMetadata expected = ParseDataFile(File(0));
  std::vector<TableUpdate> updates = {
      AssignUuidUpdate{expected.table_uuid},     UpgradeFormatVersionUpdate{2},
      AddSchemaUpdate{expected.schemas[0], {}},  SetCurrentSchemaUpdate{kLastAdded},
      AddPartitionSpecUpdate{expected.partition_specs[0]}, SetDefaultSpecUpdate{kLastAdded},
      AddSortOrderUpdate{expected.sort_orders[0]}, SetDefaultSortOrderUpdate{kLastAdded},
      SetLocationUpdate{expected.location},
      SetPropertiesUpdate{{expected.properties.begin(), expected.properties.end()}}};
  auto created = CreateFromUpdates(updates, expected.last_updated_ms);
  ASSERT_TRUE(created.ok()) << created.status().ToString();
  EXPECT_TRUE(*created == expected) << SerializeTableMetadata(*created);
}

}  // namespace
}  // namespace floe::iceberg
