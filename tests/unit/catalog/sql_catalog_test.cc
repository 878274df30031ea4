#include "floe/catalog/sql_catalog.h"

#include <gtest/gtest.h>
#include <sqlite3.h>
#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <filesystem>
#include <fstream>
#include <random>
#include <thread>
#include <tuple>

#include "support/catalog_contract.h"
#include "support/temp_dir.h"

namespace floe::catalog {
namespace {

namespace fs = std::filesystem;

class TempDir : public floe::test_support::TempDir {
 public:
  TempDir() : floe::test_support::TempDir("floe-catalog-test") {}
  std::string Uri(const std::string& file = "catalog.db") const { return SqliteUri(file); }
};

// Direct access to the SQLite file, as another program (pyiceberg, the JDBC catalog) sees it.
class RawDb {
 public:
  explicit RawDb(const fs::path& path) {
    EXPECT_EQ(sqlite3_open(path.c_str(), &db_), SQLITE_OK);
    sqlite3_busy_timeout(db_, 5000);
  }
  ~RawDb() { sqlite3_close(db_); }
  void Exec(const std::string& sql) {
    char* err = nullptr;
    int rc = sqlite3_exec(db_, sql.c_str(), nullptr, nullptr, &err);
    EXPECT_EQ(rc, SQLITE_OK) << sql << ": " << (err ? err : "");
    sqlite3_free(err);
  }
  // Rows as strings, NULL as "<null>".
  std::vector<std::vector<std::string>> Query(const std::string& sql) {
    std::vector<std::vector<std::string>> rows;
    sqlite3_stmt* stmt = nullptr;
    EXPECT_EQ(sqlite3_prepare_v2(db_, sql.c_str(), -1, &stmt, nullptr), SQLITE_OK) << sqlite3_errmsg(db_);
    while (stmt && sqlite3_step(stmt) == SQLITE_ROW) {
      auto& row = rows.emplace_back();
      for (int c = 0; c < sqlite3_column_count(stmt); ++c) {
        const auto* text = sqlite3_column_text(stmt, c);
        row.push_back(text ? reinterpret_cast<const char*>(text) : "<null>");
      }
    }
    sqlite3_finalize(stmt);
    return rows;
  }

