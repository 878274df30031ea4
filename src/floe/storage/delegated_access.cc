#include "floe/storage/delegated_access.h"

#include <spdlog/spdlog.h>

#include <chrono>
#include <mutex>
#include <optional>
#include <utility>

#include "floe/storage/s3_store_internal.h"

namespace floe::storage {
namespace {

using Clock = std::chrono::system_clock;

// Asked again once less than this remains (the AWS SDK's own prefetch window for temporary
// credentials), and not more often than every kRefreshSpacing: a catalog that keeps vending
// credentials for less than the window is not asked on every file.
constexpr auto kRefreshWindow = std::chrono::minutes(5);
constexpr auto kRefreshSpacing = std::chrono::seconds(10);

const char* const kKeys[] = {"s3.access-key-id", "s3.secret-access-key", "s3.session-token",
                             "s3.session-token-expires-at-ms", "s3.endpoint", "s3.region", "client.region",
                             "s3.path-style-access"};

struct Grant {
  const void* owner = nullptr;
  std::map<std::string, std::string> properties;  // the honoured keys only
  DelegationRefresh refresh;
  std::optional<Clock::time_point> expires_at;
  Clock::time_point last_refresh{};  // the last time the catalog was asked again (epoch: never)
  std::shared_ptr<const S3Store> store;  // built on first use
};

struct GrantRegistry {
  std::mutex mutex;
  std::map<std::string, Grant> grants;  // by prefix, normalized without a trailing '/'
};

GrantRegistry& TheGrantRegistry() {
  static auto* registry = new GrantRegistry();  // never destroyed: used by the at-exit finalizer
  return *registry;
}

std::string TrimSlash(std::string s) {
  while (s.size() > 5 && s.back() == '/') s.pop_back();
  return s;
}

bool Under(const std::string& uri, const std::string& prefix) {
  if (uri.compare(0, prefix.size(), prefix) != 0) return false;
  return uri.size() == prefix.size() || uri[prefix.size()] == '/';
}

// storage.s3 with the grant's settings on top. Delegated keys are the final credentials: no
// role of Floe's own is assumed over them.
Result<S3StorageConfig> SettingsFor(const std::string& prefix, const std::map<std::string, std::string>& p) {
  S3StorageConfig c = ConfiguredS3Settings();
  auto get = [&p](const char* key) -> const std::string* {
    auto it = p.find(key);
    return it == p.end() || it->second.empty() ? nullptr : &it->second;
  };
  if (const auto* v = get("s3.endpoint")) c.endpoint = *v;
  if (const auto* v = get("client.region")) c.region = *v;
  if (const auto* v = get("s3.region")) c.region = *v;
  if (const auto* v = get("s3.path-style-access")) c.path_style = *v == "true";
  const auto* key = get("s3.access-key-id");
  const auto* secret = get("s3.secret-access-key");
  if ((key == nullptr) != (secret == nullptr)) {
    return Status::InvalidArgument("the catalog's storage credentials for " + prefix +
                                   " have s3.access-key-id or s3.secret-access-key without the other");
  }
  if (key != nullptr) {
    c.credentials = S3CredentialsKind::kStatic;
    c.access_key_id = *key;
    c.secret_access_key = *secret;
    const auto* token = get("s3.session-token");
    c.session_token = token == nullptr ? "" : *token;
    c.role_arn.clear();
    c.external_id.clear();
  }
  return c;
}

std::optional<Clock::time_point> ExpiresAt(const std::map<std::string, std::string>& p) {
  auto it = p.find("s3.session-token-expires-at-ms");
  if (it == p.end()) return std::nullopt;
  try {
    return Clock::time_point(std::chrono::milliseconds(std::stoll(it->second)));
  } catch (const std::exception&) {
    return std::nullopt;  // unreadable: treated as not expiring, as Iceberg's S3FileIO does
  }
}

}  // namespace

Status Delegate(const void* owner, const std::vector<DelegatedAccess>& grants, DelegationRefresh refresh) {
  // One grant per prefix: a later entry for the same prefix (a storage credential for the
  // table's own location) replaces an earlier one.
  std::map<std::string, Grant> incoming;
  for (const auto& g : grants) {
    if (g.prefix.rfind("s3://", 0) != 0) continue;  // Azure and GCS grants: not honoured yet
    Grant grant;
    grant.owner = owner;
    for (const char* key : kKeys) {
      auto it = g.properties.find(key);
      if (it != g.properties.end()) grant.properties[key] = it->second;
    }
    if (grant.properties.empty()) continue;
    const std::string prefix = TrimSlash(g.prefix);
    FLOE_RETURN_IF_ERROR(SettingsFor(prefix, grant.properties).status());  // refuse before registering
    grant.refresh = refresh;
    grant.expires_at = ExpiresAt(grant.properties);
    incoming[prefix] = std::move(grant);
  }
  GrantRegistry& r = TheGrantRegistry();
  std::lock_guard lock(r.mutex);
  for (auto& [prefix, grant] : incoming) {
    auto it = r.grants.find(prefix);
    if (it != r.grants.end() && it->second.properties == grant.properties) {
      it->second.owner = owner;  // the same answer again: keep the store
      it->second.refresh = std::move(grant.refresh);
      continue;
    }
    if (it == r.grants.end()) {
      spdlog::info("storage: files under {} use the storage access the catalog delegated ({})", prefix,
                   grant.properties.count("s3.access-key-id") ? "vended credentials" : "its S3 settings");
    } else {
      grant.last_refresh = it->second.last_refresh;  // a refresh's answer: the spacing still counts
    }
    r.grants[prefix] = std::move(grant);
  }
  return Status::OK();
}

void RevokeDelegations(const void* owner) {
  GrantRegistry& r = TheGrantRegistry();
  std::lock_guard lock(r.mutex);
  std::erase_if(r.grants, [owner](const auto& entry) { return entry.second.owner == owner; });
}

void DropDelegatedStores() {
  GrantRegistry& r = TheGrantRegistry();
  std::lock_guard lock(r.mutex);
  r.grants.clear();
}

Result<std::shared_ptr<const S3Store>> S3StoreForUri(const std::string& uri) {
  GrantRegistry& r = TheGrantRegistry();
  for (int attempt = 0; attempt < 2; ++attempt) {
    std::string prefix;
    std::map<std::string, std::string> properties;
    DelegationRefresh refresh;
    {
      std::lock_guard lock(r.mutex);
      const Grant* found = nullptr;
      for (const auto& [p, g] : r.grants) {
        if (Under(uri, p) && p.size() > prefix.size()) prefix = p, found = &g;
      }
      if (found == nullptr) break;
      const auto now = Clock::now();
      const bool expiring = found->expires_at && *found->expires_at - now < kRefreshWindow;
      if (attempt == 0 && expiring && found->refresh && now - found->last_refresh >= kRefreshSpacing) {
        r.grants[prefix].last_refresh = now;
        refresh = found->refresh;
      } else if (found->store) {
        return found->store;
      } else {
        properties = found->properties;
      }
    }
    if (refresh) {
      // Outside the lock: the refresh is a catalog request, and it registers its answer here.
      Status refreshed = refresh();
      if (!refreshed.ok()) {
        spdlog::warn("storage: asking the catalog again for the credentials of {} failed (the current ones are "
                     "kept until they expire): {}",
                     prefix, refreshed.ToString());
      }
      continue;
    }
    FLOE_ASSIGN_OR_RETURN(auto settings, SettingsFor(prefix, properties));
    // Built outside the lock (the stores' registry has its own); the first of two racing
    // builds is kept.
    FLOE_ASSIGN_OR_RETURN(auto store, MakeS3Store(settings, "delegated by the catalog for " + prefix));
    std::lock_guard lock(r.mutex);
    auto it = r.grants.find(prefix);
    if (it == r.grants.end() || it->second.properties != properties) return store;  // replaced meanwhile
    if (!it->second.store) it->second.store = store;
    return it->second.store;
  }
  return SharedS3Store();
}

}  // namespace floe::storage
