// The Iceberg REST client without a server: encoding, paths, the /v1/config merge, error
// mapping and parsing (rest_client_protocol.h), and the client's request flow (auth, prefix,
// retries of reads only, status codes) against a scripted transport.
#include "floe/catalog/rest_catalog_client.h"

#include <gtest/gtest.h>

#include <unistd.h>

#include <deque>
#include <filesystem>
#include <mutex>

#include "floe/iceberg/table_metadata.h"
#include "floe/schema/types.h"

namespace floe::catalog {
namespace {

using rest::HttpRequest;
using rest::HttpResponse;
using rest::RequestKind;
using rest::ResourcePaths;

// --- Encoding and paths ---------------------------------------------------------------------------

TEST(RestCatalogClientEncoding, NamespacePathJoinsLevelsWithTheSeparator) {
  EXPECT_EQ(rest::EncodeNamespacePath({"db"}), "db");
  EXPECT_EQ(rest::EncodeNamespacePath({"a", "b c", "d/e"}), "a%1Fb%20c%1Fd%2Fe");
  // A server's namespace-separator is used as given (already encoded).
  EXPECT_EQ(rest::EncodeNamespacePath({"a", "b"}, "%2E"), "a%2Eb");
  // A '.' inside a level stays a literal '.', distinct from an encoded separator.
  EXPECT_EQ(rest::EncodeNamespacePath({"a.b", "c"}, "%2E"), "a.b%2Ec");
}

TEST(RestCatalogClientEncoding, NamespaceQueryUsesTheUnitSeparator) {
  EXPECT_EQ(rest::EncodeNamespaceQuery({"a"}), "a");
  EXPECT_EQ(rest::EncodeNamespaceQuery({"a", "b c"}), "a%1Fb%20c");
}

TEST(RestCatalogClientEncoding, FormEncoding) {
  EXPECT_EQ(rest::FormEncode({{"grant_type", "client_credentials"}, {"client_secret", "s&cr=t"}}),
            "grant_type=client_credentials&client_secret=s%26cr%3Dt");
}

TEST(RestCatalogClientPaths, BuildsEveryResourceUnderThePrefix) {
  ResourcePaths p("http://h:1/api/", "/cat/main/", "%1F");
  const TableIdentifier id{{"a", "b"}, "t x"};
  EXPECT_EQ(p.Namespaces(), "http://h:1/api/v1/cat/main/namespaces");
  EXPECT_EQ(p.NamespaceUrl({"a", "b"}), "http://h:1/api/v1/cat/main/namespaces/a%1Fb");
  EXPECT_EQ(p.NamespaceProperties({"a"}), "http://h:1/api/v1/cat/main/namespaces/a/properties");
  EXPECT_EQ(p.Tables({"a"}), "http://h:1/api/v1/cat/main/namespaces/a/tables");
  EXPECT_EQ(p.Table(id), "http://h:1/api/v1/cat/main/namespaces/a%1Fb/tables/t%20x");
  EXPECT_EQ(p.DropTable(id, true), "http://h:1/api/v1/cat/main/namespaces/a%1Fb/tables/t%20x?purgeRequested=true");
  EXPECT_EQ(p.DropTable(id, false), p.Table(id));
  EXPECT_EQ(p.Register({"a"}), "http://h:1/api/v1/cat/main/namespaces/a/register");
  EXPECT_EQ(p.Rename(), "http://h:1/api/v1/cat/main/tables/rename");
  EXPECT_EQ(p.TransactionCommit(), "http://h:1/api/v1/cat/main/transactions/commit");
  EXPECT_EQ(p.ListNamespaces({}, ""), "http://h:1/api/v1/cat/main/namespaces");
  EXPECT_EQ(p.ListNamespaces({"a", "b"}, "tok/1"), "http://h:1/api/v1/cat/main/namespaces?parent=a%1Fb&pageToken=tok%2F1");
  EXPECT_EQ(p.ListTables({"a"}, "n"), "http://h:1/api/v1/cat/main/namespaces/a/tables?pageToken=n");
}

TEST(RestCatalogClientPaths, NoPrefixAndConfig) {
  ResourcePaths p("http://h:1", "");
  EXPECT_EQ(p.Table({{"db"}, "t"}), "http://h:1/v1/namespaces/db/tables/t");
  EXPECT_EQ(ResourcePaths::Config("http://h:1/", ""), "http://h:1/v1/config");
  EXPECT_EQ(ResourcePaths::Config("http://h:1", "s3://b/w h"), "http://h:1/v1/config?warehouse=s3%3A%2F%2Fb%2Fw%20h");
  EXPECT_EQ(ResourcePaths::OAuthTokens("http://h:1/"), "http://h:1/v1/oauth/tokens");
}

TEST(RestCatalogClientPaths, FromMergedConfig) {
  auto p = ResourcePaths::FromConfig("http://h", {{"prefix", "ws1"}, {"namespace-separator", "%2E"}});
  EXPECT_EQ(p.Table({{"a", "b"}, "t"}), "http://h/v1/ws1/namespaces/a%2Eb/tables/t");
  auto q = ResourcePaths::FromConfig("http://h", {});
  EXPECT_EQ(q.Table({{"a", "b"}, "t"}), "http://h/v1/namespaces/a%1Fb/tables/t");
}

// --- Config ---------------------------------------------------------------------------------------

TEST(RestCatalogClientConfig, OverridesBeatClientBeatsDefaults) {
  auto config = rest::ParseConfigResponse(
      R"({"defaults": {"a": "server-default", "b": "server-default", "n": 3},
          "overrides": {"b": "server-override", "prefix": "p"},
          "endpoints": ["GET /v1/{prefix}/namespaces"]})");
  ASSERT_TRUE(config.ok()) << config.status().ToString();
  EXPECT_EQ(config->endpoints, std::vector<std::string>{"GET /v1/{prefix}/namespaces"});
  Properties merged = rest::MergeConfig(*config, {{"a", "client"}, {"b", "client"}, {"prefix", "mine"}, {"c", "client"}});
  EXPECT_EQ(merged, (Properties{{"a", "client"}, {"b", "server-override"}, {"c", "client"}, {"n", "3"}, {"prefix", "p"}}));
}

TEST(RestCatalogClientConfig, MissingSectionsAreEmptyAndGarbageIsRejected) {
  auto empty = rest::ParseConfigResponse("{}");
  ASSERT_TRUE(empty.ok());
  EXPECT_TRUE(empty->defaults.empty() && empty->overrides.empty() && empty->endpoints.empty());
  EXPECT_EQ(rest::ParseConfigResponse("<html>").status().code(), StatusCode::kInvalidArgument);
  EXPECT_EQ(rest::ParseConfigResponse("[]").status().code(), StatusCode::kInvalidArgument);
  EXPECT_EQ(rest::ParseConfigResponse(R"({"overrides": []})").status().code(), StatusCode::kInvalidArgument);
}

// --- Errors ---------------------------------------------------------------------------------------

std::string ErrorBody(int code, const std::string& type, const std::string& message) {
  return R"({"error": {"message": ")" + message + R"(", "type": ")" + type + R"(", "code": )" +
         std::to_string(code) + "}}";
}

TEST(RestCatalogClientErrors, ParsesTheErrorModel) {
  auto e = rest::ParseErrorModel(ErrorBody(404, "NoSuchTableException", "Table does not exist: db.t"));
  ASSERT_TRUE(e.has_value());
  EXPECT_EQ(e->type, "NoSuchTableException");
  EXPECT_EQ(e->message, "Table does not exist: db.t");
  EXPECT_EQ(e->code, 404);
  EXPECT_FALSE(rest::ParseErrorModel("<html>404</html>").has_value());
  EXPECT_FALSE(rest::ParseErrorModel(R"({"error": "invalid_client"})").has_value());
}

TEST(RestCatalogClientErrors, MapsHttpStatusesToStatusCodes) {
  struct Case {
    long http;
    RequestKind kind;
    StatusCode want;
  };
  const Case cases[] = {
      {400, RequestKind::kCommit, StatusCode::kInvalidArgument},
      {422, RequestKind::kWrite, StatusCode::kInvalidArgument},
      {401, RequestKind::kRead, StatusCode::kUnavailable},
      {403, RequestKind::kCommit, StatusCode::kUnavailable},
      {404, RequestKind::kRead, StatusCode::kNotFound},
      {404, RequestKind::kCommit, StatusCode::kNotFound},
      {406, RequestKind::kRead, StatusCode::kUnsupported},
      {409, RequestKind::kCommit, StatusCode::kConflict},
      {409, RequestKind::kCreate, StatusCode::kAlreadyExists},
      {409, RequestKind::kWrite, StatusCode::kConflict},  // drop of a non-empty namespace
      {429, RequestKind::kRead, StatusCode::kUnavailable},
      {500, RequestKind::kRead, StatusCode::kUnavailable},
      {500, RequestKind::kCommit, StatusCode::kUnavailable},
      {503, RequestKind::kCommit, StatusCode::kUnavailable},
  };
  for (const auto& c : cases) {
    Status st = rest::StatusFromHttpError(c.http, ErrorBody(static_cast<int>(c.http), "SomeException", "why"), c.kind,
                                          "commit to table db.t");
    EXPECT_EQ(st.code(), c.want) << c.http << " " << st.ToString();
    EXPECT_NE(st.message().find("HTTP " + std::to_string(c.http) + " SomeException: why"), std::string::npos)
        << st.message();
    EXPECT_NE(st.message().find("commit to table db.t"), std::string::npos) << st.message();
  }
}

TEST(RestCatalogClientErrors, AuthorizationFailuresSaySo) {
  Status st = rest::StatusFromHttpError(401, ErrorBody(401, "NotAuthorizedException", "bad token"), RequestKind::kRead,
                                        "GET /v1/config");
  EXPECT_EQ(st.code(), StatusCode::kUnavailable);
  EXPECT_NE(st.message().find("not authorized"), std::string::npos) << st.message();
}

TEST(RestCatalogClientErrors, CommitStateUnknownOnlyForAmbiguousCommitFailures) {
  for (long http : {500L, 502L, 504L}) {
    Status st = rest::StatusFromHttpError(http, "", RequestKind::kCommit, "commit to table db.t");
    EXPECT_EQ(st.code(), StatusCode::kUnavailable);
    EXPECT_NE(st.message().find("commit state unknown"), std::string::npos) << st.message();
    EXPECT_NE(st.message().find("reload the table"), std::string::npos) << st.message();
    Status read = rest::StatusFromHttpError(http, "", RequestKind::kRead, "load of table db.t");
    EXPECT_EQ(read.message().find("commit state unknown"), std::string::npos) << read.message();
  }
  Status unavailable = rest::StatusFromHttpError(503, "", RequestKind::kCommit, "commit to table db.t");
  EXPECT_EQ(unavailable.message().find("commit state unknown"), std::string::npos) << unavailable.message();
  // A non-JSON body still shows up, cut to one line.
  Status html = rest::StatusFromHttpError(502, "<html>\nbad gateway</html>", RequestKind::kCommit, "commit");
  EXPECT_NE(html.message().find("HTTP 502: <html> bad gateway</html>"), std::string::npos) << html.message();
}

TEST(RestCatalogClientErrors, TransportFailures) {
  Status lost = rest::StatusFromTransportError("Operation timed out", true, RequestKind::kCommit, "commit to table t");
  EXPECT_EQ(lost.code(), StatusCode::kUnavailable);
  EXPECT_NE(lost.message().find("commit state unknown"), std::string::npos);
  Status refused = rest::StatusFromTransportError("Connection refused", false, RequestKind::kCommit, "commit");
  EXPECT_EQ(refused.code(), StatusCode::kUnavailable);
  EXPECT_EQ(refused.message().find("commit state unknown"), std::string::npos);
  Status read = rest::StatusFromTransportError("Operation timed out", true, RequestKind::kRead, "load");
  EXPECT_EQ(read.message().find("commit state unknown"), std::string::npos);
}

TEST(RestCatalogClientErrors, RetryableStatuses) {
  for (long s : {408L, 429L, 500L, 502L, 503L, 504L}) EXPECT_TRUE(rest::IsRetryableHttpStatus(s)) << s;
  for (long s : {200L, 400L, 401L, 403L, 404L, 409L, 422L, 501L}) EXPECT_FALSE(rest::IsRetryableHttpStatus(s)) << s;
}

// --- Bodies and parsing ---------------------------------------------------------------------------

schema::Schema TwoColumns() {
  schema::Schema s;
  schema::NestedField id;
  id.id = 1;
  id.name = "id";
  id.required = true;
  id.type = schema::Type::Primitive(schema::TypeId::kLong);
  schema::NestedField name;
  name.id = 2;
  name.name = "name";
  name.type = schema::Type::Primitive(schema::TypeId::kString);
  s.fields = {id, name};
  return s;
}

std::string MetadataJson() {
  auto m = iceberg::NewTableMetadata(TwoColumns(), {}, {}, "file:///wh/db/t", {{"k", "v"}}, 1'700'000'000'000);
  EXPECT_TRUE(m.ok()) << m.status().ToString();
  return iceberg::SerializeTableMetadata(*m);
}

std::string LoadTableBody(const std::string& location = "file:///wh/db/t/metadata/00000-a.metadata.json") {
  return R"({"metadata-location": ")" + location + R"(", "metadata": )" + MetadataJson() +
         R"(, "config": {"s3.access-key-id": "AK"}})";
}

TEST(RestCatalogClientParse, LoadTableResult) {
  auto t = rest::ParseLoadTableResult(LoadTableBody());
  ASSERT_TRUE(t.ok()) << t.status().ToString();
  EXPECT_EQ(t->metadata_location, "file:///wh/db/t/metadata/00000-a.metadata.json");
  EXPECT_EQ(t->metadata.location, "file:///wh/db/t");
  ASSERT_NE(t->metadata.CurrentSchema(), nullptr);
  EXPECT_EQ(t->metadata.CurrentSchema()->fields.size(), 2u);
  EXPECT_EQ(t->config.at("s3.access-key-id"), "AK");
  // Staged creates have no location.
  auto staged = rest::ParseLoadTableResult(R"({"metadata": )" + MetadataJson() + "}");
  ASSERT_TRUE(staged.ok()) << staged.status().ToString();
  EXPECT_TRUE(staged->metadata_location.empty());
  EXPECT_EQ(rest::ParseLoadTableResult(R"({"metadata-location": "x"})").status().code(), StatusCode::kInvalidArgument);
  auto broken = rest::ParseLoadTableResult(R"({"metadata": {"format-version": 2}})");
  EXPECT_EQ(broken.status().code(), StatusCode::kInvalidArgument);
  EXPECT_NE(broken.status().message().find("REST catalog table"), std::string::npos);
}

TEST(RestCatalogClientParse, StorageCredentialsAndWhatTheyDelegate) {
  const std::string body = R"({"metadata-location": "s3://lake/wh/db/t/metadata/00000-a.metadata.json", "metadata": )" +
                           MetadataJson() + R"json(, "config": {"s3.region": "eu-west-1"},
      "storage-credentials": [{"prefix": "s3://lake/wh/db/t/data", "config": {"s3.access-key-id": "AK",
                               "s3.secret-access-key": "SK", "s3.session-token": "T"}}]})json";
  auto t = rest::ParseLoadTableResult(body);
  ASSERT_TRUE(t.ok()) << t.status().ToString();
  ASSERT_EQ(t->storage_credentials.size(), 1u);
  EXPECT_EQ(t->storage_credentials[0].prefix, "s3://lake/wh/db/t/data");
  EXPECT_EQ(t->storage_credentials[0].config.at("s3.session-token"), "T");

  // The catalog's properties < the table's config < a storage credential's config.
  const auto grants = rest::DelegatedStorageAccess({{"s3.endpoint", "http://s3"}, {"s3.region", "us-east-1"}}, *t);
  ASSERT_EQ(grants.size(), 2u);
  EXPECT_EQ(grants[0].prefix, "file:///wh/db/t");  // the metadata's location
  EXPECT_EQ(grants[0].properties.at("s3.region"), "eu-west-1");
  EXPECT_EQ(grants[0].properties.at("s3.endpoint"), "http://s3");
  EXPECT_EQ(grants[0].properties.count("s3.access-key-id"), 0u);
  EXPECT_EQ(grants[1].prefix, "s3://lake/wh/db/t/data");
  EXPECT_EQ(grants[1].properties.at("s3.access-key-id"), "AK");
  EXPECT_EQ(grants[1].properties.at("s3.region"), "eu-west-1");

  EXPECT_EQ(rest::ParseLoadTableResult(R"({"metadata": )" + MetadataJson() + R"(, "storage-credentials": {}})")
                .status()
                .code(),
            StatusCode::kInvalidArgument);
  EXPECT_EQ(rest::ParseLoadTableResult(R"({"metadata": )" + MetadataJson() +
                                       R"(, "storage-credentials": [{"config": {}}]})")
                .status()
                .code(),
            StatusCode::kInvalidArgument);
}

