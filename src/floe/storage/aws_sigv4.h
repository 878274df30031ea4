#pragma once
// AWS Signature Version 4 for requests whose canonical form libcurl's CURLOPT_AWS_SIGV4 gets
// wrong: the Iceberg REST catalog behind SigV4 (Glue's and S3 Tables' Iceberg endpoints, API
// Gateway). libcurl 7.88 signs the path as sent and the query unsorted, while AWS (and botocore,
// and Iceberg's RESTSigV4AuthSession through the AWS SDK) sign every service but S3 with each
// path segment encoded once more ("%2E" is signed as "%252E") and the query sorted: any escaped
// name or a paged list would be refused. The rules, as AWS states them:
//   canonical request = METHOD \n URI \n QUERY \n HEADERS \n SIGNED-HEADERS \n hex(sha256(body))
//   URI: the path as sent, encoded again (all but RFC 3986 unreserved and '/'), except for s3;
//   QUERY: the name=value pairs as sent (already encoded), sorted; HEADERS: lower-case names,
//   values trimmed with inner whitespace runs collapsed, sorted by name, host included.
//   string to sign = "AWS4-HMAC-SHA256" \n x-amz-date \n <day>/<region>/<service>/aws4_request \n
//                    hex(sha256(canonical request)); key = HMAC chain over "AWS4"+secret.
// Like Iceberg's signer, the payload hash is also sent as x-amz-content-sha256, and an
// Authorization header the request already carries (an OAuth2 bearer token) is sent as
// Original-Authorization.
#include <chrono>
#include <string>
#include <utility>
#include <vector>

#include "floe/storage/aws_credentials.h"

namespace floe::storage {

using HeaderList = std::vector<std::pair<std::string, std::string>>;

// Lower-case hex of SHA-256(data).
std::string Sha256Hex(const std::string& data);

struct SigV4Scope {
  std::string region;   // us-east-1
  std::string service;  // glue, s3tables, execute-api, …
};

// Signs a request: `headers` are the ones it will be sent with (all are signed; the HTTP
// library's own, such as User-Agent or Accept-Encoding, are not in it and so not signed; Host
// is signed as the URL's authority, which is what libcurl sends). On return they also carry
// x-amz-date, x-amz-content-sha256, x-amz-security-token (temporary credentials) and
// Authorization (one already there moved to Original-Authorization). `url` is
// http(s)://host[:port]/path[?query] exactly as it is sent.
void SignSigV4(const std::string& method, const std::string& url, const std::string& body, const SigV4Scope& scope,
               const AwsCredentials& credentials, std::chrono::system_clock::time_point now, HeaderList& headers);

// The canonical request SignSigV4 signs (for tests and for explaining a refused signature).
std::string SigV4CanonicalRequest(const std::string& method, const std::string& url, const std::string& body,
                                  const std::string& service, const HeaderList& headers);

}  // namespace floe::storage
