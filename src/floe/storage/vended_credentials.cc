#include "floe/storage/vended_credentials.h"

#include <chrono>
#include <cstdlib>
#include <ctime>
#include <mutex>

#include <nlohmann/json.hpp>

#include "floe/core/percent_encoding.h"
#include "floe/storage/object_put.h"
#include "floe/storage/s3_store_internal.h"

namespace floe::storage {
namespace {

constexpr int kDurationSeconds = 3600;
// Handed out again until this close to expiry, so a client always gets at least this long.
constexpr std::chrono::minutes kRenewBefore{10};

struct Vended {
  std::map<std::string, std::string> properties;
  std::chrono::system_clock::time_point expires;
};

struct Cache {
  std::mutex mutex;
  std::map<std::string, Vended> by_location;
};

Cache& TheCache() {
  static auto* cache = new Cache();
  return *cache;
}

Result<std::pair<std::string, std::string>> SplitS3(const std::string& location) {
  if (location.rfind("s3://", 0) != 0) {
    return Status::InvalidArgument("credential vending covers s3:// tables only, not " + location);
  }
  std::string rest = location.substr(5);
  while (!rest.empty() && rest.back() == '/') rest.pop_back();
  const auto slash = rest.find('/');
  if (slash == std::string::npos || slash == 0) return Status::InvalidArgument(location + " is not s3://bucket/prefix");
  return std::make_pair(rest.substr(0, slash), rest.substr(slash + 1));
}

std::string StsEndpoint(const std::string& region) {
  // The variables the AWS SDKs read, so one setting serves Floe's assume-role provider too.
  for (const char* name : {"AWS_ENDPOINT_URL_STS", "AWS_ENDPOINT_URL"}) {
    if (const char* v = std::getenv(name); v && *v) return v;
  }
  return "https://sts." + region + ".amazonaws.com";
}

// 2026-12-04T15:40:00Z (what STS returns).
Result<std::chrono::system_clock::time_point> ParseExpiration(const std::string& text) {
  std::tm tm{};
  if (!strptime(text.c_str(), "%Y-%m-%dT%H:%M:%S", &tm)) {
    return Status::IoError("STS returned an unreadable Expiration '" + text + "'");
  }
  return std::chrono::system_clock::from_time_t(timegm(&tm));
}

Result<Vended> AssumeRoleFor(const std::string& location) {
  FLOE_ASSIGN_OR_RETURN(auto store, SharedS3Store());
  const auto& c = store->config;
  if (c.role_arn.empty()) {
    return Status::InvalidArgument("catalog.vend_credentials needs storage.s3.role_arn: the role the vended "
                                   "credentials are a scoped-down session of");
  }
  // The default chain's credentials: what Floe's own assume-role provider signs with.
  S3StorageConfig base_config = c;
  base_config.role_arn.clear();
  FLOE_ASSIGN_OR_RETURN(auto base, MakeS3Options(base_config));
  FLOE_ASSIGN_OR_RETURN(auto policy, ReadOnlySessionPolicy(location));
  const std::string region = store->fs->region();

  ObjectPut request;
  request.store = "sts";
  request.method = "POST";
  request.url = StsEndpoint(region);
  request.aws_sigv4 = "aws:amz:" + region + ":sts";
  request.user = base.GetAccessKey();
  request.password = base.GetSecretKey();
  const std::string what = "STS AssumeRole " + c.role_arn + " for " + location;
  if (request.user.empty()) return Status::IoError(what + ": no AWS credentials found in the default chain");
  request.headers = {"Content-Type: application/x-www-form-urlencoded"};
  if (const std::string token = base.GetSessionToken(); !token.empty()) {
    request.headers.push_back("x-amz-security-token: " + token);
  }
  std::string form = "Action=AssumeRole&Version=2011-06-15&RoleSessionName=floe-vended&DurationSeconds=" +
                     std::to_string(kDurationSeconds) + "&RoleArn=" + PercentEncode(c.role_arn) +
                     "&Policy=" + PercentEncode(policy);
  if (!c.external_id.empty()) form += "&ExternalId=" + PercentEncode(c.external_id);

  FLOE_ASSIGN_OR_RETURN(auto answer, SendObjectPut(request, form, what));
  if (answer.code < 200 || answer.code >= 300) {
    return ObjectPutStatus("sts", answer.code, XmlElement(answer.body, "Code"), XmlElement(answer.body, "Message"),
                           what, answer.code == 403 ? "the default chain's principal needs sts:AssumeRole on the role" : "",
                           /*conflict=*/false);
  }
  Vended out;
  const std::string key = XmlElement(answer.body, "AccessKeyId");
  const std::string secret = XmlElement(answer.body, "SecretAccessKey");
  const std::string token = XmlElement(answer.body, "SessionToken");
  if (key.empty() || secret.empty() || token.empty()) return Status::IoError(what + ": no credentials in STS's answer");
  FLOE_ASSIGN_OR_RETURN(out.expires, ParseExpiration(XmlElement(answer.body, "Expiration")));
  const auto expires_ms =
      std::chrono::duration_cast<std::chrono::milliseconds>(out.expires.time_since_epoch()).count();
  out.properties = {{"s3.access-key-id", key},
                    {"s3.secret-access-key", secret},
                    {"s3.session-token", token},
                    {"s3.session-token-expires-at-ms", std::to_string(expires_ms)}};
  return out;
}

}  // namespace

Result<std::string> ReadOnlySessionPolicy(const std::string& table_location) {
  FLOE_ASSIGN_OR_RETURN(auto parts, SplitS3(table_location));
  const auto& [bucket, prefix] = parts;
  nlohmann::json policy = {
      {"Version", "2012-10-17"},
      {"Statement",
       {{{"Effect", "Allow"}, {"Action", {"s3:GetObject"}}, {"Resource", "arn:aws:s3:::" + bucket + "/" + prefix + "/*"}},
        {{"Effect", "Allow"},
         {"Action", {"s3:ListBucket"}},
         {"Resource", "arn:aws:s3:::" + bucket},
         {"Condition", {{"StringLike", {{"s3:prefix", {prefix, prefix + "/*"}}}}}}}}}};
  return policy.dump();
}

Result<std::map<std::string, std::string>> VendReadCredentials(const std::string& table_location) {
  Cache& cache = TheCache();
  std::lock_guard lock(cache.mutex);  // one STS call per location at a time, not one per request
  auto it = cache.by_location.find(table_location);
  if (it != cache.by_location.end() && std::chrono::system_clock::now() + kRenewBefore < it->second.expires) {
    return it->second.properties;
  }
  FLOE_ASSIGN_OR_RETURN(auto vended, AssumeRoleFor(table_location));
  cache.by_location[table_location] = vended;
  return vended.properties;
}

}  // namespace floe::storage