TEST(RestCatalogClientParse, ListsAndPages) {
  rest::Page page;
  auto ns = rest::ParseListNamespaces(R"({"namespaces": [["a"], ["a", "b"]], "next-page-token": "2"})", page);
  ASSERT_TRUE(ns.ok());
  EXPECT_EQ(*ns, (std::vector<Namespace>{{"a"}, {"a", "b"}}));
  EXPECT_EQ(page.next_page_token, "2");
  auto tables = rest::ParseListTables(R"({"identifiers": [{"namespace": ["a"], "name": "t"}], "next-page-token": null})",
                                      page);
  ASSERT_TRUE(tables.ok());
  EXPECT_EQ(*tables, (std::vector<TableIdentifier>{{{"a"}, "t"}}));
  EXPECT_EQ(page.next_page_token, "");
  EXPECT_FALSE(rest::ParseListTables(R"({"identifiers": [{"name": "t"}]})", page).ok());
  EXPECT_FALSE(rest::ParseListNamespaces(R"({"namespaces": [[1]]})", page).ok());
}

TEST(RestCatalogClientParse, CreateAndCommitBodies) {
  NewTable table;
  table.id = {{"db"}, "t"};
  table.schema = TwoColumns();
  table.properties = {{"owner", "floe"}};
  auto body = rest::CreateTableRequestJson(table, /*stage_only=*/true);
  EXPECT_EQ(body["name"], "t");
  EXPECT_EQ(body["stage-create"], true);
  EXPECT_EQ(body["schema"]["fields"].size(), 2u);
  EXPECT_FALSE(body.contains("partition-spec"));
  EXPECT_FALSE(body.contains("location"));
  EXPECT_EQ(body["properties"]["owner"], "floe");

  TableChange change;
  change.id = {{"a", "b"}, "t"};
  change.requirements.push_back(iceberg::AssertRefSnapshotId{"main", std::nullopt});
  change.updates.push_back(iceberg::SetPropertiesUpdate{{{"k", "v"}}});
  auto commit = rest::CommitTableRequestJson(change, /*with_identifier=*/true);
  EXPECT_EQ(commit["identifier"]["namespace"], nlohmann::json({"a", "b"}));
  EXPECT_EQ(commit["requirements"][0]["type"], "assert-ref-snapshot-id");
  EXPECT_TRUE(commit["requirements"][0]["snapshot-id"].is_null());
  EXPECT_EQ(commit["updates"][0]["action"], "set-properties");
  auto txn = rest::CommitTransactionRequestJson({change, change});
  EXPECT_EQ(txn["table-changes"].size(), 2u);
}

