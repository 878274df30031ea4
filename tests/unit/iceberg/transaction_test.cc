// iceberg::Transaction: one commit's requirements (about the base metadata, each once) and
// updates (each change planned on the metadata the ones before it lead to).
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <filesystem>
#include <fstream>
#include <random>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "floe/avro/container_file.h"
#include "floe/iceberg/fast_append.h"
#include "floe/iceberg/manifest_internal.h"
#include "floe/iceberg/table_requirement.h"
#include "floe/iceberg/table_scan.h"
#include "floe/iceberg/table_update.h"
#include "floe/iceberg/transaction.h"
#include "iceberg_test_util.h"
#include "support/temp_dir.h"

namespace floe::iceberg {
namespace {

using nlohmann::json;
using testing::Field;
using testing::P;

class TempDir : public floe::test_support::TempDir {
 public:
  TempDir() : floe::test_support::TempDir("floe-transaction") {}
};

// SampleSchema (field ids 1..7) plus an optional string column 8.
schema::Schema WithNoteSchema() {
  schema::Schema s = testing::SampleSchema();
  s.fields.push_back(Field(8, "note", P(schema::TypeId::kString)));
  return s;
}

std::string LocalPath(const std::string& uri) { return uri.starts_with("file://") ? uri.substr(7) : uri; }

std::string ReadFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

class IcebergTransaction : public ::testing::Test {
 protected:
  void SetUp() override {
    auto m = NewTableMetadata(testing::SampleSchema(), schema::PartitionSpec{}, schema::SortOrder{},
                              dir_.path().string());
    ASSERT_TRUE(m.ok()) << m.status().ToString();
    metadata_ = std::move(m).value();
  }

  DataFile File(const std::string& name, std::int64_t records) {
    DataFile f;
    f.file_path = "file://" + (dir_.path() / "data" / (name + ".parquet")).string();
    f.record_count = records;
    f.file_size_in_bytes = 100 * records;
    f.value_counts = {{1, records}};
    return f;
  }

  // A commit by someone else, straight to metadata_.
  std::int64_t Append(const std::vector<DataFile>& files) {
    auto commit = PrepareFastAppend(metadata_, AppendFiles{files, {}});
    EXPECT_TRUE(commit.ok()) << commit.status().ToString();
    if (!commit.ok()) return 0;
    EXPECT_TRUE(CheckRequirements(&metadata_, commit->requirements).ok());
    auto next = ApplyUpdates(metadata_, commit->updates, NowMillis());
    EXPECT_TRUE(next.ok()) << next.status().ToString();
    if (next.ok()) metadata_ = std::move(next).value();
    return commit->snapshot_id;
  }

  // What the catalog does with a transaction: requirements against `table`, then updates.
  static Result<TableMetadata> Commit(const TableMetadata& table, const Transaction& tx) {
    FLOE_RETURN_IF_ERROR(CheckRequirements(&table, tx.requirements()));
    return ApplyUpdates(table, tx.updates(), NowMillis());
  }

  static std::vector<std::string> Actions(const Transaction& tx) {
    std::vector<std::string> out;
    for (const auto& u : tx.updates()) out.emplace_back(UpdateAction(u));
    return out;
  }

