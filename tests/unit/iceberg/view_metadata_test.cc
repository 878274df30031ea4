// View metadata (view format v1) and the view updates of the REST API, checked against the
// view spec's example file and the rules of Java's ViewMetadata.Builder (view_update.h).
#include "floe/iceberg/view_metadata.h"

#include <gtest/gtest.h>

#include "floe/iceberg/view_update.h"
#include "iceberg_test_util.h"

namespace floe::iceberg {
namespace {

using nlohmann::json;

// The example of the view spec (format/view-spec.md, "Appendix A"), two versions.
constexpr const char* kSpecExample = R"({
  "view-uuid": "fa6506c3-7681-40c8-86dc-e36561f83385",
  "format-version" : 1,
  "location" : "s3://bucket/warehouse/default.db/event_agg",
  "current-version-id" : 2,
  "properties" : {"comment" : "Daily event counts"},
  "versions" : [ {
    "version-id" : 1, "timestamp-ms" : 1573518431292, "schema-id" : 1,
    "default-catalog" : "prod", "default-namespace" : [ "default" ],
    "summary" : {"engine-name" : "Spark", "engine-version" : "3.3.2"},
    "representations" : [ {"type" : "sql", "sql" : "SELECT COUNT(1), CAST(event_ts AS DATE) FROM events",
                           "dialect" : "spark"} ]
  }, {
    "version-id" : 2, "timestamp-ms" : 1573518981593, "schema-id" : 1,
    "default-catalog" : "prod", "default-namespace" : [ "default" ],
    "summary" : {"engine-name" : "Spark", "engine-version" : "3.3.2"},
    "representations" : [ {"type" : "sql", "sql" : "SELECT COUNT(1), CAST(event_ts AS DATE) FROM prod.default.events",
                           "dialect" : "spark"} ]
  } ],
  "schemas": [ {
    "schema-id": 1, "type" : "struct",
    "fields" : [ {"id" : 1, "name" : "event_count", "required" : false, "type" : "int", "doc" : "Count of events"},
                 {"id" : 2, "name" : "event_date", "required" : false, "type" : "date"} ]
  } ],
  "version-log" : [ {"timestamp-ms" : 1573518431300, "version-id" : 1},
                    {"timestamp-ms" : 1573518981600, "version-id" : 2} ]
})";

ViewVersion Version(const std::string& sql, const std::string& dialect = "spark", int schema_id = kLastAdded,
                    std::int64_t ts = 100) {
  ViewVersion v;
  v.version_id = 1;
  v.schema_id = schema_id;
  v.timestamp_ms = ts;
  v.summary = {{"engine-name", "test"}};
  v.representations = {ViewRepresentation{"sql", sql, dialect, {}}};
  v.default_namespace = {"ns"};
  return v;
}

ViewMetadata MakeView(std::map<std::string, std::string, std::less<>> properties = {}) {
  NewView view{"file:///wh/ns/v", testing::SampleSchema(), Version("select 1"), std::move(properties)};
  auto m = NewViewMetadata(view, 50);
  EXPECT_TRUE(m.ok()) << m.status().ToString();
  return m.ok() ? std::move(m).value() : ViewMetadata{};
}

// A replace as Java's client sends it: the schema, the version with schema-id -1, current -1.
std::vector<ViewUpdate> Replace(const schema::Schema& schema, ViewVersion version) {
  return {AddSchemaUpdate{schema, std::nullopt}, AddViewVersionUpdate{std::move(version)},
          SetCurrentViewVersionUpdate{kLastAdded}};
}

schema::Schema OtherSchema() {
  schema::Schema s;
  s.fields = {testing::Field(1, "n", testing::P(schema::TypeId::kLong), true)};
  return s;
}

TEST(IcebergViewMetadata, ParsesTheSpecExampleAndRoundTrips) {
  auto m = ParseViewMetadata(kSpecExample);
  ASSERT_TRUE(m.ok()) << m.status().ToString();
  EXPECT_EQ(m->view_uuid, "fa6506c3-7681-40c8-86dc-e36561f83385");
  EXPECT_EQ(m->current_version_id, 2);
  ASSERT_NE(m->CurrentVersion(), nullptr);
  EXPECT_EQ(m->CurrentVersion()->default_catalog, "prod");
  EXPECT_EQ(m->CurrentVersion()->representations[0].dialect, "spark");
  ASSERT_NE(m->CurrentSchema(), nullptr);
  EXPECT_EQ(m->CurrentSchema()->fields.size(), 2u);
  EXPECT_EQ(m->version_log.size(), 2u);
  EXPECT_EQ(m->Property("comment"), "Daily event counts");
  auto again = ParseViewMetadata(SerializeViewMetadata(*m));
  ASSERT_TRUE(again.ok()) << again.status().ToString();
  EXPECT_TRUE(*again == *m);
}