TEST(RestCatalogClientParse, OAuthTokens) {
  auto ok = rest::ParseOAuthTokenResponse(200, R"({"access_token": "abc", "token_type": "bearer", "expires_in": 3600})");
  ASSERT_TRUE(ok.ok());
  EXPECT_EQ(ok->access_token, "abc");
  EXPECT_EQ(ok->expires_in_seconds, 3600);
  auto denied = rest::ParseOAuthTokenResponse(401, R"({"error": "invalid_client", "error_description": "no such id"})");
  EXPECT_EQ(denied.status().code(), StatusCode::kUnavailable);
  EXPECT_NE(denied.status().message().find("invalid_client: no such id"), std::string::npos);
  EXPECT_NE(denied.status().message().find("not authorized"), std::string::npos);
}

// --- The client against a scripted server ---------------------------------------------------------

// Answers requests from a queue of (expected method+url, response); records what was sent.
class ScriptedTransport final : public rest::HttpTransport {
 public:
  struct Step {
    std::string method;
    std::string url;
    HttpResponse response;
  };
  explicit ScriptedTransport(std::deque<Step>* steps, std::vector<HttpRequest>* sent) : steps_(steps), sent_(sent) {}

  HttpResponse Send(const HttpRequest& request) override {
    std::lock_guard lock(mu_);
    sent_->push_back(request);
    if (steps_->empty()) return {500, "unexpected request " + request.method + " " + request.url, "", false};
    Step step = steps_->front();
    steps_->pop_front();
    if (step.method != request.method || step.url != request.url) {
      ADD_FAILURE() << "expected " << step.method << " " << step.url << ", got " << request.method << " "
                    << request.url;
    }
    return step.response;
  }