  TempDir dir_;
  TableMetadata metadata_;
};

TEST_F(IcebergTransaction, SchemaChangeAlone) {
  Transaction tx(metadata_);
  EXPECT_TRUE(tx.empty());
  ASSERT_TRUE(tx.SetSchema(WithNoteSchema(), 8).ok());
  EXPECT_FALSE(tx.empty());

  EXPECT_EQ(TableRequirementsToJson(tx.requirements()), json::parse(R"([
    {"type": "assert-current-schema-id", "current-schema-id": 0},
    {"type": "assert-last-assigned-field-id", "last-assigned-field-id": 7}])"));
  EXPECT_EQ(Actions(tx), (std::vector<std::string>{"add-schema", "set-current-schema"}));
  const auto& add = std::get<AddSchemaUpdate>(tx.updates()[0]);
  EXPECT_EQ(add.schema.schema_id, 1);
  EXPECT_EQ(add.last_column_id, 8);
  EXPECT_TRUE(SameSchema(add.schema, WithNoteSchema()));
  EXPECT_EQ(std::get<SetCurrentSchemaUpdate>(tx.updates()[1]).schema_id, kLastAdded);

  EXPECT_EQ(tx.base().current_schema_id, 0);
  EXPECT_EQ(tx.current().current_schema_id, 1);
  EXPECT_EQ(tx.current().last_column_id, 8);

  auto after = Commit(metadata_, tx);
  ASSERT_TRUE(after.ok()) << after.status().ToString();
  EXPECT_EQ(after->current_schema_id, 1);
  EXPECT_EQ(after->last_column_id, 8);
  EXPECT_TRUE(SameSchema(*after->CurrentSchema(), WithNoteSchema()));
  EXPECT_EQ(after->schemas.size(), 2u);
}

TEST_F(IcebergTransaction, SchemaChangeThenFastAppendWritesWithTheNewSchema) {
  const std::int64_t s1 = Append({File("a", 3)});
  Transaction tx(metadata_);
  ASSERT_TRUE(tx.SetSchema(WithNoteSchema(), 8).ok());
  DataFile b = File("b", 4);
  b.value_counts[8] = 4;
  auto s2 = tx.FastAppend(AppendFiles{{b}, {{"floe.commit-id", "c-1"}}});
  ASSERT_TRUE(s2.ok()) << s2.status().ToString();

  EXPECT_EQ(TableRequirementsToJson(tx.requirements()), json::parse(R"([
    {"type": "assert-current-schema-id", "current-schema-id": 0},
    {"type": "assert-last-assigned-field-id", "last-assigned-field-id": 7},
    {"type": "assert-table-uuid", "uuid": ")" + metadata_.table_uuid + R"("},
    {"type": "assert-ref-snapshot-id", "ref": "main", "snapshot-id": )" + std::to_string(s1) + "}]"));
  EXPECT_EQ(Actions(tx),
            (std::vector<std::string>{"add-schema", "set-current-schema", "add-snapshot", "set-snapshot-ref"}));

  auto after = Commit(metadata_, tx);
  ASSERT_TRUE(after.ok()) << after.status().ToString();
  EXPECT_EQ(after->current_schema_id, 1);
  const Snapshot* snap = after->CurrentSnapshot();
  ASSERT_NE(snap, nullptr);
  EXPECT_EQ(snap->snapshot_id, *s2);
  EXPECT_EQ(snap->schema_id, 1);
  EXPECT_EQ(snap->parent_snapshot_id, s1);
  EXPECT_EQ(snap->sequence_number, 2);
  EXPECT_EQ(snap->SummaryValue("floe.commit-id"), "c-1");
  EXPECT_EQ(snap->SummaryValue("total-records"), "7");
  // current() previews the same table.
  EXPECT_EQ(tx.current().current_schema_id, 1);
  EXPECT_EQ(tx.current().current_snapshot_id, *s2);

  // The new manifest was written with the new schema.
  auto manifests = ReadManifestList(snap->manifest_list);
  ASSERT_TRUE(manifests.ok()) << manifests.status().ToString();
  ASSERT_EQ(manifests->size(), 2u);
  const ManifestFile& added = manifests->front();
  EXPECT_EQ(added.added_snapshot_id, *s2);
  auto reader = avro::ContainerFileReader::Open(ReadFile(LocalPath(added.manifest_path)));
  ASSERT_TRUE(reader.ok()) << reader.status().ToString();
  EXPECT_EQ((*reader)->metadata().at("schema-id"), "1");
  EXPECT_NE((*reader)->metadata().at("schema").find("\"note\""), std::string::npos);
  auto entries = ReadManifest(added, *after->CurrentSchema(), *after->DefaultSpec());
  ASSERT_TRUE(entries.ok()) << entries.status().ToString();
  ASSERT_EQ(entries->size(), 1u);
  EXPECT_EQ(entries->front().data_file.value_counts.at(8), 4);

  auto live = LiveDataFiles(*after);
  ASSERT_TRUE(live.ok()) << live.status().ToString();
  EXPECT_EQ(live->size(), 2u);
}

TEST_F(IcebergTransaction, ReplaceFiles) {
  const DataFile a = File("a", 1), b = File("b", 2), ab = File("ab", 3);
  const std::int64_t s1 = Append({a, b});
  Transaction tx(metadata_);
  auto s2 = tx.ReplaceFiles({a.file_path, b.file_path}, {ab}, {{"floe.compaction", "1"}});
  ASSERT_TRUE(s2.ok()) << s2.status().ToString();
  EXPECT_EQ(TableRequirementsToJson(tx.requirements()), json::parse(R"([
    {"type": "assert-table-uuid", "uuid": ")" + metadata_.table_uuid + R"("},
    {"type": "assert-ref-snapshot-id", "ref": "main", "snapshot-id": )" + std::to_string(s1) + "}]"));
  EXPECT_EQ(Actions(tx), (std::vector<std::string>{"add-snapshot", "set-snapshot-ref"}));

  auto after = Commit(metadata_, tx);
  ASSERT_TRUE(after.ok()) << after.status().ToString();
  const Snapshot* snap = after->CurrentSnapshot();
  ASSERT_NE(snap, nullptr);
  EXPECT_EQ(snap->snapshot_id, *s2);
  EXPECT_EQ(snap->operation(), "replace");
  EXPECT_EQ(snap->SummaryValue("floe.compaction"), "1");
  auto live = LiveDataFiles(*after);
  ASSERT_TRUE(live.ok()) << live.status().ToString();
  ASSERT_EQ(live->size(), 1u);
  EXPECT_EQ(live->front().file_path, ab.file_path);
}

// A replace planned on current() sees a file appended earlier in the same transaction; its
// requirements are still about base().
TEST_F(IcebergTransaction, ReplaceFilesAppendedInTheSameTransaction) {
  const DataFile a = File("a", 1), b = File("b", 2), ab = File("ab", 3);
  const std::int64_t s1 = Append({a});
  Transaction tx(metadata_);
  auto s2 = tx.FastAppend(AppendFiles{{b}, {}});
  ASSERT_TRUE(s2.ok()) << s2.status().ToString();
  auto s3 = tx.ReplaceFiles({a.file_path, b.file_path}, {ab});
  ASSERT_TRUE(s3.ok()) << s3.status().ToString();
  EXPECT_EQ(TableRequirementsToJson(tx.requirements()), json::parse(R"([
    {"type": "assert-table-uuid", "uuid": ")" + metadata_.table_uuid + R"("},
    {"type": "assert-ref-snapshot-id", "ref": "main", "snapshot-id": )" + std::to_string(s1) + "}]"));

  auto after = Commit(metadata_, tx);
  ASSERT_TRUE(after.ok()) << after.status().ToString();
  EXPECT_EQ(after->current_snapshot_id, *s3);
  EXPECT_EQ(after->SnapshotById(*s3)->parent_snapshot_id, *s2);
  EXPECT_EQ(after->SnapshotById(*s2)->parent_snapshot_id, s1);
  auto live = LiveDataFiles(*after);
  ASSERT_TRUE(live.ok()) << live.status().ToString();
  ASSERT_EQ(live->size(), 1u);
  EXPECT_EQ(live->front().file_path, ab.file_path);
}

TEST_F(IcebergTransaction, RequirementsHoldAgainstBaseAndFailWhenMainMoved) {
  Append({File("a", 1)});
  const TableMetadata base = metadata_;
  Transaction tx(base);
  ASSERT_TRUE(tx.SetSchema(WithNoteSchema(), 8).ok());
  ASSERT_TRUE(tx.FastAppend(AppendFiles{{File("b", 1)}, {}}).ok());
  EXPECT_TRUE(CheckRequirements(&base, tx.requirements()).ok());

  Append({File("c", 1)});  // a concurrent writer moves main
  const Status st = CheckRequirements(&metadata_, tx.requirements());
  EXPECT_EQ(st.code(), StatusCode::kConflict) << st.ToString();
  EXPECT_NE(st.ToString().find("assert-ref-snapshot-id"), std::string::npos) << st.ToString();
}

TEST_F(IcebergTransaction, RequirementsFailWhenTheSchemaChanged) {
  Transaction tx(metadata_);
  ASSERT_TRUE(tx.SetSchema(WithNoteSchema(), 8).ok());
  Transaction other(metadata_);  // a concurrent schema change
  schema::Schema s = testing::SampleSchema();
  s.fields.push_back(Field(8, "other", P(schema::TypeId::kLong)));
  ASSERT_TRUE(other.SetSchema(s, 8).ok());
  auto changed = Commit(metadata_, other);
  ASSERT_TRUE(changed.ok()) << changed.status().ToString();
  const Status st = CheckRequirements(&*changed, tx.requirements());
  EXPECT_EQ(st.code(), StatusCode::kConflict) << st.ToString();
}

TEST_F(IcebergTransaction, NoDuplicateRequirements) {
  const DataFile a = File("a", 1), b = File("b", 2), c = File("c", 3);
  const std::int64_t s1 = Append({a});
  Transaction tx(metadata_);
  ASSERT_TRUE(tx.SetSchema(WithNoteSchema(), 8).ok());
  auto s2 = tx.FastAppend(AppendFiles{{b}, {}});
  ASSERT_TRUE(s2.ok()) << s2.status().ToString();
  auto s3 = tx.FastAppend(AppendFiles{{c}, {}});
  ASSERT_TRUE(s3.ok()) << s3.status().ToString();
  schema::Schema again = WithNoteSchema();
  again.fields.push_back(Field(9, "more", P(schema::TypeId::kInt)));
  ASSERT_TRUE(tx.SetSchema(again, 9).ok());
  ASSERT_TRUE(tx.ReplaceFiles({b.file_path, c.file_path}, {File("bc", 5)}).ok());
  ASSERT_TRUE(tx.SetProperties({{"k", "v"}}).ok());

  EXPECT_EQ(TableRequirementsToJson(tx.requirements()), json::parse(R"([
    {"type": "assert-current-schema-id", "current-schema-id": 0},
    {"type": "assert-last-assigned-field-id", "last-assigned-field-id": 7},
    {"type": "assert-table-uuid", "uuid": ")" + metadata_.table_uuid + R"("},
    {"type": "assert-ref-snapshot-id", "ref": "main", "snapshot-id": )" + std::to_string(s1) + "}]"));
  std::set<std::string> types;
  for (const auto& r : tx.requirements()) EXPECT_TRUE(types.insert(std::string(RequirementType(r))).second);

  auto after = Commit(metadata_, tx);
  ASSERT_TRUE(after.ok()) << after.status().ToString();
  EXPECT_EQ(after->current_schema_id, 2);
  EXPECT_EQ(after->last_column_id, 9);
  EXPECT_EQ(after->SnapshotById(*s3)->parent_snapshot_id, *s2);
  EXPECT_EQ(after->CurrentSnapshot()->schema_id, 2);
  EXPECT_EQ(after->Property("k"), "v");
}

TEST_F(IcebergTransaction, SetSchemaOfTheCurrentSchemaIsANoOp) {
  Transaction tx(metadata_);
  schema::Schema same = testing::SampleSchema();
  same.schema_id = 5;  // ids do not make schemas differ
  ASSERT_TRUE(tx.SetSchema(same, 7).ok());
  EXPECT_TRUE(tx.empty());
  EXPECT_TRUE(tx.requirements().empty());

  ASSERT_TRUE(tx.SetSchema(WithNoteSchema(), 8).ok());
  ASSERT_TRUE(tx.SetSchema(WithNoteSchema(), 8).ok());  // now current(): nothing more
  EXPECT_EQ(tx.updates().size(), 2u);
  EXPECT_EQ(tx.requirements().size(), 2u);
}

// Going back to an earlier schema reuses its id, as add-schema does.
TEST_F(IcebergTransaction, SetSchemaReusesAnEqualOlderSchema) {
  Transaction first(metadata_);
  ASSERT_TRUE(first.SetSchema(WithNoteSchema(), 8).ok());
  auto evolved = Commit(metadata_, first);
  ASSERT_TRUE(evolved.ok()) << evolved.status().ToString();

  Transaction tx(*evolved);
  ASSERT_TRUE(tx.SetSchema(testing::SampleSchema(), 8).ok());
  EXPECT_EQ(std::get<AddSchemaUpdate>(tx.updates()[0]).schema.schema_id, 0);
  EXPECT_EQ(tx.current().current_schema_id, 0);
  EXPECT_EQ(tx.current().schemas.size(), 2u);
}

TEST_F(IcebergTransaction, SetProperties) {
  Transaction tx(metadata_);
  ASSERT_TRUE(tx.SetProperties({}).ok());
  EXPECT_TRUE(tx.empty());
  ASSERT_TRUE(tx.SetProperties({{"owner", "floe"}}).ok());
  EXPECT_TRUE(tx.requirements().empty());
  EXPECT_EQ(Actions(tx), (std::vector<std::string>{"set-properties"}));
  EXPECT_EQ(tx.current().Property("owner"), "floe");
  EXPECT_FALSE(tx.base().Property("owner").has_value());
}

// A change that fails leaves the transaction as it was.
TEST_F(IcebergTransaction, FailedChangesLeaveNoTrace) {
  const DataFile a = File("a", 1);
  Append({a});
  Transaction tx(metadata_);
  schema::Schema broken = WithNoteSchema();
  broken.identifier_field_ids = {99};  // not a field of the schema
  const Status invalid = tx.SetSchema(broken, 8);
  EXPECT_EQ(invalid.code(), StatusCode::kInvalidArgument) << invalid.ToString();
  auto missing = tx.ReplaceFiles({File("nope", 1).file_path}, {File("n", 1)});
  EXPECT_EQ(missing.status().code(), StatusCode::kConflict) << missing.status().ToString();
  EXPECT_TRUE(tx.empty());
  EXPECT_TRUE(tx.requirements().empty());
  EXPECT_TRUE(tx.current() == tx.base());
}

}  // namespace
}  // namespace floe::iceberg
