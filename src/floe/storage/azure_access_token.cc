// The default chain's sources and their token requests (azure_access_token.h). Request
// parameters follow Microsoft's documentation: the identity platform's client credentials flow
// (shared secret; federated credential as client assertion), the App Service managed identity
// REST endpoint (api-version 2019-08-01) and IMDS's managed identity token endpoint
// (api-version 2018-02-01).
#include "floe/storage/azure_access_token.h"

#include <algorithm>
#include <atomic>
#include <cctype>
#include <cstdlib>
#include <fstream>
#include <memory>
#include <sstream>

#include "floe/core/percent_encoding.h"

namespace floe::storage {
namespace {

constexpr const char* kScope = "https://storage.azure.com/.default";
constexpr const char* kResource = "https://storage.azure.com/";  // managed identity endpoints take a resource
constexpr const char* kDefaultAuthority = "https://login.microsoftonline.com";
constexpr const char* kImds = "http://169.254.169.254";
constexpr const char* kJwtBearer = "urn:ietf:params:oauth:client-assertion-type:jwt-bearer";
// The Azure SDK gives IMDS one second to accept a connection on its first request: off Azure
// nothing listens there, and start-up should not wait for the usual ten.
constexpr std::chrono::milliseconds kImdsConnectTimeout{1000};

bool EqualsIgnoringCase(const std::string& a, const std::string& b) {
  return std::equal(a.begin(), a.end(), b.begin(), b.end(),
                    [](char x, char y) { return std::tolower(static_cast<unsigned char>(x)) == std::tolower(static_cast<unsigned char>(y)); });
}

std::string Trimmed(std::string s) {
  const auto space = [](unsigned char c) { return std::isspace(c) != 0; };
  s.erase(s.begin(), std::find_if_not(s.begin(), s.end(), space));
  s.erase(std::find_if_not(s.rbegin(), s.rend(), space).base(), s.end());
  return s;
}

std::string WithoutTrailingSlashes(std::string s) {
  while (!s.empty() && s.back() == '/') s.pop_back();
  return s;
}

// A GUID or a domain name, as the SDK accepts: nothing that could change the token URL's path.
bool IsTenantId(const std::string& tenant) {
  return !tenant.empty() && std::all_of(tenant.begin(), tenant.end(), [](unsigned char c) {
           return std::isalnum(c) != 0 || c == '-' || c == '.';
         });
}

// Which of the SDK's prod sources AZURE_TOKEN_CREDENTIALS leaves in the chain.
struct Allowed {
  bool environment = true;
  bool workload_identity = true;
  bool managed_identity = true;
  std::string only;  // the single credential it names, "" for the whole chain
};

Result<Allowed> AllowedSources(const std::string& raw) {
  const std::string value = Trimmed(raw);
  if (value.empty() || EqualsIgnoringCase(value, "dev") || EqualsIgnoringCase(value, "prod")) return Allowed{};
  for (const char* name : {"EnvironmentCredential", "WorkloadIdentityCredential", "ManagedIdentityCredential",
                           "AzureCliCredential"}) {
    if (EqualsIgnoringCase(value, name)) {
      const std::string n = name;
      return Allowed{n == "EnvironmentCredential", n == "WorkloadIdentityCredential", n == "ManagedIdentityCredential", n};
    }
  }
  return Status::InvalidArgument("AZURE_TOKEN_CREDENTIALS='" + value +
                                 "': the Azure SDK takes dev, prod, EnvironmentCredential, WorkloadIdentityCredential, "
                                 "ManagedIdentityCredential or AzureCliCredential");
}

Result<std::string> Authority(const EnvLookup& env) {
  const std::string host = WithoutTrailingSlashes(Trimmed(env("AZURE_AUTHORITY_HOST")));
  if (host.empty()) return std::string(kDefaultAuthority);
  if (host.rfind("https://", 0) != 0) {
    return Status::InvalidArgument("AZURE_AUTHORITY_HOST='" + host + "' must be an https:// URL (as the Azure SDK requires)");
  }
  return host;
}

Result<AzureTokenSource> ClientCredentials(const EnvLookup& env, AzureTokenSourceKind kind, const std::string& name) {
  AzureTokenSource s;
  s.kind = kind;
  s.tenant_id = env("AZURE_TENANT_ID");
  s.client_id = env("AZURE_CLIENT_ID");
  if (!IsTenantId(s.tenant_id)) {
    return Status::InvalidArgument("AZURE_TENANT_ID='" + s.tenant_id + "' is not a tenant id (a GUID or a domain)");
  }
  FLOE_ASSIGN_OR_RETURN(s.authority, Authority(env));
  s.name = name + " (tenant " + s.tenant_id + ", client " + s.client_id +
           (s.authority == kDefaultAuthority ? "" : ", AZURE_AUTHORITY_HOST " + s.authority) + ")";
  if (kind == AzureTokenSourceKind::kClientSecret) s.client_secret = env("AZURE_CLIENT_SECRET");
  if (kind == AzureTokenSourceKind::kWorkloadIdentity) s.federated_token_file = env("AZURE_FEDERATED_TOKEN_FILE");
  return s;
}

// A chain that ends at a source Floe cannot use: `why` says which.
AzureTokenSource Unusable(std::string why) {
  AzureTokenSource s;
  s.name = std::move(why);
  return s;
}

AzureTokenSource ManagedIdentity(AzureTokenSourceKind kind, std::string name, std::string endpoint,
                                 std::string identity_header = "") {
  AzureTokenSource s;
  s.kind = kind;
  s.name = std::move(name);
  s.endpoint = std::move(endpoint);
  s.identity_header = std::move(identity_header);
  return s;
}

std::string ReadFile(const std::string& path, bool& ok) {
  std::ifstream in(path);
  ok = static_cast<bool>(in);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

}  // namespace

std::string ProcessEnv(const char* name) {
  const char* value = std::getenv(name);
  return value ? value : "";
}

Result<AzureTokenSource> ResolveAzureTokenSource(const EnvLookup& env) {
  FLOE_ASSIGN_OR_RETURN(const Allowed allowed, AllowedSources(env("AZURE_TOKEN_CREDENTIALS")));
  const bool tenant_and_client = !env("AZURE_TENANT_ID").empty() && !env("AZURE_CLIENT_ID").empty();
  std::vector<std::string> looked_at;  // what the chain skipped, for the kNone explanation
  if (allowed.environment) {
    if (tenant_and_client && !env("AZURE_CLIENT_SECRET").empty()) {
      return ClientCredentials(env, AzureTokenSourceKind::kClientSecret, "environment service principal with a client secret");
    }
    if (tenant_and_client && !env("AZURE_CLIENT_CERTIFICATE_PATH").empty()) {
      // The data path signs with that certificate; another identity here would split one table
      // between two principals, so the chain stops as the SDK's does.
      return Unusable("environment service principal with AZURE_CLIENT_CERTIFICATE_PATH (Floe's conditional "
                      "create takes a client secret, not a certificate)");
    }
    looked_at.push_back("no environment service principal (AZURE_TENANT_ID, AZURE_CLIENT_ID, AZURE_CLIENT_SECRET)");
  }
  if (allowed.workload_identity) {
    if (tenant_and_client && !env("AZURE_FEDERATED_TOKEN_FILE").empty()) {
      return ClientCredentials(env, AzureTokenSourceKind::kWorkloadIdentity, "workload identity with AZURE_FEDERATED_TOKEN_FILE");
    }
    looked_at.push_back("no workload identity (AZURE_TENANT_ID, AZURE_CLIENT_ID, AZURE_FEDERATED_TOKEN_FILE)");
  }
  if (allowed.managed_identity) {
    // The SDK's managed identity sources, in its order; it asks each for the system-assigned
    // identity (DefaultAzureCredential passes no client id), and so does Floe.
    if (!env("IDENTITY_ENDPOINT").empty() && !env("IDENTITY_HEADER").empty()) {
      return ManagedIdentity(AzureTokenSourceKind::kAppService, "managed identity IDENTITY_ENDPOINT " + env("IDENTITY_ENDPOINT"),
                             env("IDENTITY_ENDPOINT"), env("IDENTITY_HEADER"));
    }
    for (const char* unsupported : {"MSI_ENDPOINT", "IMDS_ENDPOINT"}) {
      if (!env(unsupported).empty()) {
        return Unusable(std::string("managed identity ") + unsupported +
                        " (Cloud Shell, App Service before 2019, Azure Arc: Floe's conditional create asks "
                        "IDENTITY_ENDPOINT with IDENTITY_HEADER, or IMDS)");
      }
    }
    const std::string host = WithoutTrailingSlashes(env("AZURE_POD_IDENTITY_AUTHORITY_HOST"));
    const std::string endpoint = host.empty() ? kImds : host;
    return ManagedIdentity(AzureTokenSourceKind::kImds, "managed identity (IMDS " + endpoint + ")", endpoint);
  }
  std::string name = "AZURE_TOKEN_CREDENTIALS=" + allowed.only + ": ";
  if (allowed.only == "AzureCliCredential") return Unusable(name + "Floe does not run the Azure CLI");
  return Unusable(name + looked_at.front());
}

Result<AzureTokenRequest> BuildAzureTokenRequest(const AzureTokenSource& source) {
  AzureTokenRequest r;
  r.what = "getting an Entra ID token for Azure Storage from the " + source.name;
  switch (source.kind) {
    case AzureTokenSourceKind::kNone: return Status::Unsupported(source.name);
    case AzureTokenSourceKind::kClientSecret:
    case AzureTokenSourceKind::kWorkloadIdentity: {
      // ADFS (Azure Stack) has the v1 endpoint only, as the SDK knows.
      r.url = source.authority + "/" + source.tenant_id + (source.tenant_id == "adfs" ? "/oauth2/token" : "/oauth2/v2.0/token");
      r.form = {{"grant_type", "client_credentials"}, {"client_id", source.client_id}, {"scope", kScope}};
      if (source.kind == AzureTokenSourceKind::kClientSecret) {
        r.form["client_secret"] = source.client_secret;
        return r;
      }
      bool ok = false;
      const std::string assertion = Trimmed(ReadFile(source.federated_token_file, ok));
      if (!ok || assertion.empty()) {
        return Status::IoError(r.what + ": cannot read a token from " + source.federated_token_file);
      }
      r.form["client_assertion_type"] = kJwtBearer;
      r.form["client_assertion"] = assertion;
      return r;
    }
    case AzureTokenSourceKind::kAppService:
      r.url = source.endpoint + (source.endpoint.find('?') == std::string::npos ? "?" : "&") +
              "api-version=2019-08-01&resource=" + PercentEncode(kResource);
      r.headers = {"X-IDENTITY-HEADER: " + source.identity_header};
      return r;
    case AzureTokenSourceKind::kImds:
      r.url = source.endpoint + "/metadata/identity/oauth2/token?api-version=2018-02-01&resource=" +
              PercentEncode(kResource);
      r.headers = {"Metadata: true"};
      r.connect_timeout = kImdsConnectTimeout;
      return r;
  }
  return Status::Internal("unknown Azure token source");
}

TokenCache::Fetch AzureTokenFetch(const AzureTokenSource& source) {
  auto answered = std::make_shared<std::atomic<bool>>(false);
  return [source, answered]() -> Result<AccessToken> {
    auto token = [&]() -> Result<AccessToken> {
      FLOE_ASSIGN_OR_RETURN(auto r, BuildAzureTokenRequest(source));
      return RequestToken(r.url, r.form, r.headers, r.what, r.connect_timeout);
    }();
    if (token.ok()) {
      answered->store(true);
      return token;
    }
    if (source.kind == AzureTokenSourceKind::kImds && !answered->load()) {
      return Status::Unsupported(
          "the Azure default credential chain has no source Floe can use: no environment service principal "
          "(AZURE_TENANT_ID, AZURE_CLIENT_ID, AZURE_CLIENT_SECRET), no workload identity (AZURE_FEDERATED_TOKEN_FILE), "
          "no App Service identity (IDENTITY_ENDPOINT, IDENTITY_HEADER), and " + token.status().message() +
          " (Floe does not run the Azure CLI)");
    }
    return token;
  };
}

}  // namespace floe::storage