 private:
  std::mutex mu_;
  std::deque<Step>* steps_;
  std::vector<HttpRequest>* sent_;
};

std::string Header(const HttpRequest& r, const std::string& name) {
  for (const auto& [k, v] : r.headers) {
    if (k == name) return v;
  }
  return "";
}

class RestCatalogClientFlow : public ::testing::Test {
 protected:
  Result<std::unique_ptr<RestCatalogClient>> Open(RestCatalogOptions options) {
    options.initial_backoff = std::chrono::milliseconds(1);
    options.max_backoff = std::chrono::milliseconds(2);
    return RestCatalogClient::Open(std::move(options), std::make_unique<ScriptedTransport>(&steps_, &sent_));
  }
  void Expect(std::string method, std::string url, long status, std::string body = "") {
    steps_.push_back({std::move(method), std::move(url), {status, std::move(body), "", false}});
  }
  // http://cat with OAuth2 client credentials client:s3cret.
  static RestCatalogOptions WithCredential() {
    RestCatalogOptions o;
    o.uri = "http://cat";
    o.credential = "client:s3cret";
    return o;
  }
  void ExpectTransportFailure(std::string method, std::string url, bool maybe_delivered) {
    steps_.push_back({std::move(method), std::move(url), {0, "", "Connection reset by peer", maybe_delivered}});
  }