TEST(IcebergViewMetadata, RefusesBrokenReferencesAndOtherFormatVersions) {
  json j = json::parse(kSpecExample);
  j["current-version-id"] = 3;
  EXPECT_NE(ParseViewMetadata(j.dump()).status().message().find("current-version-id 3"), std::string::npos);
  j = json::parse(kSpecExample);
  j["versions"][0]["schema-id"] = 7;
  EXPECT_NE(ParseViewMetadata(j.dump()).status().message().find("schema id 7"), std::string::npos);
  j = json::parse(kSpecExample);
  j["versions"][1].erase("schema-id");
  auto missing = ParseViewMetadata(j.dump()).status();
  EXPECT_NE(missing.message().find("versions[1]"), std::string::npos) << missing.message();
  j = json::parse(kSpecExample);
  j["format-version"] = 2;
  EXPECT_EQ(ParseViewMetadata(j.dump()).status().code(), StatusCode::kUnsupported);
  // A representation of another type is kept as it was.
  j = json::parse(kSpecExample);
  j["versions"][0]["representations"].push_back({{"type", "substrait"}, {"plan", "…"}});
  auto other = ParseViewMetadata(j.dump());
  ASSERT_TRUE(other.ok()) << other.status().ToString();
  EXPECT_EQ(ViewMetadataToJson(*other)["versions"][0]["representations"][1]["plan"], "…");
}

TEST(IcebergViewMetadata, NewViewStartsAtSchemaZeroAndVersionOne) {
  ViewMetadata m = MakeView({{"comment", "c"}});
  EXPECT_FALSE(m.view_uuid.empty());
  EXPECT_EQ(m.location, "file:///wh/ns/v");
  ASSERT_EQ(m.schemas.size(), 1u);
  EXPECT_EQ(m.schemas[0].schema_id, 0);
  ASSERT_EQ(m.versions.size(), 1u);
  EXPECT_EQ(m.current_version_id, 1);
  EXPECT_EQ(m.versions[0].schema_id, 0);
  EXPECT_EQ(m.version_log, (std::vector<ViewHistoryEntry>{{100, 1}}));  // at the version's own timestamp
  EXPECT_EQ(m.Property("comment"), "c");

  ViewVersion twice = Version("select 1");
  twice.representations.push_back({"sql", "SELECT 1", "SPARK", {}});
  auto dup = NewViewMetadata({"file:///wh/v", testing::SampleSchema(), twice, {}}, 50);
  EXPECT_NE(dup.status().message().find("Invalid view version: Cannot add multiple queries for dialect spark"),
            std::string::npos)
      << dup.status().message();
}

TEST(IcebergViewUpdate, ReplaceAddsAVersionAndLogsIt) {
  ViewMetadata base = MakeView();
  bool changed = false;
  auto m = ApplyViewUpdates(base, Replace(OtherSchema(), Version("select 2", "spark", kLastAdded, 200)), 300, &changed);
  ASSERT_TRUE(m.ok()) << m.status().ToString();
  EXPECT_TRUE(changed);
  EXPECT_EQ(m->current_version_id, 2);
  EXPECT_EQ(m->CurrentVersion()->schema_id, 1);
  EXPECT_EQ(m->schemas.size(), 2u);
  EXPECT_EQ(m->version_log.back(), (ViewHistoryEntry{200, 2}));
  EXPECT_EQ(m->view_uuid, base.view_uuid);

  // The same schema and query again: nothing to do, no new metadata file.
  auto same = ApplyViewUpdates(*m, Replace(OtherSchema(), Version("select 2", "spark", 1, 999)), 400, &changed);
  ASSERT_TRUE(same.ok()) << same.status().ToString();
  EXPECT_FALSE(changed);
  EXPECT_TRUE(*same == *m);

  // Back to version 1 (reused, not added): logged at now.
  auto back = ApplyViewUpdates(*m, {SetCurrentViewVersionUpdate{1}}, 500, &changed);
  ASSERT_TRUE(back.ok()) << back.status().ToString();
  EXPECT_EQ(back->current_version_id, 1);
  EXPECT_EQ(back->version_log.back(), (ViewHistoryEntry{500, 1}));
}

TEST(IcebergViewUpdate, DroppingADialectNeedsTheProperty) {
  ViewMetadata base = MakeView();
  auto dropped = ApplyViewUpdates(base, Replace(OtherSchema(), Version("select 2", "trino")), 300);
  EXPECT_EQ(dropped.status().code(), StatusCode::kInvalidArgument);
  EXPECT_NE(dropped.status().message().find("Cannot replace view due to loss of view dialects"), std::string::npos)
      << dropped.status().message();
  auto allowed = ApplyViewUpdates(base,
                                  {SetPropertiesUpdate{{{"replace.drop-dialect.allowed", "true"}}},
                                   AddSchemaUpdate{OtherSchema(), std::nullopt},
                                   AddViewVersionUpdate{Version("select 2", "trino")}, SetCurrentViewVersionUpdate{}},
                                  300);
  ASSERT_TRUE(allowed.ok()) << allowed.status().ToString();
  EXPECT_EQ(allowed->CurrentVersion()->representations[0].dialect, "trino");
}

