// TableRequirement: REST wire form and CheckRequirements (kConflict -> HTTP 409).
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <string>
#include <vector>

#include "floe/iceberg/table_metadata.h"
#include "floe/iceberg/table_requirement.h"
#include "iceberg_test_util.h"

namespace floe::iceberg {
namespace {

using nlohmann::json;

TableMetadata Final() { return testing::ParseDataFile("pyiceberg-00007.metadata.json"); }
TableMetadata Fresh() { return testing::ParseDataFile("pyiceberg-00000.metadata.json"); }

void ExpectConflict(const TableMetadata* m, const TableRequirement& r, const std::string& fragment) {
  Status st = CheckRequirements(m, {r});
  EXPECT_EQ(st.code(), StatusCode::kConflict) << st.ToString();
  EXPECT_NE(st.message().find(std::string(RequirementType(r))), std::string::npos) << st.message();
  EXPECT_NE(st.message().find(fragment), std::string::npos) << st.message();
}

TEST(IcebergTableRequirement, ParsesAndWritesEveryRestType) {
  const char* wire[] = {
      R"({"type":"assert-create"})",
      R"({"type":"assert-table-uuid","uuid":"9c12d441-03fe-4693-9a96-a0705ddf69c1"})",
      R"({"type":"assert-ref-snapshot-id","ref":"main","snapshot-id":3055729675574597004})",
      R"({"type":"assert-ref-snapshot-id","ref":"main","snapshot-id":null})",
      R"({"type":"assert-last-assigned-field-id","last-assigned-field-id":13})",
      R"({"type":"assert-current-schema-id","current-schema-id":1})",
      R"({"type":"assert-last-assigned-partition-id","last-assigned-partition-id":1002})",
      R"({"type":"assert-default-spec-id","default-spec-id":1})",
      R"({"type":"assert-default-sort-order-id","default-sort-order-id":1})",
  };
  json list = json::array();
  for (const char* text : wire) {
    SCOPED_TRACE(text);
    json in = json::parse(text);
    auto r = TableRequirementFromJson(in);
    ASSERT_TRUE(r.ok()) << r.status().ToString();
    EXPECT_EQ(RequirementType(*r), in["type"].get<std::string>());
    EXPECT_EQ(TableRequirementToJson(*r), in);
    list.push_back(in);
  }
  auto all = TableRequirementsFromJson(list);
  ASSERT_TRUE(all.ok()) << all.status().ToString();
  EXPECT_EQ(all->size(), 9u);
  EXPECT_EQ(TableRequirementsToJson(*all), list);

  // A missing snapshot-id means null, and null is always written.
  auto r = TableRequirementFromJson(json::parse(R"({"type":"assert-ref-snapshot-id","ref":"main"})"));
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  EXPECT_FALSE(std::get<AssertRefSnapshotId>(*r).snapshot_id.has_value());
  EXPECT_TRUE(TableRequirementToJson(*r).contains("snapshot-id"));
  EXPECT_TRUE(TableRequirementToJson(*r)["snapshot-id"].is_null());
}

TEST(IcebergTableRequirement, JsonErrors) {
  struct Case {
    const char* text;
    const char* fragment;
  };
  const Case cases[] = {
      {R"({"type":"assert-nothing"})", "unknown table requirement type 'assert-nothing'"},
      {R"({"ref":"main"})", "'type'"},
      {R"({"type":"assert-ref-snapshot-id","snapshot-id":1})", "assert-ref-snapshot-id: missing required key 'ref'"},
      {R"({"type":"assert-ref-snapshot-id","ref":"main","snapshot-id":"1"})", "'snapshot-id'"},
      {R"({"type":"assert-current-schema-id"})", "'current-schema-id'"},
      {R"({"type":"assert-table-uuid"})", "'uuid'"},
  };
  for (const auto& c : cases) {
    SCOPED_TRACE(c.text);
    auto r = TableRequirementFromJson(json::parse(c.text));
    ASSERT_FALSE(r.ok());
    EXPECT_EQ(r.status().code(), StatusCode::kInvalidArgument);
    EXPECT_NE(r.status().message().find(c.fragment), std::string::npos) << r.status().message();
  }
  auto list = TableRequirementsFromJson(json::parse(R"([{"type":"assert-create"},{"type":"x"}])"));
  ASSERT_FALSE(list.ok());
  EXPECT_NE(list.status().message().find("requirements[1]"), std::string::npos);
  EXPECT_FALSE(TableRequirementsFromJson(json::parse("{}")).ok());
}

TEST(IcebergTableRequirement, AllPassOnMatchingMetadata) {
  TableMetadata m = Final();
  std::vector<TableRequirement> reqs = {
      AssertTableUuid{m.table_uuid},
      AssertRefSnapshotId{"main", m.current_snapshot_id},
      AssertRefSnapshotId{"first", m.snapshots[0].snapshot_id},
      AssertRefSnapshotId{"not-yet", std::nullopt},
      AssertLastAssignedFieldId{13},
      AssertCurrentSchemaId{1},
      AssertLastAssignedPartitionId{1002},
      AssertDefaultSpecId{1},
      AssertDefaultSortOrderId{1},
  };
  Status st = CheckRequirements(&m, reqs);
  EXPECT_TRUE(st.ok()) << st.ToString();
  EXPECT_TRUE(CheckRequirements(&m, {}).ok());
}

TEST(IcebergTableRequirement, FailuresAreConflictsNamingTheActualValue) {
  TableMetadata m = Final();
  const std::string current = std::to_string(*m.current_snapshot_id);
  ExpectConflict(&m, AssertCreate{}, "Requirement failed: table already exists");
  ExpectConflict(&m, AssertTableUuid{"00000000-0000-4000-8000-000000000000"},
                 "Requirement failed: UUID does not match: expected 00000000-0000-4000-8000-000000000000 != " +
                     m.table_uuid);
  ExpectConflict(&m, AssertRefSnapshotId{"main", 42}, "branch main has changed: expected id 42 != " + current);
  ExpectConflict(&m, AssertRefSnapshotId{"first", 42}, "tag first has changed");
  ExpectConflict(&m, AssertRefSnapshotId{"main", std::nullopt}, "branch main was created concurrently");
  ExpectConflict(&m, AssertRefSnapshotId{"gone", 42}, "branch or tag gone is missing, expected 42");
  ExpectConflict(&m, AssertLastAssignedFieldId{12}, "Requirement failed: last assigned field id changed: expected id 12 != 13");
  ExpectConflict(&m, AssertCurrentSchemaId{0}, "current schema changed: expected id 0 != 1");
  ExpectConflict(&m, AssertLastAssignedPartitionId{1000}, "last assigned partition id changed: expected id 1000 != 1002");
  ExpectConflict(&m, AssertDefaultSpecId{0}, "default partition spec changed: expected id 0 != 1");
  ExpectConflict(&m, AssertDefaultSortOrderId{0}, "default sort order changed: expected id 0 != 1");
  // The first failing requirement is reported.
  Status st = CheckRequirements(&m, {AssertCurrentSchemaId{1}, AssertDefaultSpecId{5}, AssertCurrentSchemaId{9}});
  EXPECT_NE(st.message().find("assert-default-spec-id"), std::string::npos) << st.message();
}

// Floe's first commit to a fresh table: main must not exist yet.
TEST(IcebergTableRequirement, RefSnapshotIdNullOnTableWithoutSnapshots) {
  TableMetadata fresh = Fresh();
  EXPECT_TRUE(CheckRequirements(&fresh, {AssertRefSnapshotId{"main", std::nullopt}}).ok());
  ExpectConflict(&fresh, AssertRefSnapshotId{"main", 1}, "is missing, expected 1");
}

TEST(IcebergTableRequirement, UuidComparisonIgnoresCase) {
  TableMetadata m = Final();
  std::string upper = m.table_uuid;
  for (char& c : upper) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  EXPECT_TRUE(CheckRequirements(&m, {AssertTableUuid{upper}}).ok());
}

TEST(IcebergTableRequirement, MissingTable) {
  EXPECT_TRUE(CheckRequirements(nullptr, {AssertCreate{}}).ok());
  ExpectConflict(nullptr, AssertRefSnapshotId{"main", std::nullopt}, "table does not exist");
  ExpectConflict(nullptr, AssertTableUuid{"9c12d441-03fe-4693-9a96-a0705ddf69c1"}, "table does not exist");
  ExpectConflict(nullptr, AssertCurrentSchemaId{0}, "table does not exist");
}

}  // namespace
}  // namespace floe::iceberg