  std::deque<ScriptedTransport::Step> steps_;
  std::vector<HttpRequest> sent_;
};

TEST_F(RestCatalogClientFlow, ConfigShapesPathsAndHeaders) {
  Expect("GET", "http://cat/v1/config?warehouse=wh1", 200,
         R"({"defaults": {"header.X-Team": "data"}, "overrides": {"prefix": "p/1", "namespace-separator": "%2E"}})");
  RestCatalogOptions o;
  o.uri = "http://cat/";
  o.warehouse = "wh1";
  o.token = "t0k";
  o.prefix = "ignored-by-override";
  auto client = Open(o);
  ASSERT_TRUE(client.ok()) << client.status().ToString();
  EXPECT_EQ((*client)->properties().at("prefix"), "p/1");
  EXPECT_EQ(Header(sent_.at(0), "Authorization"), "Bearer t0k");

  Expect("GET", "http://cat/v1/p/1/namespaces/a%2Eb/tables/t", 200, LoadTableBody());
  auto t = (*client)->LoadTable({{"a", "b"}, "t"});
  ASSERT_TRUE(t.ok()) << t.status().ToString();
  EXPECT_EQ(t->metadata_location, "file:///wh/db/t/metadata/00000-a.metadata.json");
  EXPECT_EQ(t->metadata.location, "file:///wh/db/t");
  EXPECT_EQ(Header(sent_.back(), "X-Team"), "data");
  EXPECT_EQ(Header(sent_.back(), "Authorization"), "Bearer t0k");
  EXPECT_TRUE(steps_.empty());
}

TEST_F(RestCatalogClientFlow, RejectsNonHttpUris) {
  RestCatalogOptions o;
  o.uri = "file:///etc";
  EXPECT_EQ(Open(o).status().code(), StatusCode::kInvalidArgument);
  EXPECT_TRUE(sent_.empty());
}

TEST_F(RestCatalogClientFlow, UnauthorizedConfigFailsOpen) {
  Expect("GET", "http://cat/v1/config", 401, ErrorBody(401, "NotAuthorizedException", "no token"));
  RestCatalogOptions o;
  o.uri = "http://cat";
  auto client = Open(o);
  EXPECT_EQ(client.status().code(), StatusCode::kUnavailable);
  EXPECT_NE(client.status().message().find("not authorized"), std::string::npos);
  EXPECT_EQ(sent_.size(), 1u);  // 401 is not retried
}

TEST_F(RestCatalogClientFlow, ReadsAreRetriedWithBackoff) {
  Expect("GET", "http://cat/v1/config", 200, "{}");
  RestCatalogOptions o;
  o.uri = "http://cat";
  o.max_attempts = 3;
  auto client = Open(o);
  ASSERT_TRUE(client.ok());
  Expect("GET", "http://cat/v1/namespaces/db", 503, ErrorBody(503, "ServiceUnavailableException", "busy"));
  ExpectTransportFailure("GET", "http://cat/v1/namespaces/db", true);
  Expect("GET", "http://cat/v1/namespaces/db", 200, R"({"namespace": ["db"], "properties": {"owner": "x"}})");
  auto props = (*client)->LoadNamespaceProperties({"db"});
  ASSERT_TRUE(props.ok()) << props.status().ToString();
  EXPECT_EQ(props->at("owner"), "x");

  for (int i = 0; i < 3; ++i) Expect("GET", "http://cat/v1/namespaces/db/tables/t", 502, "");
  auto gone = (*client)->LoadTable({{"db"}, "t"});
  EXPECT_EQ(gone.status().code(), StatusCode::kUnavailable);
  EXPECT_TRUE(steps_.empty());
}

TEST_F(RestCatalogClientFlow, WritesAreNeverResent) {
  Expect("GET", "http://cat/v1/config", 200, "{}");
  RestCatalogOptions o;
  o.uri = "http://cat";
  auto client = Open(o);
  ASSERT_TRUE(client.ok());
  TableChange change;
  change.id = {{"db"}, "t"};
  change.updates.push_back(iceberg::SetPropertiesUpdate{{{"k", "v"}}});

  Expect("POST", "http://cat/v1/namespaces/db/tables/t", 503, "");
  EXPECT_EQ((*client)->CommitTable(change).status().code(), StatusCode::kUnavailable);
  Expect("POST", "http://cat/v1/namespaces/db/tables/t", 504, "");
  auto unknown = (*client)->CommitTable(change);
  EXPECT_EQ(unknown.status().code(), StatusCode::kUnavailable);
  EXPECT_NE(unknown.status().message().find("commit state unknown"), std::string::npos);
  ExpectTransportFailure("POST", "http://cat/v1/namespaces/db/tables/t", true);
  auto lost = (*client)->CommitTable(change);
  EXPECT_NE(lost.status().message().find("commit state unknown"), std::string::npos) << lost.status().ToString();
  Expect("POST", "http://cat/v1/namespaces/db/tables/t", 409,
         ErrorBody(409, "CommitFailedException", "Requirement failed: branch main has changed"));
  auto conflict = (*client)->CommitTable(change);
  EXPECT_EQ(conflict.status().code(), StatusCode::kConflict);
  EXPECT_NE(conflict.status().message().find("branch main has changed"), std::string::npos);
  EXPECT_TRUE(steps_.empty());  // one request each
  EXPECT_EQ(Header(sent_.back(), "Content-Type"), "application/json");
  auto body = nlohmann::json::parse(sent_.back().body);
  EXPECT_EQ(body["updates"][0]["action"], "set-properties");
}

