#pragma once
// floe.yaml: the typed configuration and its loader. The loader reports every problem it
// finds at once, each naming the file, line, column and dotted key, so that one run of
// `floe validate` is enough to fix a config. docs/configuration.md is the reference.
#include <chrono>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "floe/core/result.h"

namespace floe {

// kAuto: a Schema Registry format chosen per record from the schema's schemaType.
enum class PayloadFormat { kAvro, kProtobuf, kJsonSchema, kJson, kString, kBytes, kAuto };
enum class ErrorMode { kSuspend, kSkip, kDlq };
enum class SystemColumns { kNested, kTableflow };
enum class TableFormat { kIceberg, kDelta };
enum class CatalogType { kBuiltin, kRest, kGlue, kUnity };
std::string_view CatalogTypeName(CatalogType t);

std::string_view PayloadFormatName(PayloadFormat f);
// True for the formats whose records carry a Schema Registry id (Confluent wire format).
bool UsesSchemaRegistry(PayloadFormat f);

struct KafkaConfig {
  std::string bootstrap_servers;
  std::string group_id = "floe";
  // Static group membership (KIP-345, librdkafka's group.instance.id): a worker restarted with
  // the same id takes its partitions back without a rebalance. Empty: a dynamic member.
  std::string instance_id;
  std::map<std::string, std::string> properties;  // passed through to librdkafka
};

struct SchemaRegistryConfig {
  std::string url;
  std::string basic_auth_user;
  std::string basic_auth_password;  // resolved secret, never printed
  std::string bearer_token;         // resolved secret, never printed
  std::string ca_file;  // PEM CA certificates that sign an https registry's; empty: SSL_CERT_FILE or the system store
};

// `tls: {cert, key}` of a server Floe runs (the served REST catalog, the admin API): PEM files,
// the certificate file possibly a chain. Unset: plain HTTP.
struct ServerTlsConfig {
  std::string cert_file;
  std::string key_file;
};

// catalog.auth (docs/security.md): OAuth2 client credentials for the served REST catalog.
// Clients get expiring bearer tokens from POST /v1/oauth/tokens; a read client's tokens may
// only read. Secrets hold resolved values; nothing may print them.
struct CatalogAuthConfig {
  enum class Scope { kRead, kWrite };
  struct Client {
    std::string id;
    std::string secret;
    Scope scope = Scope::kRead;
  };
  std::vector<Client> clients;
  std::chrono::seconds token_ttl{3600};
};

// How AWS credentials are found: storage.s3 and catalog.type glue share the fields and the chain.
enum class S3CredentialsKind { kDefault, kStatic };

// catalog.type glue (docs/catalog.md, "AWS Glue"): tables registered in the AWS Glue Data
// Catalog. Secret fields hold resolved values; nothing may print them.
struct GlueCatalogConfig {
  std::string region;      // empty: the AWS chain (AWS_REGION, profile)
  std::string catalog_id;  // empty: the caller's account; else sent as CatalogId
  std::string endpoint;    // http(s)://host:port (tests: moto); empty: https://glue.<region>.amazonaws.com
  S3CredentialsKind credentials = S3CredentialsKind::kDefault;
  std::string access_key_id;      // static only
  std::string secret_access_key;  // static only
  std::string session_token;      // static only, optional
  std::string role_arn;           // assumed through STS on top of the default chain
  std::string external_id;
};

struct CatalogConfig {
  CatalogType type = CatalogType::kBuiltin;
  GlueCatalogConfig glue;  // type glue only
  std::string uri;     // sqlite:///…, postgresql://…, or the REST base URI
  std::string listen;  // host:port to serve the Iceberg REST catalog from `floe run`; empty = off
  std::string token;   // bearer token for the REST catalog (client or server)
  // type unity: the Unity Catalog catalog that holds Floe's schemas (<it>.<namespace>.<table>);
  // catalog.uri is the Unity server or Databricks workspace, catalog.token its bearer token.
  std::string unity_catalog;
  // The served catalog hands out short-lived, table-scoped read credentials (STS on
  // storage.s3.role_arn) with LoadTable, so engines need no keys of their own.
  bool vend_credentials = false;
  // type rest (docs/rest-catalog-client.md): OAuth2 client credentials "id:secret" (instead of
  // token; resolved, never printed), their token endpoint (empty: <uri>/v1/oauth/tokens) and
  // scope; the warehouse sent to /v1/config (empty: the top-level warehouse); SigV4 signing of
  // every request with storage.s3's AWS credential chain (region empty: the chain's).
  std::string credential;
  std::string oauth2_server_uri;
  std::string scope = "catalog";
  std::string warehouse;
  // "vended-credentials": ask the catalog for credentials (X-Iceberg-Access-Delegation) and
  // use the storage settings and credentials its LoadTable answers carry for each table's
  // files; "" (none): storage.s3's own.
  std::string access_delegation;
  struct SigV4 {
    std::string region;
    std::string service = "execute-api";  // glue | s3tables | execute-api
  };
  std::optional<SigV4> sigv4;
  // The served catalog (catalog.listen, `floe catalog serve`): HTTPS, and OAuth2 clients.
  std::optional<ServerTlsConfig> tls;
  std::optional<CatalogAuthConfig> auth;
  // The served catalog's guards against hostile clients (docs/security.md, "Hostile input"):
  // a larger request body is answered 413; a client that has not sent a whole request this
  // long after its connection was picked up (or after the previous answer) is disconnected.
  std::int64_t max_request_size = 16LL << 20;
  std::chrono::milliseconds request_timeout{30'000};
  // The served catalog also lets clients create or move tables and views below these places
  // (absolute paths or URIs: file:///data/lake, s3://other-bucket/tables); by default only
  // below the warehouse.
  std::vector<std::string> allowed_locations;
};

struct AdminConfig {
  std::string listen;  // host:port for /healthz, /status, /metrics; empty = off
  // Bearer token of the mutating routes (resume, skip); empty = those routes are off. A
  // secret: the resolved value of its ${env:…}/${file:…} reference, never printed.
  std::string token;
  std::optional<ServerTlsConfig> tls;  // HTTPS for the whole admin listener
  // OAuth2 clients of the admin listener's POST /v1/oauth/tokens; a write token may resume and
  // skip like admin.token, a read token may not (docs/security.md, "The admin API").
  std::optional<CatalogAuthConfig> auth;
};

// storage.s3 (docs/storage.md). Secret fields hold the resolved values of their
// ${env:…}/${file:…} references; nothing may print them.
// When the AWS SDK adds its flexible checksums (CRC trailers on uploads). Many S3-compatible
// stores reject those trailers, so with an endpoint Floe asks only where an API requires them.
enum class S3RequestChecksums { kAuto, kWhenSupported, kWhenRequired };
struct S3StorageConfig {
  std::string region;    // empty: the AWS chain (AWS_REGION, profile)
  std::string endpoint;  // http(s)://host:port of an S3-compatible store; empty: AWS
  bool path_style = false;
  S3CredentialsKind credentials = S3CredentialsKind::kDefault;
  std::string access_key_id;      // static only
  std::string secret_access_key;  // static only
  std::string session_token;      // static only, optional
  std::string role_arn;           // assumed through STS on top of the credentials above
  std::string external_id;
  std::string sse_type;        // "" (the bucket's default) or AES256
  std::string sse_kms_key_id;  // reserved for aws:kms (refused until the data path can send it)
  S3RequestChecksums request_checksums = S3RequestChecksums::kAuto;  // auto: when_required with an endpoint
  // Keys handed to Iceberg REST catalog clients in LoadTable's config so that engines read
  // with the catalog URI alone. Never Floe's own credentials: these should be read-only.
  std::string reader_access_key_id;
  std::string reader_secret_access_key;
};

// storage.azure (docs/storage.md): Azure Blob Storage / ADLS Gen2, for abfs(s):// and az://
// warehouses. Secret fields hold resolved values; nothing may print them.
enum class AzureCredentialsKind { kDefault, kKey, kSas };
struct AzureStorageConfig {
  std::string account;   // the storage account name
  std::string endpoint;  // http(s)://host:port[/account] of an emulator (Azurite); empty: Azure
  AzureCredentialsKind credentials = AzureCredentialsKind::kDefault;
  std::string account_key;  // key only
  std::string sas_token;    // sas only (without the leading '?')
  // A SAS handed to Iceberg REST catalog clients in LoadTable's config (adls.sas-token);
  // should grant read and list only. Account keys always grant everything, so none is handed out.
  std::string reader_sas_token;
};

// storage.gcs (docs/storage.md): Google Cloud Storage, for gs:// warehouses.
enum class GcsCredentialsKind { kDefault, kAnonymous, kServiceAccountFile };
struct GcsStorageConfig {
  std::string endpoint;  // http(s)://host:port of an emulator (fake-gcs-server); empty: Google
  GcsCredentialsKind credentials = GcsCredentialsKind::kDefault;
  std::string service_account_file;  // service_account_file only: the JSON key's path
  std::string project_id;            // optional
};

struct StorageConfig {
  std::optional<S3StorageConfig> s3;
  std::optional<AzureStorageConfig> azure;
  std::optional<GcsStorageConfig> gcs;
  // Allows formats: [delta] on a store that does not honour conditional creates, at the risk
  // of a lost commit when two writers race (docs/storage.md).
  bool delta_single_writer = false;
};

// maintenance: (docs/maintenance.md): what `floe run` does, on its own thread, to keep the
// tables it writes small and fast; `floe maintain` runs one pass of the same. The top-level
// section holds the defaults, a topic's `maintenance:` overrides any of its keys.
struct CompactionConfig {
  bool enabled = true;
  // A table is compacted once it has at least this many small files (smaller than
  // target_file_size); fewer are left for a later pass. Also: `floe run` compacts between
  // passes once this many were committed since the last. At least 2. 5 as Iceberg's
  // rewrite_data_files min-input-files: under 1 s commits, files stay near the health bound
  // 2 x (bytes / target_file_size) + 10 (docs/maintenance.md).
  int min_files = 5;
  // The size merged files aim at. 0 until resolved: a topic's value defaults to the topic's
  // own target_file_size.
  std::int64_t target_file_size = 0;
};

// ~1 KB of metadata per snapshot at 32 Kafka partitions (docs/maintenance.md): about 0.5 MB.
inline constexpr int kDefaultMaxSnapshots = 500;

struct MaintenanceConfig {
  bool enabled = true;
  std::chrono::milliseconds interval{5 * 60'000};  // between two passes over one table
  CompactionConfig compaction;
  // Snapshots (Delta: log versions and removed files) younger than this are kept for time
  // travel; at least min_snapshots are kept whatever their age.
  std::chrono::milliseconds snapshot_retention{7LL * 24 * 3'600'000};
  int min_snapshots = 10;
  // And at most this many (Delta: log versions), however young: every snapshot kept is an
  // entry of the metadata file each commit rewrites and each query reads, so the count, not
  // the age, bounds its size whatever the commit rate (docs/maintenance.md, "How large the
  // metadata grows"). At least min_snapshots.
  int max_snapshots = kDefaultMaxSnapshots;
  // Unreferenced files younger than this are never removed: an in-flight write is an
  // unreferenced file until its commit lands. At least 1h.
  std::chrono::milliseconds orphan_age{24LL * 3'600'000};
  // Top level only: the share of one core's wall-clock time the maintenance thread may be
  // busy; after each step it pauses long enough to stay under it. (0, 1].
  double cpu_share = 0.25;
};

struct TopicDefaults {
  std::string namespace_name = "kafka";
  std::chrono::milliseconds commit_interval{10'000};
  std::int64_t target_file_size = 128LL << 20;
  ErrorMode error_mode = ErrorMode::kSuspend;
  SystemColumns system_columns = SystemColumns::kNested;
  std::vector<TableFormat> formats{TableFormat::kIceberg};
  // A record whose key and value together are larger is a bad record (error_mode), refused
  // before it is decoded (docs/errors.md, "Record limits").
  std::int64_t max_record_size = 32LL << 20;
};

struct TopicConfig {
  std::string name;     // exactly one of name / pattern
  std::string pattern;  // ECMAScript regex over topic names
  std::string table;    // "<namespace>.<table>"; empty = default from the topic name
  PayloadFormat value = PayloadFormat::kAvro;  // default: auto when a schema_registry is configured
  PayloadFormat key = PayloadFormat::kBytes;
  // Protobuf values: the message (full name, e.g. acme.Payment) for records whose message
  // index is [0], when the schema's first message is not the record type. Empty: the first.
  std::string message;
  // Schemaless JSON values (value: json): a property whose type conflicts with its inferred
  // column makes the column JSON text (`json_conflicts: as_text`) instead of failing the record.
  bool json_conflicts_as_text = false;
  std::vector<std::string> partition_by;
  // The table's sort order ("customer", "amount desc nulls last"): set on the Iceberg table
  // (when it has none yet) and followed by compaction, which writes merged files sorted by it
  // (docs/maintenance.md). Empty: arrival order.
  std::vector<std::string> sort_by;
  std::string dlq_topic;
  // Per-topic overrides of the defaults, already merged.
  std::chrono::milliseconds commit_interval{0};
  std::int64_t target_file_size = 0;
  ErrorMode error_mode = ErrorMode::kSuspend;
  SystemColumns system_columns = SystemColumns::kNested;
  std::vector<TableFormat> formats;
  std::int64_t max_record_size = 32LL << 20;
  // The top-level maintenance: section with this topic's overrides; compaction's
  // target_file_size resolved (never 0).
  MaintenanceConfig maintenance;
};

struct FloeConfig {
  KafkaConfig kafka;
  std::optional<SchemaRegistryConfig> schema_registry;
  std::string warehouse;
  StorageConfig storage;
  CatalogConfig catalog;
  AdminConfig admin;
  // Decoded records buffered across all partitions before Floe writes files early to stay
  // under it (docs/configuration.md, "Memory").
  std::int64_t buffer_memory = 1LL << 30;
  // Threads that write files and commit off the poll thread (docs/running.md, "Threads");
  // 0 in the struct means "not set": the number of available cores.
  int workers = 0;
  TopicDefaults defaults;
  MaintenanceConfig maintenance;  // the top-level section (topics hold their merged copy)
  std::vector<TopicConfig> topics;
};

// What a config is loaded for: `floe run` (and `floe validate`) need kafka and topics;
// `floe catalog serve` needs only warehouse and catalog (kafka and topics, when present, are
// still checked, so one file can serve both).
enum class ConfigUse { kRun, kCatalogServe };

// Parses and validates YAML text. `source_name` is used in messages (usually the path).
Result<FloeConfig> ParseConfig(const std::string& yaml_text, const std::string& source_name,
                               ConfigUse use = ConfigUse::kRun);
// Reads the file, then ParseConfig.
Result<FloeConfig> LoadConfigFile(const std::string& path, ConfigUse use = ConfigUse::kRun);

// The built-in catalog's database: catalog.uri when set, else a SQLite file beside a local
// warehouse (<warehouse>/catalog.db). An object-store warehouse needs an explicit uri.
Result<std::string> DefaultCatalogUri(const FloeConfig& config);

// The table name a topic maps to by default: lower-cased, every character outside
// [a-z0-9_] replaced by '_' (Iceberg and Delta engines disagree on quoting anything else).
std::string SanitizeTableName(std::string_view topic);

}  // namespace floe
