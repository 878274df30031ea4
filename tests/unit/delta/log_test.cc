// Log replay and commits: JSON commits, checkpoints, conflicts, txn, removes, bad files.
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <filesystem>
#include <fstream>

#include "delta_test_util.h"
#include "floe/delta/delta_log.h"
#include "floe/delta/log_store_internal.h"

namespace floe::delta {
namespace {

using testing::TempTable;

schema::Schema TwoColumns() {
  schema::Schema s;
  s.fields.push_back({1, "id", true, schema::Type::Primitive(schema::TypeId::kLong), "", std::nullopt, std::nullopt});
  s.fields.push_back({2, "p", false, schema::Type::Primitive(schema::TypeId::kString), "", std::nullopt, std::nullopt});
  return s;
}

AddFile File(const std::string& name, std::optional<std::string> p = "a") {
  AddFile f;
  f.path = "data/p=" + p.value_or("null") + "/" + name + ".parquet";
  f.partition_values["p"] = std::move(p);
  f.size = 100;
  f.modification_time_ms = 1;
  f.stats_json = R"({"numRecords":1})";
  return f;
}

class DeltaLog : public TempTable {
 protected:
  std::int64_t CommitOrDie(const Commit& c, int interval = 10) {
    auto state = LoadState(*io_);
    EXPECT_TRUE(state.ok()) << state.status().ToString();
    auto v = CommitVersion(*io_, *state, c, interval);
    EXPECT_TRUE(v.ok()) << v.status().ToString();
    return v.ok() ? *v : -1;
  }
  Commit Create() {
    Commit c;
    c.schema = TwoColumns();
    c.partition_columns = {"p"};
    c.adds = {File("f0")};
    c.txns = {{"floe:t:0", 1}};
    return c;
  }
};

TEST_F(DeltaLog, NoLogIsNoTable) {
  auto state = LoadState(*io_);
  ASSERT_TRUE(state.ok()) << state.status().ToString();
  EXPECT_EQ(state->version, -1);
}

TEST_F(DeltaLog, CreateThenAppendReplays) {
  EXPECT_EQ(CommitOrDie(Create()), 0);
  Commit more;
  more.adds = {File("f1", "b"), File("f2", std::nullopt)};
  more.txns = {{"floe:t:0", 5}, {"floe:t:1", 2}};
  EXPECT_EQ(CommitOrDie(more), 1);
  auto state = LoadState(*io_);
  ASSERT_TRUE(state.ok()) << state.status().ToString();
  EXPECT_EQ(state->version, 1);
  EXPECT_EQ(state->num_files, 3);
  EXPECT_EQ(state->partition_columns, std::vector<std::string>{"p"});
  EXPECT_EQ(state->txn_versions.at("floe:t:0"), 5);  // the later txn wins
  EXPECT_EQ(state->txn_versions.at("floe:t:1"), 2);
  EXPECT_EQ(state->schema.fields.size(), 2u);
  EXPECT_EQ(state->schema.fields[1].id, 2);
  EXPECT_EQ(state->configuration.at("delta.columnMapping.mode"), "name");
  EXPECT_EQ(state->configuration.at("delta.columnMapping.maxColumnId"), "2");
  EXPECT_EQ(state->protocol, (Protocol{2, 5, {}, {}}));
  // A null partition value is a JSON null.
  std::ifstream in(root_ / "_delta_log" / "00000000000000000001.json");
  std::string text((std::istreambuf_iterator<char>(in)), {});
  EXPECT_NE(text.find(R"("partitionValues":{"p":null})"), std::string::npos) << text;
}

TEST_F(DeltaLog, FirstCommitWritesProtocolAndMetadataAfterCommitInfo) {
  auto actions = CommitActions(TableState{}, Create(), 42);
  ASSERT_TRUE(actions.ok()) << actions.status().ToString();
  ASSERT_GE(actions->size(), 5u);
  EXPECT_TRUE((*actions)[0].contains("commitInfo"));
  EXPECT_EQ((*actions)[1]["protocol"]["minReaderVersion"], 2);
  EXPECT_EQ((*actions)[1]["protocol"]["minWriterVersion"], 5);
  EXPECT_FALSE((*actions)[1]["protocol"].contains("readerFeatures"));
  EXPECT_EQ((*actions)[2]["metaData"]["partitionColumns"], nlohmann::json::array({"p"}));
  EXPECT_EQ((*actions)[3]["txn"]["version"], 1);
  EXPECT_EQ((*actions)[4]["add"]["dataChange"], true);
  Commit none = Create();
  none.configuration["delta.columnMapping.mode"] = "none";
  auto plain = CommitActions(TableState{}, none, 42);
  ASSERT_TRUE(plain.ok());
  EXPECT_EQ((*plain)[1]["protocol"]["minReaderVersion"], 1);
  EXPECT_EQ((*plain)[1]["protocol"]["minWriterVersion"], 2);
  Commit no_schema;
  EXPECT_EQ(CommitActions(TableState{}, no_schema, 1).status().code(), StatusCode::kInvalidArgument);
  Commit bad_partition = Create();
  bad_partition.adds[0].partition_values.clear();
  EXPECT_EQ(CommitActions(TableState{}, bad_partition, 1).status().code(), StatusCode::kInvalidArgument);
}

TEST_F(DeltaLog, ExistingVersionIsAConflictAndNothingIsOverwritten) {
  ASSERT_EQ(CommitOrDie(Create()), 0);
  auto base = LoadState(*io_);
  ASSERT_TRUE(base.ok());
  Commit a, b;
  a.adds = {File("a")};
  b.adds = {File("b")};
  ASSERT_TRUE(CommitVersion(*io_, *base, a).ok());
  auto lost = CommitVersion(*io_, *base, b);
  ASSERT_FALSE(lost.ok());
  EXPECT_EQ(lost.status().code(), StatusCode::kConflict);
  auto state = LoadState(*io_);
  ASSERT_TRUE(state.ok());
  EXPECT_EQ(state->version, 1);
  EXPECT_TRUE(state->files.count("data/p=a/a.parquet"));
  EXPECT_FALSE(state->files.count("data/p=a/b.parquet"));
  // No temporary files are left behind in the log.
  for (const auto& e : std::filesystem::directory_iterator(root_ / "_delta_log")) {
    EXPECT_EQ(e.path().filename().string().find(".floe-"), std::string::npos) << e.path();
  }
}

TEST_F(DeltaLog, EvolutionKeepsTableIdAndRaisesMaxColumnId) {
  ASSERT_EQ(CommitOrDie(Create()), 0);
  auto before = LoadState(*io_);
  Commit evolve;
  evolve.schema = TwoColumns();
  evolve.schema->fields.push_back(
      {3, "extra", false, schema::Type::Primitive(schema::TypeId::kDouble), "", std::nullopt, std::nullopt});
  ASSERT_EQ(CommitOrDie(evolve), 1);
  auto after = LoadState(*io_);
  ASSERT_TRUE(after.ok());
  EXPECT_EQ(after->table_id, before->table_id);
  EXPECT_EQ(after->schema.fields.size(), 3u);
  EXPECT_EQ(after->schema.fields[2].id, 3);
  EXPECT_EQ(after->configuration.at("delta.columnMapping.maxColumnId"), "3");
  EXPECT_EQ(after->partition_columns, std::vector<std::string>{"p"});
  // A timestamp_ntz column upgrades the protocol to table features.
  Commit ntz;
  ntz.schema = after->schema;
  ntz.schema->fields.push_back(
      {4, "local", false, schema::Type::Primitive(schema::TypeId::kTimestamp), "", std::nullopt, std::nullopt});
  ASSERT_EQ(CommitOrDie(ntz), 2);
  auto upgraded = LoadState(*io_);
  ASSERT_TRUE(upgraded.ok());
  EXPECT_EQ(upgraded->protocol.min_reader_version, 3);
  EXPECT_EQ(upgraded->protocol.min_writer_version, 7);
  EXPECT_TRUE(upgraded->protocol.reader_features.count("timestampNtz"));
  EXPECT_TRUE(upgraded->protocol.writer_features.count("columnMapping"));
}

TEST_F(DeltaLog, CheckpointIsWrittenAndReplayedWithoutTheJsonItCovers) {
  ASSERT_EQ(CommitOrDie(Create(), 3), 0);
  for (int k = 1; k <= 4; ++k) {
    Commit c;
    c.adds = {File("f" + std::to_string(k))};
    c.txns = {{"floe:t:0", 1 + k}};
    ASSERT_EQ(CommitOrDie(c, 3), k);
  }
  ASSERT_TRUE(std::filesystem::exists(root_ / "_delta_log" / "00000000000000000003.checkpoint.parquet"));
  auto last = nlohmann::json::parse(std::ifstream(root_ / "_delta_log" / "_last_checkpoint"));
  EXPECT_EQ(last["version"], 3);
  for (int v = 0; v <= 3; ++v) {
    std::filesystem::remove(root_ / "_delta_log" / (std::string(19, '0') + std::to_string(v) + ".json"));
  }
  auto state = LoadState(*io_);
  ASSERT_TRUE(state.ok()) << state.status().ToString();
  EXPECT_EQ(state->version, 4);
  EXPECT_EQ(state->num_files, 5);
  EXPECT_EQ(state->txn_versions.at("floe:t:0"), 5);
  EXPECT_EQ(state->schema.fields.size(), 2u);
  EXPECT_EQ(state->schema.fields[0].id, 1);
  EXPECT_EQ(state->partition_columns, std::vector<std::string>{"p"});
  EXPECT_EQ(state->protocol, (Protocol{2, 5, {}, {}}));
  EXPECT_EQ(state->configuration.at("delta.columnMapping.mode"), "name");
}

TEST_F(DeltaLog, StaleLastCheckpointFallsBackToListing) {
  ASSERT_EQ(CommitOrDie(Create(), 2), 0);
  Commit c;
  c.adds = {File("f1")};
  ASSERT_EQ(CommitOrDie(c, 2), 1);
  c.adds = {File("f2")};
  ASSERT_EQ(CommitOrDie(c, 2), 2);
  WriteLog("_last_checkpoint", R"({"version":99,"size":1})");
  auto state = LoadState(*io_);
  ASSERT_TRUE(state.ok()) << state.status().ToString();
  EXPECT_EQ(state->version, 2);
  EXPECT_EQ(state->num_files, 3);
}

TEST_F(DeltaLog, RemovesFromOthersAreHonoured) {
  // As Spark's OPTIMIZE writes it: remove two files, add their compaction.
  WriteLog("00000000000000000000.json",
           R"({"protocol":{"minReaderVersion":1,"minWriterVersion":2}})"
           "\n"
           R"({"metaData":{"id":"t","format":{"provider":"parquet","options":{}},"schemaString":"{\"type\":\"struct\",\"fields\":[{\"name\":\"id\",\"type\":\"long\",\"nullable\":true,\"metadata\":{}}]}","partitionColumns":[],"configuration":{},"createdTime":1}})"
           "\n"
           R"({"add":{"path":"a.parquet","partitionValues":{},"size":1,"modificationTime":1,"dataChange":true}})"
           "\n"
           R"({"add":{"path":"b.parquet","partitionValues":{},"size":1,"modificationTime":1,"dataChange":true}})"
           "\n");
  WriteLog("00000000000000000001.json",
           R"({"commitInfo":{"operation":"OPTIMIZE"}})"
           "\n"
           R"({"remove":{"path":"a.parquet","deletionTimestamp":2,"dataChange":false}})"
           "\n"
           R"({"remove":{"path":"b.parquet","deletionTimestamp":2,"dataChange":false}})"
           "\n"
           R"({"add":{"path":"c.parquet","partitionValues":{},"size":2,"modificationTime":2,"dataChange":false}})"
           "\n"
           R"({"domainMetadata":{"domain":"x","configuration":"{}","removed":false}})"
           "\n");
  auto state = LoadState(*io_);
  ASSERT_TRUE(state.ok()) << state.status().ToString();
  EXPECT_EQ(state->version, 1);
  EXPECT_EQ(state->num_files, 1);
  EXPECT_TRUE(state->files.count("c.parquet"));
  EXPECT_EQ(state->tombstones.size(), 2u);
  EXPECT_EQ(state->configuration.count("delta.columnMapping.mode"), 0u);
  // Floe appends to it keep mode none: no column mapping metadata appears.
  Commit c;
  c.adds = {AddFile{"d.parquet", {}, 1, 1, ""}};
  auto v = CommitVersion(*io_, *state, c);
  ASSERT_TRUE(v.ok()) << v.status().ToString();
  EXPECT_EQ(*v, 2);
}