TEST_F(RestCatalogClientFlow, CreatesMapConflictsToAlreadyExists) {
  Expect("GET", "http://cat/v1/config", 200, "{}");
  RestCatalogOptions o;
  o.uri = "http://cat";
  auto client = Open(o);
  ASSERT_TRUE(client.ok());
  Expect("POST", "http://cat/v1/namespaces", 409, ErrorBody(409, "AlreadyExistsException", "exists"));
  EXPECT_EQ((*client)->CreateNamespace({"db"}, {}).code(), StatusCode::kAlreadyExists);
  Expect("DELETE", "http://cat/v1/namespaces/db", 409, ErrorBody(409, "NamespaceNotEmptyException", "has tables"));
  EXPECT_EQ((*client)->DropNamespace({"db"}).code(), StatusCode::kConflict);
  NewTable table;
  table.id = {{"db"}, "t"};
  table.schema = TwoColumns();
  Expect("POST", "http://cat/v1/namespaces/db/tables", 409, ErrorBody(409, "AlreadyExistsException", "exists"));
  EXPECT_EQ((*client)->CreateTable(table).status().code(), StatusCode::kAlreadyExists);
  Expect("POST", "http://cat/v1/namespaces/db/tables", 404, ErrorBody(404, "NoSuchNamespaceException", "no db"));
  EXPECT_EQ((*client)->CreateTable(table).status().code(), StatusCode::kNotFound);
  Expect("POST", "http://cat/v1/namespaces/db/tables", 200, LoadTableBody());
  auto created = (*client)->CreateTable(table);
  ASSERT_TRUE(created.ok()) << created.status().ToString();
  EXPECT_EQ(created->id, table.id);
  EXPECT_TRUE(steps_.empty());
}

TEST_F(RestCatalogClientFlow, ListsFollowPageTokens) {
  Expect("GET", "http://cat/v1/config", 200, "{}");
  RestCatalogOptions o;
  o.uri = "http://cat";
  auto client = Open(o);
  ASSERT_TRUE(client.ok());
  Expect("GET", "http://cat/v1/namespaces/db/tables", 200,
         R"({"identifiers": [{"namespace": ["db"], "name": "z"}], "next-page-token": "p2"})");
  Expect("GET", "http://cat/v1/namespaces/db/tables?pageToken=p2", 200,
         R"({"identifiers": [{"namespace": ["db"], "name": "a"}]})");
  auto tables = (*client)->ListTables({"db"});
  ASSERT_TRUE(tables.ok()) << tables.status().ToString();
  EXPECT_EQ(*tables, (std::vector<TableIdentifier>{{{"db"}, "a"}, {{"db"}, "z"}}));
  Expect("GET", "http://cat/v1/namespaces?parent=db", 200, R"({"namespaces": [["db", "x"]], "next-page-token": "q"})");
  Expect("GET", "http://cat/v1/namespaces?parent=db&pageToken=q", 200, R"({"namespaces": [], "next-page-token": "q"})");
  EXPECT_EQ((*client)->ListNamespaces({"db"}).status().code(), StatusCode::kUnavailable);  // a token loop
  EXPECT_TRUE(steps_.empty());
}

TEST_F(RestCatalogClientFlow, OAuthClientCredentials) {
  Expect("POST", "http://cat/v1/oauth/tokens", 200, R"({"access_token": "first", "token_type": "bearer"})");
  Expect("GET", "http://cat/v1/config", 200, "{}");
  RestCatalogOptions o;
  o.uri = "http://cat";
  o.credential = "client:s3cret";
  auto client = Open(o);
  ASSERT_TRUE(client.ok()) << client.status().ToString();
  EXPECT_EQ(sent_.at(0).body, "grant_type=client_credentials&client_id=client&client_secret=s3cret&scope=catalog");
  EXPECT_EQ(Header(sent_.at(0), "Content-Type"), "application/x-www-form-urlencoded");
  EXPECT_EQ(Header(sent_.at(0), "Authorization"), "");
  EXPECT_EQ(Header(sent_.at(1), "Authorization"), "Bearer first");
  // An expired token: one refresh, and the request goes again (even a write).
  Expect("POST", "http://cat/v1/namespaces", 401, ErrorBody(401, "NotAuthorizedException", "expired"));
  Expect("POST", "http://cat/v1/oauth/tokens", 200, R"({"access_token": "second", "token_type": "bearer"})");
  Expect("POST", "http://cat/v1/namespaces", 200, R"({"namespace": ["db"], "properties": {}})");
  ASSERT_TRUE((*client)->CreateNamespace({"db"}, {}).ok());
  EXPECT_EQ(Header(sent_.back(), "Authorization"), "Bearer second");
  // Twice in a row is a real refusal.
  Expect("GET", "http://cat/v1/namespaces/db", 401, ErrorBody(401, "NotAuthorizedException", "no"));
  Expect("POST", "http://cat/v1/oauth/tokens", 200, R"({"access_token": "third", "token_type": "bearer"})");
  Expect("GET", "http://cat/v1/namespaces/db", 401, ErrorBody(401, "NotAuthorizedException", "no"));
  EXPECT_EQ((*client)->LoadNamespaceProperties({"db"}).status().code(), StatusCode::kUnavailable);
  EXPECT_TRUE(steps_.empty());
}

