// The `storage` section of the config (docs/storage.md).
#include "floe/core/config_reader_internal.h"

namespace floe::config_internal {
namespace {

const std::vector<std::pair<std::string, S3RequestChecksums>> kS3Checksums = {
    {"auto", S3RequestChecksums::kAuto},
    {"when_supported", S3RequestChecksums::kWhenSupported},
    {"when_required", S3RequestChecksums::kWhenRequired}};
const std::vector<std::pair<std::string, std::string>> kS3Sse = {{"AES256", "AES256"}, {"aws:kms", "aws:kms"}};

void ReadS3(ConfigReader& r, const YAML::Node& node, S3StorageConfig& s) {
  const std::string path = "storage.s3";
  if (!r.ExpectMap(node, path, {"region", "endpoint", "path_style", "credentials", "access_key_id",
                                "secret_access_key", "session_token", "role_arn", "external_id", "sse",
                                "reader_access_key_id", "reader_secret_access_key", "request_checksums"}))
    return;
  ReadSecret(r, node, path, "region", s.region);
  ReadEndpoint(r, node, path, s.endpoint);
  if (auto v = r.Choice(node, path, "path_style", kBooleans)) s.path_style = *v;
  if (auto v = r.Choice(node, path, "credentials", kS3Credentials)) s.credentials = *v;
  if (auto v = r.Choice(node, path, "request_checksums", kS3Checksums)) s.request_checksums = *v;
  const bool is_static = s.credentials == S3CredentialsKind::kStatic;
  ReadSecret(r, node, path, "access_key_id", s.access_key_id, /*required=*/is_static);
  ReadSecret(r, node, path, "secret_access_key", s.secret_access_key, /*required=*/is_static);
  ReadSecret(r, node, path, "session_token", s.session_token);
  if (!is_static) {
    for (const char* key : {"access_key_id", "secret_access_key", "session_token"}) {
      if (node[key]) r.Error(node[key], path + "." + key, "only with credentials: static");
    }
  }
  ReadSecret(r, node, path, "role_arn", s.role_arn);
  ReadSecret(r, node, path, "external_id", s.external_id);
  if (!s.role_arn.empty() && is_static) {
    // Arrow's assume-role provider calls STS with the default chain's credentials only.
    r.Error(node["role_arn"], path + ".role_arn",
            "assumes the role with the default credential chain: use credentials: default (e.g. AWS_ACCESS_KEY_ID in "
            "the environment) or static keys without role_arn");
  }
  if (s.path_style && s.endpoint.empty()) {
    r.Error(node["path_style"], path + ".path_style", "needs an endpoint (AWS itself addresses buckets by host name)");
  }
  if (!s.external_id.empty() && s.role_arn.empty()) {
    r.Error(node["external_id"], path + ".external_id", "only with role_arn (it is sent when assuming the role)");
  }
  const YAML::Node sse = node["sse"];
  if (sse.IsDefined() && !sse.IsNull() && r.ExpectMap(sse, path + ".sse", {"type", "kms_key_id"})) {
    if (auto v = r.Choice(sse, path + ".sse", "type", kS3Sse)) s.sse_type = *v;
    ReadSecret(r, sse, path + ".sse", "kms_key_id", s.sse_kms_key_id);
    if (s.sse_type == "aws:kms") {
      // arrow::fs sends no SSE-KMS headers on its uploads, so data files would not be
      // encrypted with this key: refuse rather than half-apply it.
      r.Error(sse["type"], path + ".sse.type",
              "aws:kms is not supported yet: set the bucket's default encryption to the key instead (docs/storage.md)");
    } else if (!s.sse_kms_key_id.empty()) {
      r.Error(sse["kms_key_id"], path + ".sse.kms_key_id", "only with type: aws:kms");
    }
  }
  ReadSecret(r, node, path, "reader_access_key_id", s.reader_access_key_id);
  ReadSecret(r, node, path, "reader_secret_access_key", s.reader_secret_access_key);
  if (s.reader_access_key_id.empty() != s.reader_secret_access_key.empty()) {
    r.Error(node, path, "reader_access_key_id and reader_secret_access_key go together");
  }
}

const std::vector<std::pair<std::string, AzureCredentialsKind>> kAzureCredentials = {
    {"default", AzureCredentialsKind::kDefault}, {"key", AzureCredentialsKind::kKey}, {"sas", AzureCredentialsKind::kSas}};

bool IsAzureUri(const std::string& uri) {
  return uri.rfind("abfs://", 0) == 0 || uri.rfind("abfss://", 0) == 0 || uri.rfind("az://", 0) == 0;
}

// A SAS token is a query string; a pasted leading '?' is dropped so both forms work.
std::string StripQuestionMark(std::string token) {
  if (!token.empty() && token.front() == '?') token.erase(0, 1);
  return token;
}

void ReadAzure(ConfigReader& r, const YAML::Node& node, AzureStorageConfig& a) {
  const std::string path = "storage.azure";
  if (!r.ExpectMap(node, path, {"account", "endpoint", "credentials", "account_key", "sas_token", "reader_sas_token"}))
    return;
  ReadSecret(r, node, path, "account", a.account, /*required=*/true);
  ReadEndpoint(r, node, path, a.endpoint);
  if (auto v = r.Choice(node, path, "credentials", kAzureCredentials)) a.credentials = *v;
  const bool key = a.credentials == AzureCredentialsKind::kKey;
  const bool sas = a.credentials == AzureCredentialsKind::kSas;
  ReadSecret(r, node, path, "account_key", a.account_key, /*required=*/key);
  ReadSecret(r, node, path, "sas_token", a.sas_token, /*required=*/sas);
  a.sas_token = StripQuestionMark(a.sas_token);
  if (!key && node["account_key"]) r.Error(node["account_key"], path + ".account_key", "only with credentials: key");
  if (!sas && node["sas_token"]) r.Error(node["sas_token"], path + ".sas_token", "only with credentials: sas");
  ReadSecret(r, node, path, "reader_sas_token", a.reader_sas_token);
  a.reader_sas_token = StripQuestionMark(a.reader_sas_token);
}

const std::vector<std::pair<std::string, GcsCredentialsKind>> kGcsCredentials = {
    {"default", GcsCredentialsKind::kDefault},
    {"anonymous", GcsCredentialsKind::kAnonymous},
    {"service_account_file", GcsCredentialsKind::kServiceAccountFile}};

void ReadGcs(ConfigReader& r, const YAML::Node& node, GcsStorageConfig& g) {
  const std::string path = "storage.gcs";
  if (!r.ExpectMap(node, path, {"endpoint", "credentials", "service_account_file", "project_id"})) return;
  ReadEndpoint(r, node, path, g.endpoint);
  if (auto v = r.Choice(node, path, "credentials", kGcsCredentials)) g.credentials = *v;
  const bool file = g.credentials == GcsCredentialsKind::kServiceAccountFile;
  ReadSecret(r, node, path, "service_account_file", g.service_account_file, /*required=*/file);
  if (!file && node["service_account_file"]) {
    r.Error(node["service_account_file"], path + ".service_account_file", "only with credentials: service_account_file");
  }
  if (file && !g.service_account_file.empty() && g.service_account_file.front() != '/') {
    r.Error(node["service_account_file"], path + ".service_account_file", "must be an absolute path");
  }
  ReadSecret(r, node, path, "project_id", g.project_id);
}

}  // namespace

void ReadStorage(ConfigReader& r, const YAML::Node& node, const std::string& warehouse, StorageConfig& s) {
  if (!node.IsDefined() || node.IsNull()) return;
  if (!r.ExpectMap(node, "storage", {"s3", "azure", "gcs", "delta_single_writer"})) return;
  if (auto v = r.Choice(node, "storage", "delta_single_writer", kBooleans)) s.delta_single_writer = *v;
  const YAML::Node s3 = node["s3"];
  if (s3.IsDefined() && !s3.IsNull()) {
    S3StorageConfig c;
    ReadS3(r, s3, c);
    s.s3 = c;
  }
  if (s.s3 && !warehouse.empty() && warehouse.rfind("s3://", 0) != 0) {
    r.Error(node["s3"], "storage.s3", "configured, but the warehouse ('" + warehouse + "') is not an s3:// URI");
  }
  const YAML::Node azure = node["azure"];
  if (azure.IsDefined() && !azure.IsNull()) {
    AzureStorageConfig c;
    ReadAzure(r, azure, c);
    s.azure = c;
  } else if (azure.IsDefined()) {
    r.Error(azure, "storage.azure", "needs at least the account");
  }
  if (s.azure && !warehouse.empty() && !IsAzureUri(warehouse)) {
    r.Error(node["azure"], "storage.azure",
            "configured, but the warehouse ('" + warehouse + "') is not an abfs://, abfss:// or az:// URI");
  }
  const YAML::Node gcs = node["gcs"];
  if (gcs.IsDefined() && !gcs.IsNull()) {
    GcsStorageConfig c;
    ReadGcs(r, gcs, c);
    s.gcs = c;
  }
  if (s.gcs && !warehouse.empty() && warehouse.rfind("gs://", 0) != 0) {
    r.Error(node["gcs"], "storage.gcs", "configured, but the warehouse ('" + warehouse + "') is not a gs:// URI");
  }
  // abfs[s]://container@<account>.dfs.core.windows.net/…: the URI names the account too.
  const auto at = warehouse.find('@');
  if (s.azure && IsAzureUri(warehouse) && at != std::string::npos) {
    const std::string account = warehouse.substr(at + 1, warehouse.find_first_of("./", at + 1) - at - 1);
    if (account != s.azure->account) {
      r.Error(node["azure"]["account"], "storage.azure.account",
              "'" + s.azure->account + "' differs from the account in the warehouse URI ('" + account + "')");
    }
  }
}

}  // namespace floe::config_internal
