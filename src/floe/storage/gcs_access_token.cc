// OAuth 2 access tokens for GCS's conditional upload, from the same credentials Arrow's
// GcsFileSystem uses (Google's client libraries keep theirs inside Arrow):
//  - a service account key (storage.gcs.service_account_file, or the default chain's
//    GOOGLE_APPLICATION_CREDENTIALS / gcloud's application_default_credentials.json): a JWT
//    signed RS256 with the key, exchanged at the key's token_uri (RFC 7523);
//  - gcloud user credentials (type authorized_user): the refresh-token grant;
//  - otherwise, in the default chain, the metadata server of GCE/GKE/Cloud Run
//    (GCE_METADATA_HOST or GCE_METADATA_ROOT overrides its address, as in Google's libraries).
#include <openssl/evp.h>
#include <openssl/pem.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <memory>
#include <nlohmann/json.hpp>
#include <sstream>

#include "floe/storage/gcs_store_internal.h"

namespace floe::storage {
namespace {

constexpr const char* kScope = "https://www.googleapis.com/auth/devstorage.read_write";
constexpr const char* kGoogleTokenUri = "https://oauth2.googleapis.com/token";

std::string Base64Url(const std::string& bytes) {
  std::string out(4 * ((bytes.size() + 2) / 3) + 1, '\0');
  const int n = EVP_EncodeBlock(reinterpret_cast<unsigned char*>(out.data()),
                                reinterpret_cast<const unsigned char*>(bytes.data()), static_cast<int>(bytes.size()));
  out.resize(static_cast<std::size_t>(n));
  while (!out.empty() && out.back() == '=') out.pop_back();
  for (char& ch : out) ch = ch == '+' ? '-' : ch == '/' ? '_' : ch;
  return out;
}

Result<std::string> SignRs256(const std::string& pem, const std::string& data, const std::string& what) {
  std::unique_ptr<BIO, decltype(&BIO_free)> bio(BIO_new_mem_buf(pem.data(), static_cast<int>(pem.size())), BIO_free);
  std::unique_ptr<EVP_PKEY, decltype(&EVP_PKEY_free)> key(
      bio ? PEM_read_bio_PrivateKey(bio.get(), nullptr, nullptr, nullptr) : nullptr, EVP_PKEY_free);
  if (!key) return Status::InvalidArgument(what + ": private_key is not a PEM private key");
  std::unique_ptr<EVP_MD_CTX, decltype(&EVP_MD_CTX_free)> ctx(EVP_MD_CTX_new(), EVP_MD_CTX_free);
  std::size_t length = 0;
  const auto* in = reinterpret_cast<const unsigned char*>(data.data());
  if (!ctx || EVP_DigestSignInit(ctx.get(), nullptr, EVP_sha256(), nullptr, key.get()) != 1 ||
      EVP_DigestSign(ctx.get(), nullptr, &length, in, data.size()) != 1) {
    return Status::Internal(what + ": cannot sign with the private key");
  }
  std::string signature(length, '\0');
  if (EVP_DigestSign(ctx.get(), reinterpret_cast<unsigned char*>(signature.data()), &length, in, data.size()) != 1) {
    return Status::Internal(what + ": cannot sign with the private key");
  }
  signature.resize(length);
  return signature;
}

std::string Field(const nlohmann::json& json, const char* key) {
  return json.contains(key) && json[key].is_string() ? json[key].get<std::string>() : "";
}

Result<AccessToken> ServiceAccountToken(const nlohmann::json& key, const std::string& source) {
  const std::string what = "getting a GCS access token for " + source;
  const std::string email = Field(key, "client_email");
  const std::string pem = Field(key, "private_key");
  if (email.empty() || pem.empty()) return Status::InvalidArgument(what + ": no client_email or private_key");
  const std::string token_uri = Field(key, "token_uri").empty() ? kGoogleTokenUri : Field(key, "token_uri");
  const auto now = std::chrono::duration_cast<std::chrono::seconds>(std::chrono::system_clock::now().time_since_epoch());
  const nlohmann::json header = {{"alg", "RS256"}, {"typ", "JWT"}, {"kid", Field(key, "private_key_id")}};
  const nlohmann::json claims = {{"iss", email}, {"scope", kScope}, {"aud", token_uri},
                                 {"iat", now.count()}, {"exp", now.count() + 3600}};
  const std::string unsigned_jwt = Base64Url(header.dump()) + "." + Base64Url(claims.dump());
  FLOE_ASSIGN_OR_RETURN(auto signature, SignRs256(pem, unsigned_jwt, what));
  return RequestToken(token_uri,
                      {{"grant_type", "urn:ietf:params:oauth:grant-type:jwt-bearer"},
                       {"assertion", unsigned_jwt + "." + Base64Url(signature)}},
                      {}, what);
}

Result<AccessToken> AuthorizedUserToken(const nlohmann::json& key, const std::string& source) {
  const std::string what = "getting a GCS access token for the gcloud user credentials " + source;
  const std::string token_uri = Field(key, "token_uri").empty() ? kGoogleTokenUri : Field(key, "token_uri");
  return RequestToken(token_uri,
                      {{"grant_type", "refresh_token"}, {"client_id", Field(key, "client_id")},
                       {"client_secret", Field(key, "client_secret")}, {"refresh_token", Field(key, "refresh_token")}},
                      {}, what);
}

Result<AccessToken> TokenFromFile(const std::string& path) {
  std::ifstream in(path);
  if (!in) return Status::IoError("GCS credentials: cannot read " + path);
  std::stringstream text;
  text << in.rdbuf();
  const auto key = nlohmann::json::parse(text.str(), nullptr, /*allow_exceptions=*/false);
  if (!key.is_object()) return Status::InvalidArgument("GCS credentials: " + path + " is not JSON");
  const std::string type = Field(key, "type");
  if (type == "service_account") return ServiceAccountToken(key, "the service account key " + path);
  if (type == "authorized_user") return AuthorizedUserToken(key, path);
  return Status::Unsupported("GCS credentials " + path + " of type '" + type +
                             "': Floe's conditional upload takes service_account or authorized_user keys");
}

Result<AccessToken> MetadataServerToken() {
  // GCE_METADATA_HOST is what Google's Python and Go libraries read, GCE_METADATA_ROOT the C++ one.
  const char* host = std::getenv("GCE_METADATA_HOST");
  if (host == nullptr || *host == '\0') host = std::getenv("GCE_METADATA_ROOT");
  const std::string base = std::string("http://") + (host && *host ? host : "metadata.google.internal");
  return RequestToken(base + "/computeMetadata/v1/instance/service-accounts/default/token", {},
                      {"Metadata-Flavor: Google"}, "getting a GCS access token from the metadata server " + base);
}

// Google's application default credentials, in their order.
Result<AccessToken> DefaultChainToken() {
  if (const char* path = std::getenv("GOOGLE_APPLICATION_CREDENTIALS"); path && *path) return TokenFromFile(path);
  if (const char* home = std::getenv("HOME"); home && *home) {
    const auto well_known = std::filesystem::path(home) / ".config" / "gcloud" / "application_default_credentials.json";
    std::error_code ec;
    if (std::filesystem::exists(well_known, ec)) return TokenFromFile(well_known.string());
  }
  return MetadataServerToken();
}

}  // namespace

TokenCache::Fetch GcsTokenFetch(const GcsStorageConfig& config) {
  if (config.credentials == GcsCredentialsKind::kServiceAccountFile) {
    return [path = config.service_account_file] { return TokenFromFile(path); };
  }
  return [] { return DefaultChainToken(); };
}

}  // namespace floe::storage