TEST_F(RestCatalogClientFlow, OAuthTokenIsRefreshedBeforeItExpires) {
  auto now = std::chrono::system_clock::time_point{} + std::chrono::hours(1000);
  Expect("POST", "http://cat/v1/oauth/tokens", 200, R"({"access_token": "first", "expires_in": 100})");
  Expect("GET", "http://cat/v1/config", 200, "{}");
  RestCatalogOptions o = WithCredential();
  o.clock = [&] { return now; };
  auto client = Open(o);
  ASSERT_TRUE(client.ok()) << client.status().ToString();
  now += std::chrono::seconds(89);  // Iceberg's window: refresh 10% (at most 5 min) before expiry
  Expect("GET", "http://cat/v1/namespaces/db", 200, R"({"namespace": ["db"], "properties": {}})");
  ASSERT_TRUE((*client)->LoadNamespaceProperties({"db"}).ok());
  EXPECT_EQ(Header(sent_.back(), "Authorization"), "Bearer first");
  now += std::chrono::seconds(1);
  Expect("POST", "http://cat/v1/oauth/tokens", 200, R"({"access_token": "second", "expires_in": "100"})");
  Expect("GET", "http://cat/v1/namespaces/db", 200, R"({"namespace": ["db"], "properties": {}})");
  ASSERT_TRUE((*client)->LoadNamespaceProperties({"db"}).ok());
  EXPECT_EQ(Header(sent_.back(), "Authorization"), "Bearer second");
  // The token service is down at the next refresh: the token still lives, so it is used.
  now += std::chrono::seconds(95);
  Expect("POST", "http://cat/v1/oauth/tokens", 503, "");
  Expect("GET", "http://cat/v1/namespaces/db", 200, R"({"namespace": ["db"], "properties": {}})");
  ASSERT_TRUE((*client)->LoadNamespaceProperties({"db"}).ok());
  EXPECT_EQ(Header(sent_.back(), "Authorization"), "Bearer second");
  // Expired and still no token service: the call fails without sending the dead token.
  now += std::chrono::seconds(10);
  Expect("POST", "http://cat/v1/oauth/tokens", 503, R"({"error": "temporarily_unavailable"})");
  auto failed = (*client)->LoadNamespaceProperties({"db"});
  EXPECT_EQ(failed.status().code(), StatusCode::kUnavailable);
  EXPECT_EQ(failed.status().message().find("s3cret"), std::string::npos);
  EXPECT_TRUE(steps_.empty());
}

TEST_F(RestCatalogClientFlow, OAuthFallsBackToHttpBasicClientAuthentication) {
  Expect("POST", "http://idp/token", 401, R"({"error": "invalid_client"})");
  Expect("POST", "http://idp/token", 200, R"({"access_token": "tok"})");
  Expect("GET", "http://cat/v1/config", 200, "{}");
  RestCatalogOptions o = WithCredential();
  o.oauth2_server_uri = "http://idp/token";
  o.scope = "PRINCIPAL_ROLE:ALL";
  auto client = Open(o);
  ASSERT_TRUE(client.ok()) << client.status().ToString();
  EXPECT_EQ(sent_.at(0).body,
            "grant_type=client_credentials&client_id=client&client_secret=s3cret&scope=PRINCIPAL_ROLE%3AALL");
  // base64("client:s3cret"), and the secret no longer in the form (one client authentication).
  EXPECT_EQ(Header(sent_.at(1), "Authorization"), "Basic Y2xpZW50OnMzY3JldA==");
  EXPECT_EQ(sent_.at(1).body, "grant_type=client_credentials&scope=PRINCIPAL_ROLE%3AALL");
  EXPECT_EQ(Header(sent_.at(2), "Authorization"), "Bearer tok");
  // The next fetch (after a 401) goes straight to Basic.
  Expect("GET", "http://cat/v1/namespaces/db", 401, ErrorBody(401, "NotAuthorizedException", "expired"));
  Expect("POST", "http://idp/token", 200, R"({"access_token": "tok2"})");
  Expect("GET", "http://cat/v1/namespaces/db", 200, R"({"namespace": ["db"], "properties": {}})");
  ASSERT_TRUE((*client)->LoadNamespaceProperties({"db"}).ok());
  EXPECT_EQ(Header(sent_.at(4), "Authorization"), "Basic Y2xpZW50OnMzY3JldA==");
  EXPECT_EQ(Header(sent_.back(), "Authorization"), "Bearer tok2");
  EXPECT_TRUE(steps_.empty());
}

TEST_F(RestCatalogClientFlow, OAuthRefusedBothWaysNamesTheErrorNotTheSecret) {
  Expect("POST", "http://cat/v1/oauth/tokens", 401, R"({"error": "invalid_client", "error_description": "bad"})");
  Expect("POST", "http://cat/v1/oauth/tokens", 401, R"({"error": "invalid_client", "error_description": "bad"})");
  RestCatalogOptions o = WithCredential();
  auto client = Open(o);
  EXPECT_EQ(client.status().code(), StatusCode::kUnavailable);
  EXPECT_NE(client.status().message().find("invalid_client: bad"), std::string::npos) << client.status().ToString();
  EXPECT_EQ(client.status().message().find("s3cret"), std::string::npos);
  EXPECT_TRUE(steps_.empty());
}

