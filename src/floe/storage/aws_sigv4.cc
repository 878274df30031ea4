#include "floe/storage/aws_sigv4.h"

#include <openssl/evp.h>
#include <openssl/hmac.h>
#include <openssl/sha.h>

#include <algorithm>
#include <ctime>

#include "floe/core/ascii.h"
#include "floe/core/percent_encoding.h"

namespace floe::storage {
namespace {

std::string Hex(const unsigned char* data, std::size_t n) {
  static constexpr char kDigits[] = "0123456789abcdef";
  std::string out;
  out.reserve(2 * n);
  for (std::size_t i = 0; i < n; ++i) {
    out += kDigits[data[i] >> 4];
    out += kDigits[data[i] & 0xf];
  }
  return out;
}

std::string Hmac(const std::string& key, const std::string& data) {
  unsigned char mac[EVP_MAX_MD_SIZE];
  unsigned int length = 0;
  HMAC(EVP_sha256(), key.data(), static_cast<int>(key.size()), reinterpret_cast<const unsigned char*>(data.data()),
       data.size(), mac, &length);
  return std::string(reinterpret_cast<const char*>(mac), length);
}

// Trimmed, inner runs of spaces and tabs collapsed to one space.
std::string CanonicalValue(const std::string& value) {
  std::string out;
  bool space = false;
  for (char c : value) {
    if (c == ' ' || c == '\t') {
      space = !out.empty();
      continue;
    }
    if (space) out += ' ';
    space = false;
    out += c;
  }
  return out;
}

struct UrlParts {
  std::string host;  // authority without a default port
  std::string path;
  std::string query;
};

UrlParts SplitUrl(const std::string& url) {
  UrlParts parts;
  const auto scheme_end = url.find("://");
  const std::string scheme = scheme_end == std::string::npos ? "" : AsciiLower(url.substr(0, scheme_end));
  const std::size_t start = scheme_end == std::string::npos ? 0 : scheme_end + 3;
  const auto path_start = url.find_first_of("/?", start);
  parts.host = AsciiLower(url.substr(start, path_start == std::string::npos ? std::string::npos : path_start - start));
  if (const auto at = parts.host.rfind('@'); at != std::string::npos) parts.host.erase(0, at + 1);
  for (const auto& [s, port] : {std::pair{"http", ":80"}, std::pair{"https", ":443"}}) {
    const std::string p = port;
    if (scheme == s && parts.host.size() > p.size() && parts.host.ends_with(p)) parts.host.resize(parts.host.size() - p.size());
  }
  if (path_start == std::string::npos) return parts;
  const std::string rest = url.substr(path_start);
  const auto q = rest.find('?');
  parts.path = rest.substr(0, q);
  if (q != std::string::npos) parts.query = rest.substr(q + 1);
  if (const auto hash = parts.query.find('#'); hash != std::string::npos) parts.query.resize(hash);
  return parts;
}

std::string CanonicalQuery(const std::string& query) {
  std::vector<std::pair<std::string, std::string>> pairs;
  std::size_t start = 0;
  while (start <= query.size() && !query.empty()) {
    auto end = query.find('&', start);
    if (end == std::string::npos) end = query.size();
    const std::string item = query.substr(start, end - start);
    if (!item.empty()) {
      const auto eq = item.find('=');
      pairs.emplace_back(item.substr(0, eq), eq == std::string::npos ? "" : item.substr(eq + 1));
    }
    start = end + 1;
  }
  std::sort(pairs.begin(), pairs.end());
  std::string out;
  for (const auto& [k, v] : pairs) out += (out.empty() ? "" : "&") + k + "=" + v;
  return out;
}

// Canonical headers and the signed-header list, from the request's headers plus host.
std::pair<std::string, std::string> CanonicalHeaders(const std::string& host, const HeaderList& headers) {
  std::vector<std::pair<std::string, std::string>> lines = {{"host", host}};
  for (const auto& [name, value] : headers) {
    const std::string key = AsciiLower(name);
    if (key == "host" || key == "authorization") continue;
    auto same = std::find_if(lines.begin(), lines.end(), [&](const auto& l) { return l.first == key; });
    if (same != lines.end()) {
      same->second += "," + CanonicalValue(value);
    } else {
      lines.emplace_back(key, CanonicalValue(value));
    }
  }
  std::sort(lines.begin(), lines.end());
  std::string canonical, signed_names;
  for (const auto& [k, v] : lines) {
    canonical += k + ":" + v + "\n";
    signed_names += (signed_names.empty() ? "" : ";") + k;
  }
  return {canonical, signed_names};
}

std::string FormatTime(std::chrono::system_clock::time_point now, const char* format) {
  const std::time_t t = std::chrono::system_clock::to_time_t(now);
  std::tm tm{};
  gmtime_r(&t, &tm);
  char buf[32];
  std::strftime(buf, sizeof buf, format, &tm);
  return buf;
}

struct Canonical {
  std::string request;
  std::string signed_headers;
};

Canonical CanonicalForm(const std::string& method, const std::string& url, const std::string& body,
                        const std::string& service, const HeaderList& headers) {
  const UrlParts parts = SplitUrl(url);
  std::string path = parts.path.empty() ? "/" : parts.path;
  // Every service but S3 signs the path encoded once more than it is sent.
  if (service != "s3") path = PercentEncode(path, "-._~/");
  auto [canonical_headers, signed_names] = CanonicalHeaders(parts.host, headers);
  return {method + "\n" + path + "\n" + CanonicalQuery(parts.query) + "\n" + canonical_headers + "\n" + signed_names +
              "\n" + Sha256Hex(body),
          signed_names};
}

}  // namespace

std::string Sha256Hex(const std::string& data) {
  unsigned char digest[SHA256_DIGEST_LENGTH];
  SHA256(reinterpret_cast<const unsigned char*>(data.data()), data.size(), digest);
  return Hex(digest, sizeof digest);
}

std::string SigV4CanonicalRequest(const std::string& method, const std::string& url, const std::string& body,
                                  const std::string& service, const HeaderList& headers) {
  return CanonicalForm(method, url, body, service, headers).request;
}

void SignSigV4(const std::string& method, const std::string& url, const std::string& body, const SigV4Scope& scope,
               const AwsCredentials& credentials, std::chrono::system_clock::time_point now, HeaderList& headers) {
  for (auto it = headers.begin(); it != headers.end();) {
    const std::string key = AsciiLower(it->first);
    if (key == "authorization") {
      it->first = "Original-Authorization";
    } else if (key == "x-amz-date" || key == "x-amz-content-sha256" || key == "x-amz-security-token") {
      it = headers.erase(it);
      continue;
    }
    ++it;
  }
  const std::string amz_date = FormatTime(now, "%Y%m%dT%H%M%SZ");
  const std::string day = amz_date.substr(0, 8);
  headers.emplace_back("x-amz-date", amz_date);
  headers.emplace_back("x-amz-content-sha256", Sha256Hex(body));
  if (!credentials.session_token.empty()) headers.emplace_back("x-amz-security-token", credentials.session_token);

  const Canonical canonical = CanonicalForm(method, url, body, scope.service, headers);
  const std::string credential_scope = day + "/" + scope.region + "/" + scope.service + "/aws4_request";
  const std::string to_sign = "AWS4-HMAC-SHA256\n" + amz_date + "\n" + credential_scope + "\n" + Sha256Hex(canonical.request);
  std::string key = Hmac("AWS4" + credentials.secret_access_key, day);
  key = Hmac(key, scope.region);
  key = Hmac(key, scope.service);
  key = Hmac(key, "aws4_request");
  const std::string mac = Hmac(key, to_sign);
  headers.emplace_back("Authorization", "AWS4-HMAC-SHA256 Credential=" + credentials.access_key_id + "/" +
                                            credential_scope + ", SignedHeaders=" + canonical.signed_headers + ", Signature=" +
                                            Hex(reinterpret_cast<const unsigned char*>(mac.data()), mac.size()));
}

}  // namespace floe::storage
