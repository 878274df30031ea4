#pragma once
// Microsoft Entra ID access tokens for Azure Storage under storage.azure.credentials: default,
// for the one request Floe sends itself (the conditional Put Blob of Delta commits): Arrow's
// AzureFileSystem keeps the tokens of its DefaultAzureCredential (Azure SDK for C++) to itself.
//
// Floe walks the same chain in the same order, as far as its sources are environment variables
// and files, and uses the first source the environment configures, like the data path does:
//  1. environment service principal: AZURE_TENANT_ID + AZURE_CLIENT_ID + AZURE_CLIENT_SECRET
//     (client credentials at AZURE_AUTHORITY_HOST, default https://login.microsoftonline.com);
//  2. workload identity (AKS): AZURE_TENANT_ID + AZURE_CLIENT_ID + AZURE_FEDERATED_TOKEN_FILE
//     (client credentials with the file's Kubernetes token as the client assertion);
//  3. managed identity: IDENTITY_ENDPOINT + IDENTITY_HEADER (App Service, Functions, Container
//     Apps), else the VM's IMDS (http://169.254.169.254, or AZURE_POD_IDENTITY_AUTHORITY_HOST).
// Not used: a client certificate (AZURE_CLIENT_CERTIFICATE_PATH), Cloud Shell's and older App
// Service's MSI_ENDPOINT, Azure Arc (IMDS_ENDPOINT), and the Azure CLI (a program, last in the
// SDK's chain). AZURE_TOKEN_CREDENTIALS narrows the chain as it does the SDK's.
#include <chrono>
#include <functional>
#include <map>
#include <string>
#include <vector>

#include "floe/core/result.h"
#include "floe/storage/oauth_token.h"

namespace floe::storage {

enum class AzureTokenSourceKind { kNone, kClientSecret, kWorkloadIdentity, kAppService, kImds };

struct AzureTokenSource {
  AzureTokenSourceKind kind = AzureTokenSourceKind::kNone;
  // For reports, logs and errors: the source and the variables that chose it, never a secret.
  // kNone: what the chain looked at and why none of it is usable.
  std::string name;
  std::string authority;  // kClientSecret, kWorkloadIdentity: scheme and host of the token service
  std::string tenant_id;
  std::string client_id;
  std::string client_secret;         // kClientSecret
  std::string federated_token_file;  // kWorkloadIdentity: read again for every token (Kubernetes rotates it)
  std::string endpoint;              // kAppService: IDENTITY_ENDPOINT; kImds: IMDS's scheme and host
  std::string identity_header;       // kAppService
};

// An environment variable's value, "" when unset (a seam for the tests).
using EnvLookup = std::function<std::string(const char* name)>;
std::string ProcessEnv(const char* name);

// The first source the environment configures. kInvalidArgument for an AZURE_TOKEN_CREDENTIALS
// the SDK would refuse too, an AZURE_AUTHORITY_HOST that is not https (a client secret never
// travels in clear text) and a tenant id that is not one.
Result<AzureTokenSource> ResolveAzureTokenSource(const EnvLookup& env);

struct AzureTokenRequest {
  std::string url;
  std::map<std::string, std::string> form;  // empty: a GET
  std::vector<std::string> headers;
  std::string what;  // names the source in errors
  std::chrono::milliseconds connect_timeout{10'000};
};

// The token request of `source` for the scope https://storage.azure.com/.default, as Microsoft
// documents each endpoint. Workload identity reads its token file here.
Result<AzureTokenRequest> BuildAzureTokenRequest(const AzureTokenSource& source);

// Fetches tokens of `source` for a TokenCache. Until IMDS has answered once, its failures are
// kUnsupported (on a machine without a managed identity, the chain ends with nothing Floe can
// use: no conditional creates, Delta refused unless storage.delta_single_writer); afterwards
// they are errors like any other source's, so a failed refresh never turns commits unsafe.
TokenCache::Fetch AzureTokenFetch(const AzureTokenSource& source);

}  // namespace floe::storage