TEST_F(RestCatalogClientFlow, ConfigUriOverrideMovesTheServiceAndTheTokenEndpoint) {
  Expect("POST", "http://cat/v1/oauth/tokens", 200, R"({"access_token": "a"})");
  Expect("GET", "http://cat/v1/config?warehouse=lake", 200,
         R"({"defaults": {"uri": "http://ignored"}, "overrides": {"uri": "http://moved/api/", "prefix": "lake"}})");
  RestCatalogOptions o = WithCredential();
  o.warehouse = "lake";
  auto client = Open(o);
  ASSERT_TRUE(client.ok()) << client.status().ToString();
  Expect("GET", "http://moved/api/v1/lake/namespaces/db", 401, ErrorBody(401, "NotAuthorizedException", "expired"));
  Expect("POST", "http://moved/api/v1/oauth/tokens", 200, R"({"access_token": "b"})");
  Expect("GET", "http://moved/api/v1/lake/namespaces/db", 200, R"({"namespace": ["db"], "properties": {}})");
  ASSERT_TRUE((*client)->LoadNamespaceProperties({"db"}).ok());
  EXPECT_TRUE(steps_.empty());
  // A server that points the client somewhere that is not http(s) is refused.
  Expect("GET", "http://cat/v1/config", 200, R"({"overrides": {"uri": "file:///etc"}})");
  RestCatalogOptions plain;
  plain.uri = "http://cat";
  EXPECT_EQ(Open(plain).status().code(), StatusCode::kInvalidArgument);
}

TEST_F(RestCatalogClientFlow, SigV4SignsCatalogRequestsNotTokenRequests) {
  Expect("POST", "http://cat/v1/oauth/tokens", 200, R"({"access_token": "bear"})");
  Expect("GET", "http://cat/v1/config?warehouse=123", 200, "{}");
  RestCatalogOptions o = WithCredential();
  o.warehouse = "123";
  o.sigv4 = storage::SigV4Scope{"eu-west-1", "glue"};
  int asked = 0;
  o.aws_credentials = [&]() -> Result<storage::AwsCredentials> {
    if (++asked > 2) return Status::IoError("no AWS credentials found");
    return storage::AwsCredentials{"AKID", "SECRET", "SESSION"};
  };
  auto client = Open(o);
  ASSERT_TRUE(client.ok()) << client.status().ToString();
  EXPECT_EQ(Header(sent_.at(0), "Authorization"), "");
  EXPECT_EQ(Header(sent_.at(0), "x-amz-date"), "");
  const auto& config = sent_.at(1);
  EXPECT_EQ(Header(config, "Authorization").rfind("AWS4-HMAC-SHA256 Credential=AKID/", 0), 0u)
      << Header(config, "Authorization");
  EXPECT_NE(Header(config, "Authorization").find("/eu-west-1/glue/aws4_request"), std::string::npos);
  EXPECT_EQ(Header(config, "Original-Authorization"), "Bearer bear");
  EXPECT_EQ(Header(config, "x-amz-security-token"), "SESSION");
  Expect("GET", "http://cat/v1/namespaces/db", 200, R"({"namespace": ["db"], "properties": {}})");
  ASSERT_TRUE((*client)->LoadNamespaceProperties({"db"}).ok());
  // No credentials: the request is not sent unsigned.
  const auto before = sent_.size();
  auto unsigned_call = (*client)->LoadNamespaceProperties({"db"});
  EXPECT_EQ(unsigned_call.status().code(), StatusCode::kIoError);
  EXPECT_NE(unsigned_call.status().message().find("SigV4"), std::string::npos);
  EXPECT_EQ(sent_.size(), before);
  EXPECT_TRUE(steps_.empty());
}

TEST_F(RestCatalogClientFlow, TransactionsAndRenames) {
  Expect("GET", "http://cat/v1/config", 200, R"({"overrides": {"prefix": "p"}})");
  RestCatalogOptions o;
  o.uri = "http://cat";
  auto client = Open(o);
  ASSERT_TRUE(client.ok());
  TableChange a{{{"db"}, "a"}, {}, {iceberg::SetPropertiesUpdate{{{"k", "v"}}}}};
  TableChange b{{{"db"}, "b"}, {}, {iceberg::SetPropertiesUpdate{{{"k", "v"}}}}};
  EXPECT_EQ((*client)->CommitTransaction({a, a}).code(), StatusCode::kInvalidArgument);
  Expect("POST", "http://cat/v1/p/transactions/commit", 204);
  EXPECT_TRUE((*client)->CommitTransaction({a, b}).ok());
  EXPECT_EQ(nlohmann::json::parse(sent_.back().body)["table-changes"][1]["identifier"]["name"], "b");
  Expect("POST", "http://cat/v1/p/transactions/commit", 500, ErrorBody(500, "CommitStateUnknownException", "?"));
  auto unknown = (*client)->CommitTransaction({a, b});
  EXPECT_NE(unknown.message().find("commit state unknown"), std::string::npos) << unknown.ToString();
  Expect("POST", "http://cat/v1/p/tables/rename", 409, ErrorBody(409, "AlreadyExistsException", "b exists"));
  EXPECT_EQ((*client)->RenameTable(a.id, b.id).code(), StatusCode::kAlreadyExists);
  Expect("DELETE", "http://cat/v1/p/namespaces/db/tables/a?purgeRequested=true", 204);
  EXPECT_TRUE((*client)->DropTable(a.id, true).ok());
  EXPECT_TRUE(steps_.empty());
}

TEST(RestCatalogClientOpen, OpenTableCatalogFollowsCatalogType) {
  const auto dir = std::filesystem::temp_directory_path() / ("floe-rest-open-" + std::to_string(::getpid()));
  FloeConfig config;
  config.warehouse = dir.string();
  config.catalog.type = CatalogType::kBuiltin;
  config.catalog.uri = "sqlite://:memory:";
  auto builtin = OpenTableCatalog(config);
  ASSERT_TRUE(builtin.ok()) << builtin.status().ToString();
  EXPECT_NE(dynamic_cast<IcebergCatalog*>(builtin->get()), nullptr);
  EXPECT_TRUE((*builtin)->CreateNamespace({"db"}, {}).ok());
  EXPECT_EQ((*builtin)->ListNamespaces({}).value(), std::vector<Namespace>{{"db"}});
  config.catalog.type = CatalogType::kRest;
  config.catalog.uri = "catalog.example:8181";  // no scheme
  EXPECT_EQ(OpenTableCatalog(config).status().code(), StatusCode::kInvalidArgument);
  std::error_code ec;
  std::filesystem::remove_all(dir, ec);
}

}  // namespace
}  // namespace floe::catalog