TEST(IcebergViewUpdate, OldVersionsExpireBeyondTheHistorySize) {
  ViewMetadata m = MakeView({{"version.history.num-entries", "2"}});
  for (int i = 2; i <= 4; ++i) {
    // The schema is the current one: Java's client sends the version with its id, no add-schema.
    auto next = ApplyViewUpdates(
        m, {AddViewVersionUpdate{Version("select " + std::to_string(i), "spark", 0)}, SetCurrentViewVersionUpdate{}},
        100 * i);
    ASSERT_TRUE(next.ok()) << next.status().ToString();
    m = std::move(next).value();
  }
  ASSERT_EQ(m.versions.size(), 2u);
  EXPECT_EQ(m.versions[0].version_id, 3);
  EXPECT_EQ(m.versions[1].version_id, 4);
  EXPECT_EQ(m.current_version_id, 4);
  for (const auto& e : m.version_log) EXPECT_GE(e.version_id, 3);

  auto bad = ApplyViewUpdates(m, {SetPropertiesUpdate{{{"version.history.num-entries", "x"}}}}, 1000);
  EXPECT_EQ(bad.status().code(), StatusCode::kInvalidArgument);
}

TEST(IcebergViewUpdate, RefusesWhatJavasBuilderRefuses) {
  ViewMetadata base = MakeView();
  auto uuid = ApplyViewUpdates(base, {AssignUuidUpdate{"2cbc1f46-9ba4-4ff0-8a2b-c4b8a5d0e1a2"}}, 1);
  EXPECT_NE(uuid.status().message().find("Cannot reassign uuid"), std::string::npos) << uuid.status().message();
  EXPECT_NE(uuid.status().message().find("view update 0 (assign-uuid)"), std::string::npos);
  EXPECT_TRUE(ApplyViewUpdates(base, {AssignUuidUpdate{base.view_uuid}}, 1).ok());
  EXPECT_EQ(ApplyViewUpdates(base, {UpgradeFormatVersionUpdate{2}}, 1).status().code(), StatusCode::kUnsupported);
  EXPECT_TRUE(ApplyViewUpdates(base, {UpgradeFormatVersionUpdate{1}}, 1).ok());
  auto unknown = ApplyViewUpdates(base, {SetCurrentViewVersionUpdate{9}}, 1);
  EXPECT_NE(unknown.status().message().find("Cannot set current version to unknown version: 9"), std::string::npos);
  auto no_schema = ApplyViewUpdates(base, {AddViewVersionUpdate{Version("select 3", "spark", 5)}}, 1);
  EXPECT_NE(no_schema.status().message().find("unknown schema: 5"), std::string::npos);

  EXPECT_TRUE(CheckViewRequirements(base, {AssertViewUuid{base.view_uuid}}).ok());
  Status mismatch = CheckViewRequirements(base, {AssertViewUuid{"other"}});
  EXPECT_EQ(mismatch.code(), StatusCode::kConflict);
  EXPECT_EQ(mismatch.message().rfind("Requirement failed: view UUID does not match", 0), 0u) << mismatch.message();
}

TEST(IcebergViewUpdate, WireForms) {
  auto add = ViewUpdateFromJson(json::parse(R"({"action": "add-view-version", "view-version": {
      "version-id": 2, "schema-id": -1, "timestamp-ms": 5, "summary": {}, "default-namespace": ["ns"],
      "representations": [{"type": "sql", "sql": "select 1", "dialect": "spark"}]}})"));
  ASSERT_TRUE(add.ok()) << add.status().ToString();
  ASSERT_TRUE(std::holds_alternative<AddViewVersionUpdate>(*add));
  EXPECT_EQ(std::get<AddViewVersionUpdate>(*add).version.schema_id, -1);
  EXPECT_EQ(ViewUpdateToJson(*add)["view-version"]["representations"][0]["sql"], "select 1");

  auto props = ViewUpdateFromJson(json::parse(R"({"action": "set-properties", "updates": {"a": "b"}})"));
  ASSERT_TRUE(props.ok()) << props.status().ToString();
  EXPECT_TRUE(std::holds_alternative<SetPropertiesUpdate>(*props));
  auto current = ViewUpdateFromJson(json::parse(R"({"action": "set-current-view-version", "view-version-id": -1})"));
  ASSERT_TRUE(current.ok());
  EXPECT_EQ(std::get<SetCurrentViewVersionUpdate>(*current).version_id, kLastAdded);

  auto snapshot = ViewUpdateFromJson(json::parse(R"({"action": "remove-snapshots", "snapshot-ids": [1]})"));
  EXPECT_NE(snapshot.status().message().find("does not apply to views"), std::string::npos)
      << snapshot.status().message();
  EXPECT_TRUE(ViewRequirementFromJson(json::parse(R"({"type": "assert-view-uuid", "uuid": "u"})")).ok());
  EXPECT_FALSE(ViewRequirementFromJson(json::parse(R"({"type": "assert-table-uuid", "uuid": "u"})")).ok());
}

}  // namespace
}  // namespace floe::iceberg