TEST_F(DeltaLog, MalformedLogFilesAreErrorsNamingTheFile) {
  WriteLog("00000000000000000000.json", R"({"protocol":{"minReaderVersion":1,"minWriterVersion":2}})"
                                        "\n{not json\n");
  auto bad_json = LoadState(*io_);
  ASSERT_FALSE(bad_json.ok());
  EXPECT_NE(bad_json.status().ToString().find("00000000000000000000.json line 2"), std::string::npos)
      << bad_json.status().ToString();

  WriteLog("00000000000000000000.json", R"({"add":{"size":1}})"
                                        "\n");
  auto no_path = LoadState(*io_);
  ASSERT_FALSE(no_path.ok());
  EXPECT_NE(no_path.status().ToString().find("00000000000000000000.json line 1"), std::string::npos);
  EXPECT_NE(no_path.status().ToString().find("path"), std::string::npos);

  WriteLog("00000000000000000000.json", R"({"protocol":{"minReaderVersion":1,"minWriterVersion":2}})"
                                        "\n");
  auto no_metadata = LoadState(*io_);
  ASSERT_FALSE(no_metadata.ok());
  EXPECT_NE(no_metadata.status().ToString().find("metaData"), std::string::npos);

  WriteLog("00000000000000000000.json",
           R"({"metaData":{"id":"t","schemaString":"{oops","partitionColumns":[],"configuration":{}}})"
           "\n");
  auto bad_schema = LoadState(*io_);
  ASSERT_FALSE(bad_schema.ok());
  EXPECT_NE(bad_schema.status().ToString().find("00000000000000000000.json"), std::string::npos);

  WriteLog("00000000000000000000.json",
           R"({"metaData":{"id":"t","schemaString":"{\"type\":\"struct\",\"fields\":[]}","partitionColumns":[]}})"
           "\n");
  WriteLog("00000000000000000002.json", "{}\n");
  auto gap = LoadState(*io_);
  ASSERT_FALSE(gap.ok());
  EXPECT_NE(gap.status().ToString().find("no commit 1"), std::string::npos) << gap.status().ToString();

  WriteLog("00000000000000000005.checkpoint.parquet", "not parquet");
  auto bad_checkpoint = LoadState(*io_);
  ASSERT_FALSE(bad_checkpoint.ok());
  EXPECT_NE(bad_checkpoint.status().ToString().find("00000000000000000005.checkpoint.parquet"), std::string::npos)
      << bad_checkpoint.status().ToString();
}

TEST_F(DeltaLog, PathsArePercentEncodedInTheLog) {
  Commit c = Create();
  c.adds = {File("f 1", "a:b")};
  ASSERT_EQ(CommitOrDie(c), 0);
  auto state = LoadState(*io_);
  ASSERT_TRUE(state.ok());
  EXPECT_TRUE(state->files.count("data/p=a%3Ab/f%201.parquet")) << state->files.begin()->first;
}

}  // namespace
}  // namespace floe::delta