 private:
  sqlite3* db_ = nullptr;
};

std::unique_ptr<Catalog> Open(const std::string& uri, const std::string& name = "floe",
                              const SqlCatalogOptions& options = {}) {
  auto r = OpenSqlCatalog(uri, name, options);
  EXPECT_TRUE(r.ok()) << r.status().ToString();
  return r.ok() ? std::move(r).value() : nullptr;
}

// ------------------------------------------------------------------- the contract, on SQLite

enum class Backend { kMemory, kFile };
void PrintTo(Backend b, std::ostream* os) { *os << (b == Backend::kMemory ? "sqlite://:memory:" : "sqlite file"); }

std::vector<std::tuple<Backend, std::string>> ContractCases() {
  std::vector<std::tuple<Backend, std::string>> cases;
  for (const auto& check : CatalogContractChecks()) {
    if (!check.needs_another_instance) cases.emplace_back(Backend::kMemory, check.name);
    cases.emplace_back(Backend::kFile, check.name);
  }
  return cases;
}

class SqlCatalogContract : public ::testing::TestWithParam<std::tuple<Backend, std::string>> {};

TEST_P(SqlCatalogContract, Check) {
  const auto& [backend, name] = GetParam();
  TempDir dir;
  const std::string uri = backend == Backend::kMemory ? "sqlite://:memory:" : dir.Uri();
  auto catalog = Open(uri);
  ASSERT_NE(catalog, nullptr);
  ContractEnvironment env;
  env.catalog = catalog.get();
  env.catalog_name = "floe";
  env.run_id = NewContractRunId();
  if (backend == Backend::kFile) {
    env.open_another = [uri](const std::string& catalog_name) { return OpenSqlCatalog(uri, catalog_name); };
  }
  for (const auto& check : CatalogContractChecks()) {
    if (check.name != name) continue;
    auto result = RunContractCheck(check, env);
    EXPECT_EQ(result.outcome, ContractOutcome::kPassed) << result.status.ToString();
    return;
  }
  FAIL() << "no contract check named " << name;
}

INSTANTIATE_TEST_SUITE_P(SqlCatalog, SqlCatalogContract, ::testing::ValuesIn(ContractCases()),
                         [](const ::testing::TestParamInfo<std::tuple<Backend, std::string>>& p) {
                           return std::string(std::get<0>(p.param) == Backend::kMemory ? "Memory_" : "File_") +
                                  std::get<1>(p.param);
                         });

// ------------------------------------------------------------------------------------ URIs

TEST(SqlCatalogUri, RejectsUnsupportedUris) {
  for (const char* uri : {"", "mysql://u@h/db", "sqlite:/tmp/x.db", "file:///tmp/x.db", "sqlite://", "sqlite:///",
                          "sqlite:///tmp/x.db?mode=ro"}) {
    auto r = OpenSqlCatalog(uri, "floe");
    ASSERT_FALSE(r.ok()) << uri;
    EXPECT_EQ(r.status().code(), StatusCode::kInvalidArgument) << uri << ": " << r.status().ToString();
  }
}

TEST(SqlCatalogUri, ValidatesTheCatalogName) {
  for (const std::string& name : {std::string(), std::string("a\0b", 3), std::string(256, 'c')}) {
    auto r = OpenSqlCatalog("sqlite://:memory:", name);
    ASSERT_FALSE(r.ok());
    EXPECT_EQ(r.status().code(), StatusCode::kInvalidArgument) << r.status().ToString();
  }
  EXPECT_NE(Open("sqlite:///:memory:", std::string(255, 'c')), nullptr);
}

TEST(SqlCatalogUri, BothAbsolutePathSpellingsOpenTheSameFile) {
  TempDir dir;
  const std::string path = (dir.path() / "catalog.db").string();
  auto floe_style = Open("sqlite://" + path);        // sqlite:///abs/path
  auto sqlalchemy_style = Open("sqlite:///" + path);  // sqlite:////abs/path
  ASSERT_NE(floe_style, nullptr);
  ASSERT_NE(sqlalchemy_style, nullptr);
  ASSERT_TRUE(floe_style->CreateNamespace({"lake"}, {}).ok());
  auto list = sqlalchemy_style->ListNamespaces({});
  ASSERT_TRUE(list.ok());
  EXPECT_EQ(*list, (std::vector<Namespace>{{"lake"}}));
  EXPECT_TRUE(fs::exists(path));
}

// SQLite creates the file, not its folder: the catalog creates the folder (the default
// <warehouse>/catalog.db on a warehouse not created yet), or names it when it cannot.
TEST(SqlCatalogUri, CreatesTheDatabaseFolderOrNamesIt) {
  TempDir dir;
  const auto path = dir.path() / "not" / "yet" / "catalog.db";
  ASSERT_NE(Open("sqlite://" + path.string()), nullptr);
  EXPECT_TRUE(fs::exists(path));

  const auto file = dir.path() / "a-file";
  std::ofstream(file) << "x";
  auto r = OpenSqlCatalog("sqlite://" + (file / "sub" / "catalog.db").string(), "floe");
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().code(), StatusCode::kIoError);
  EXPECT_NE(r.status().message().find("opening the SQLite catalog database " + (file / "sub" / "catalog.db").string() +
                                      ": cannot create its folder " + (file / "sub").string()),
            std::string::npos)
      << r.status().message();
  EXPECT_NE(r.status().message().find("catalog.uri"), std::string::npos) << r.status().message();
}

TEST(SqlCatalogUri, RedactsPasswords) {
  EXPECT_EQ(RedactCatalogUri("postgresql://floe:s3cret@db.internal:5432/cat"), "postgresql://floe:***@db.internal:5432/cat");
  EXPECT_EQ(RedactCatalogUri("postgres://floe@db:5432/cat"), "postgres://floe@db:5432/cat");
  EXPECT_EQ(RedactCatalogUri("postgresql://db/cat?user=u&password=s3cret&sslmode=require"),
            "postgresql://db/cat?user=u&password=***&sslmode=require");
  EXPECT_EQ(RedactCatalogUri("sqlite:///var/lib/floe/catalog.db"), "sqlite:///var/lib/floe/catalog.db");
}

// ---------------------------------------------------------------------------------- SQLite

TEST(SqlCatalogSqlite, CreatesTheJdbcCatalogSchema) {
  TempDir dir;
  ASSERT_NE(Open(dir.Uri()), nullptr);
  RawDb raw(dir.path() / "catalog.db");
  // cid, name, type, notnull, dflt_value, pk
  auto columns = [&](const std::string& table) {
    std::vector<std::string> out;
    for (const auto& row : raw.Query("PRAGMA table_info(" + table + ")")) {
      out.push_back(row[1] + " " + row[2] + (row[3] == "1" ? " NOT NULL" : "") + (row[5] != "0" ? " PK" + row[5] : ""));
    }
    return out;
  };
  EXPECT_EQ(columns("iceberg_tables"),
            (std::vector<std::string>{"catalog_name VARCHAR(255) NOT NULL PK1", "table_namespace VARCHAR(255) NOT NULL PK2",
                                      "table_name VARCHAR(255) NOT NULL PK3", "metadata_location VARCHAR(1000)",
                                      "previous_metadata_location VARCHAR(1000)", "iceberg_type VARCHAR(5)"}));
  EXPECT_EQ(columns("iceberg_namespace_properties"),
            (std::vector<std::string>{"catalog_name VARCHAR(255) NOT NULL PK1", "namespace VARCHAR(255) NOT NULL PK2",
                                      "property_key VARCHAR(255) NOT NULL PK3",
                                      "property_value VARCHAR(1000) NOT NULL"}));
  EXPECT_EQ(raw.Query("PRAGMA journal_mode"), (std::vector<std::vector<std::string>>{{"wal"}}));
}

TEST(SqlCatalogSqlite, WritesRowsTheWayTheJdbcCatalogDoes) {
  TempDir dir;
  auto catalog = Open(dir.Uri(), "prod");
  ASSERT_NE(catalog, nullptr);
  ASSERT_TRUE(catalog->CreateNamespace({"lake", "raw"}, {{"owner", "ops"}}).ok());
  ASSERT_TRUE(catalog->CreateTable({{"lake", "raw"}, "orders"}, "s3://b/orders/v1.metadata.json").ok());
  RawDb raw(dir.path() / "catalog.db");
  EXPECT_EQ(raw.Query("SELECT * FROM iceberg_namespace_properties ORDER BY property_key"),
            (std::vector<std::vector<std::string>>{{"prod", "lake.raw", "exists", "true"},
                                                   {"prod", "lake.raw", "owner", "ops"}}));
  EXPECT_EQ(raw.Query("SELECT * FROM iceberg_tables"),
            (std::vector<std::vector<std::string>>{
                {"prod", "lake.raw", "orders", "s3://b/orders/v1.metadata.json", "<null>", "TABLE"}}));
  ASSERT_TRUE(catalog
                  ->SwapMetadataLocation({{"lake", "raw"}, "orders"}, "s3://b/orders/v1.metadata.json",
                                         "s3://b/orders/v2.metadata.json")
                  .ok());
  EXPECT_EQ(raw.Query("SELECT metadata_location, previous_metadata_location FROM iceberg_tables"),
            (std::vector<std::vector<std::string>>{{"s3://b/orders/v2.metadata.json", "s3://b/orders/v1.metadata.json"}}));
}

TEST(SqlCatalogSqlite, ReadsRowsWrittenByOtherCatalogs) {
  TempDir dir;
  auto catalog = Open(dir.Uri());
  ASSERT_NE(catalog, nullptr);
  RawDb raw(dir.path() / "catalog.db");
  // pyiceberg: a namespace created with properties gets no "exists" row.
  raw.Exec("INSERT INTO iceberg_namespace_properties VALUES ('floe', 'py', 'owner', 'someone')");
  // A table row from before the iceberg_type column existed, in a namespace nobody created.
  raw.Exec("INSERT INTO iceberg_tables VALUES ('floe', 'implicit.ns', 'old', 'loc-old', NULL, NULL)");
  // A view written by the Java JDBC catalog (or iceberg-rust).
  raw.Exec("INSERT INTO iceberg_tables VALUES ('floe', 'implicit.ns', 'v', 'loc-view', NULL, 'VIEW')");
  // Another catalog's rows.
  raw.Exec("INSERT INTO iceberg_tables VALUES ('other', 'elsewhere', 't', 'loc', NULL, 'TABLE')");

  auto top = catalog->ListNamespaces({});
  ASSERT_TRUE(top.ok()) << top.status().ToString();
  EXPECT_EQ(*top, (std::vector<Namespace>{{"implicit"}, {"py"}}));
  auto props = catalog->LoadNamespaceProperties({"py"});
  ASSERT_TRUE(props.ok());
  EXPECT_EQ(*props, (Properties{{"owner", "someone"}}));
  EXPECT_EQ(catalog->CreateNamespace({"py"}, {}).code(), StatusCode::kAlreadyExists);
  EXPECT_EQ(catalog->CreateNamespace({"implicit"}, {}).code(), StatusCode::kAlreadyExists);

  auto tables = catalog->ListTables({"implicit", "ns"});
  ASSERT_TRUE(tables.ok());
  EXPECT_EQ(*tables, (std::vector<TableIdentifier>{{{"implicit", "ns"}, "old"}}));  // not the view
  auto old = catalog->LoadTable({{"implicit", "ns"}, "old"});
  ASSERT_TRUE(old.ok());
  EXPECT_EQ(old->metadata_location, "loc-old");
  EXPECT_TRUE(catalog->SwapMetadataLocation({{"implicit", "ns"}, "old"}, "loc-old", "loc-new").ok());

  const TableIdentifier view{{"implicit", "ns"}, "v"};
  EXPECT_EQ(catalog->LoadTable(view).status().code(), StatusCode::kNotFound);
  EXPECT_EQ(catalog->SwapMetadataLocation(view, "loc-view", "x").code(), StatusCode::kNotFound);
  EXPECT_EQ(catalog->DropTable(view).code(), StatusCode::kNotFound);
  Status create = catalog->CreateTable(view, "x");
  EXPECT_EQ(create.code(), StatusCode::kAlreadyExists);
  EXPECT_NE(create.message().find("View with same name already exists: implicit.ns.v"), std::string::npos)
      << create.message();
  ASSERT_TRUE(catalog->DropTable({{"implicit", "ns"}, "old"}).ok());
  EXPECT_EQ(catalog->DropNamespace({"implicit", "ns"}).code(), StatusCode::kConflict);  // the view is still there

  // Removing pyiceberg's only property keeps the namespace (Floe adds the exists marker).
  ASSERT_TRUE(catalog->UpdateNamespaceProperties({"py"}, {"owner"}, {}).ok());
  EXPECT_TRUE(catalog->LoadNamespaceProperties({"py"}).ok());
  EXPECT_EQ(raw.Query("SELECT property_key FROM iceberg_namespace_properties WHERE namespace = 'py'"),
            (std::vector<std::vector<std::string>>{{"exists"}}));
}

TEST(SqlCatalogSqlite, ViewsAreRowsOfTheirOwnKindInTheTablesNameSpace) {
  TempDir dir;
  auto catalog = Open(dir.Uri());
  ASSERT_NE(catalog, nullptr);
  ASSERT_TRUE(catalog->CreateNamespace({"ns"}, {}).ok());
  const TableIdentifier v{{"ns"}, "v"}, t{{"ns"}, "t"};
  ASSERT_TRUE(catalog->CreateView(v, "view-1").ok());
  ASSERT_TRUE(catalog->CreateTable(t, "table-1").ok());
  RawDb raw(dir.path() / "catalog.db");
  EXPECT_EQ(raw.Query("SELECT table_name, iceberg_type FROM iceberg_tables ORDER BY table_name"),
            (std::vector<std::vector<std::string>>{{"t", "TABLE"}, {"v", "VIEW"}}));  // as Java's JDBC catalog
  EXPECT_EQ(*catalog->ListViews({"ns"}), (std::vector<TableIdentifier>{v}));
  EXPECT_EQ(*catalog->ListTables({"ns"}), (std::vector<TableIdentifier>{t}));
  EXPECT_EQ(catalog->ListViews({"nope"}).status().code(), StatusCode::kNotFound);

  // One name, one object; Iceberg's wording either way.
  Status view_over_table = catalog->CreateView(t, "x");
  EXPECT_EQ(view_over_table.message().rfind("Table with same name already exists: ns.t", 0), 0u)
      << view_over_table.message();
  EXPECT_EQ(catalog->CreateView(v, "x").message().rfind("View already exists: ns.v", 0), 0u);
  EXPECT_EQ(catalog->LoadTable(v).status().code(), StatusCode::kNotFound);
  EXPECT_EQ(catalog->LoadView(t).status().message().rfind("View does not exist: ns.t", 0), 0u);
  Status rename = catalog->RenameView(v, t);
  EXPECT_EQ(rename.code(), StatusCode::kAlreadyExists);
  EXPECT_EQ(rename.message().rfind("Cannot rename ns.v to ns.t. Table already exists", 0), 0u) << rename.message();

  ASSERT_TRUE(catalog->SwapViewMetadataLocation(v, "view-1", "view-2").ok());
  EXPECT_EQ(catalog->SwapViewMetadataLocation(v, "view-1", "view-3").code(), StatusCode::kConflict);
  EXPECT_EQ(catalog->LoadView(v)->metadata_location, "view-2");
  ASSERT_TRUE(catalog->RenameView(v, {{"ns"}, "w"}).ok());
  EXPECT_EQ(catalog->DropView(v).code(), StatusCode::kNotFound);
  EXPECT_EQ(catalog->DropTable({{"ns"}, "w"}).code(), StatusCode::kNotFound);  // a view, not a table
  ASSERT_TRUE(catalog->DropView({{"ns"}, "w"}).ok());
  EXPECT_TRUE(catalog->ListViews({"ns"})->empty());
}

TEST(SqlCatalogSqlite, WorksWithASchemaWithoutTheTypeColumn) {
  TempDir dir;
  {
    RawDb raw(dir.path() / "catalog.db");
    // The "v0" schema of older JDBC catalogs.
    raw.Exec("CREATE TABLE iceberg_tables (catalog_name VARCHAR(255) NOT NULL, table_namespace VARCHAR(255) NOT NULL, "
             "table_name VARCHAR(255) NOT NULL, metadata_location VARCHAR(1000), previous_metadata_location "
             "VARCHAR(1000), PRIMARY KEY (catalog_name, table_namespace, table_name))");
    raw.Exec("CREATE TABLE iceberg_namespace_properties (catalog_name VARCHAR(255) NOT NULL, namespace VARCHAR(255) "
             "NOT NULL, property_key VARCHAR(255), property_value VARCHAR(1000), PRIMARY KEY (catalog_name, "
             "namespace, property_key))");
  }
  auto catalog = Open(dir.Uri());
  ASSERT_NE(catalog, nullptr);
  ASSERT_TRUE(catalog->CreateNamespace({"lake"}, {}).ok());
  ASSERT_TRUE(catalog->CreateTable({{"lake"}, "t"}, "v1").ok());
  ASSERT_TRUE(catalog->SwapMetadataLocation({{"lake"}, "t"}, "v1", "v2").ok());
  auto tables = catalog->ListTables({"lake"});
  ASSERT_TRUE(tables.ok());
  EXPECT_EQ(tables->size(), 1u);
  RawDb raw(dir.path() / "catalog.db");
  EXPECT_EQ(raw.Query("SELECT * FROM iceberg_tables"),
            (std::vector<std::vector<std::string>>{{"floe", "lake", "t", "v2", "v1"}}));  // not migrated
  // Without the type column a row cannot say it is a view: views are refused, not guessed.
  EXPECT_EQ(catalog->CreateView({{"lake"}, "v"}, "x").code(), StatusCode::kUnsupported);
  EXPECT_EQ(catalog->ListViews({"lake"}).status().code(), StatusCode::kUnsupported);
}

TEST(SqlCatalogSqlite, DataSurvivesReopening) {
  TempDir dir;
  {
    auto catalog = Open(dir.Uri());
    ASSERT_NE(catalog, nullptr);
    ASSERT_TRUE(catalog->CreateNamespace({"lake"}, {{"k", "v"}}).ok());
    ASSERT_TRUE(catalog->CreateTable({{"lake"}, "t"}, "v1").ok());
    ASSERT_TRUE(catalog->SwapMetadataLocation({{"lake"}, "t"}, "v1", "v2").ok());
  }
  auto again = Open(dir.Uri());
  ASSERT_NE(again, nullptr);
  auto rec = again->LoadTable({{"lake"}, "t"});
  ASSERT_TRUE(rec.ok());
  EXPECT_EQ(rec->metadata_location, "v2");
  EXPECT_EQ(rec->previous_metadata_location, "v1");
  auto props = again->LoadNamespaceProperties({"lake"});
  ASSERT_TRUE(props.ok());
  EXPECT_EQ(*props, (Properties{{"k", "v"}}));
}

// Several worker processes starting at once on a catalog file nobody has created yet: each
// must open it (SQLite refuses another process's switch to WAL at once, busy handler or not;
// threads of one process do not see it, hence fork).
TEST(SqlCatalogSqlite, ProcessesOpeningOneNewFileAtOnceAllSucceed) {
  TempDir dir;
  for (int round = 0; round < 30; ++round) {
    const std::string uri = dir.Uri("fresh-" + std::to_string(round) + ".db");
    int start[2];
    ASSERT_EQ(pipe(start), 0);
    std::vector<pid_t> children;
    for (int i = 0; i < 3; ++i) {
      const pid_t pid = fork();
      ASSERT_GE(pid, 0);
      if (pid == 0) {  // waits for the start signal so that all open at the same moment
        char go = 0;
        close(start[1]);
        if (read(start[0], &go, 1) != 1) _exit(2);
        auto catalog = OpenSqlCatalog(uri, "floe", SqlCatalogOptions{});
        if (!catalog.ok()) fprintf(stderr, "child: %s\n", catalog.status().ToString().c_str());
        _exit(catalog.ok() ? 0 : 1);
      }
      children.push_back(pid);
    }
    close(start[0]);
    ASSERT_EQ(write(start[1], "GGG", 3), 3);
    close(start[1]);
    int failed = 0;
    for (pid_t pid : children) {
      int status = 0;
      ASSERT_EQ(waitpid(pid, &status, 0), pid);
      failed += !(WIFEXITED(status) && WEXITSTATUS(status) == 0);
    }
    ASSERT_EQ(failed, 0) << "round " << round << ": a worker could not open the new catalog file";
  }
}

TEST(SqlCatalogSqlite, AWriteLockHeldTooLongIsUnavailableAndReadsGoOn) {
  TempDir dir;
  SqlCatalogOptions options;
  options.sqlite_busy_timeout = std::chrono::milliseconds(100);
  auto catalog = Open(dir.Uri(), "floe", options);
  ASSERT_NE(catalog, nullptr);
  ASSERT_TRUE(catalog->CreateNamespace({"lake"}, {}).ok());
  ASSERT_TRUE(catalog->CreateTable({{"lake"}, "t"}, "v1").ok());

  RawDb other(dir.path() / "catalog.db");
  other.Exec("BEGIN IMMEDIATE");
  Status swap = catalog->SwapMetadataLocation({{"lake"}, "t"}, "v1", "v2");
  EXPECT_EQ(swap.code(), StatusCode::kUnavailable) << swap.ToString();
  EXPECT_NE(swap.message().find("busy timeout"), std::string::npos) << swap.message();
  EXPECT_EQ(catalog->CreateNamespace({"other"}, {}).code(), StatusCode::kUnavailable);
  auto rec = catalog->LoadTable({{"lake"}, "t"});  // WAL: readers are not blocked by the writer
  ASSERT_TRUE(rec.ok()) << rec.status().ToString();
  EXPECT_EQ(rec->metadata_location, "v1");
  other.Exec("COMMIT");
  EXPECT_TRUE(catalog->SwapMetadataLocation({{"lake"}, "t"}, "v1", "v2").ok());
}

TEST(SqlCatalogSqlite, UnopenableFilesAreIoErrors) {
  TempDir dir;
  // (A missing folder is created: CreatesTheDatabaseFolderOrNamesIt.)
  fs::create_directory(dir.path() / "is-a-folder");
  auto a_folder = OpenSqlCatalog(dir.Uri("is-a-folder"), "floe");
  ASSERT_FALSE(a_folder.ok());
  EXPECT_EQ(a_folder.status().code(), StatusCode::kIoError) << a_folder.status().ToString();
  EXPECT_NE(a_folder.status().message().find("is-a-folder"), std::string::npos);

  std::ofstream(dir.path() / "garbage.db") << std::string(4096, 'x');
  auto garbage = OpenSqlCatalog(dir.Uri("garbage.db"), "floe");
  ASSERT_FALSE(garbage.ok());
  EXPECT_EQ(garbage.status().code(), StatusCode::kIoError) << garbage.status().ToString();
}

TEST(SqlCatalogSqlite, ANullMetadataLocationLoadsAsEmptyAndCanBeSwapped) {
  TempDir dir;
  auto catalog = Open(dir.Uri());
  ASSERT_NE(catalog, nullptr);
  ASSERT_TRUE(catalog->CreateNamespace({"lake"}, {}).ok());
  RawDb raw(dir.path() / "catalog.db");
  raw.Exec("INSERT INTO iceberg_tables VALUES ('floe', 'lake', 'half', NULL, NULL, 'TABLE')");
  auto rec = catalog->LoadTable({{"lake"}, "half"});
  ASSERT_TRUE(rec.ok());
  EXPECT_EQ(rec->metadata_location, "");
  EXPECT_EQ(catalog->SwapMetadataLocation({{"lake"}, "half"}, "x", "v1").code(), StatusCode::kConflict);
  EXPECT_TRUE(catalog->SwapMetadataLocation({{"lake"}, "half"}, "", "v1").ok());
}

TEST(SqlCatalogSqlite, ThreadsCommittingToDifferentTablesAllSucceed) {
  TempDir dir;
  auto catalog = Open(dir.Uri());
  ASSERT_NE(catalog, nullptr);
  ASSERT_TRUE(catalog->CreateNamespace({"lake"}, {}).ok());
  constexpr int kThreads = 4, kCommits = 25;
  std::vector<std::thread> threads;
  std::atomic<int> failures{0};
  for (int i = 0; i < kThreads; ++i) {
    threads.emplace_back([&, i] {
      const TableIdentifier t{{"lake"}, "t" + std::to_string(i)};
      if (!catalog->CreateTable(t, "v0").ok()) ++failures;
      for (int v = 0; v < kCommits; ++v) {
        if (!catalog->SwapMetadataLocation(t, "v" + std::to_string(v), "v" + std::to_string(v + 1)).ok()) ++failures;
      }
    });
  }
  for (auto& t : threads) t.join();
  EXPECT_EQ(failures.load(), 0);
  for (int i = 0; i < kThreads; ++i) {
    auto rec = catalog->LoadTable({{"lake"}, "t" + std::to_string(i)});
    ASSERT_TRUE(rec.ok());
    EXPECT_EQ(rec->metadata_location, "v" + std::to_string(kCommits));
  }
}

// -------------------------------------------------------------------------------- PostgreSQL
// The server itself is exercised by tests/integration/test_sql_catalog_postgres.py.

TEST(SqlCatalogPostgres, AnUnreachableServerIsUnavailableWithoutLeakingThePassword) {
  SqlCatalogOptions options;
  options.postgres_connect_timeout = std::chrono::seconds(2);
  auto r = OpenSqlCatalog("postgresql://floe:s3cret@127.0.0.1:1/catalog", "floe", options);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().code(), StatusCode::kUnavailable) << r.status().ToString();
  EXPECT_NE(r.status().message().find("127.0.0.1"), std::string::npos) << r.status().message();
  EXPECT_EQ(r.status().message().find("s3cret"), std::string::npos) << r.status().message();
}

TEST(SqlCatalogPostgres, AMalformedUriIsInvalidArgument) {
  auto r = OpenSqlCatalog("postgresql://floe@127.0.0.1:1/catalog?no_such_option=1", "floe");
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().code(), StatusCode::kInvalidArgument) << r.status().ToString();
}

}  // namespace
}  // namespace floe::catalog
