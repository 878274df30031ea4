#pragma once
// AWS Glue's JSON API, one action per call: POST / to https://glue.<region>.amazonaws.com (or
// catalog.endpoint) with `X-Amz-Target: AWSGlue.<Action>` and a JSON body, signed with SigV4 by
// libcurl through storage's one HTTP sender (storage/object_put.h). Glue's exceptions become
// Status codes here; the catalog (glue_catalog.cc) rewords them for the thing it asked about.
//
// Retries (Glue's request-rate limits): a ThrottlingException or HTTP 429 was refused before it
// did anything, so any action is sent again; a 5xx answer or a failed transport leaves a write's
// outcome unknown, so only reads (Get*) are sent again. Up to kGlueMaxAttempts sends, waiting
// 200 ms, 400 ms, 800 ms between them (each a random 50-100 % of that, so that workers
// throttled together do not come back together). What is still failing after that is
// kUnavailable for the caller's own non-blocking backoff (core/backoff.h).
#include <chrono>
#include <functional>
#include <string>

#include <nlohmann/json.hpp>

#include "floe/core/config.h"
#include "floe/core/result.h"
#include "floe/storage/aws_credentials.h"
#include "floe/storage/object_put.h"

namespace floe::catalog {

inline constexpr int kGlueMaxAttempts = 4;
inline constexpr std::chrono::milliseconds kGlueFirstRetryWait{200};

// The request for `action` (no body yet): URL, target and content-type headers, SigV4 scope
// "aws:amz:<region>:glue", the keys, and x-amz-security-token for temporary credentials.
storage::ObjectPut GlueRequest(const std::string& endpoint, const std::string& region, const std::string& action,
                               const storage::AwsCredentials& credentials);

// "EntityNotFoundException" from an error answer's __type (with or without the
// "com.amazonaws…#" prefix) or, failing that, its x-amzn-ErrorType-like "code"; "" if neither.
std::string GlueErrorType(const std::string& body);

// `what: HTTP <code> <type>: <message>` as a Status: EntityNotFoundException kNotFound,
// AlreadyExistsException kAlreadyExists, ConcurrentModificationException kConflict (Glue's
// optimistic lock on UpdateTable's VersionId), ThrottlingException, 429 and 5xx kUnavailable
// (callers back off and retry), InvalidInputException kInvalidArgument, else kIoError (403
// AccessDeniedException with a hint at the IAM policy).
Status GlueErrorStatus(long code, const std::string& body, const std::string& what);

class GlueClient {
 public:
  // Sends a request and returns the answer (kUnavailable when the transport failed);
  // SendObjectPut in production, a fake in unit tests.
  using Transport = std::function<Result<storage::ObjectPutAnswer>(const storage::ObjectPut&, const std::string& body,
                                                                   const std::string& what)>;
  using Credentials = std::function<Result<storage::AwsCredentials>()>;
  // Waits between retries; std::this_thread::sleep_for in production.
  using Sleep = std::function<void(std::chrono::milliseconds)>;

  // endpoint: "" for AWS (https://glue.<region>.amazonaws.com); catalog_id: "" for the caller's account.
  GlueClient(std::string endpoint, std::string region, std::string catalog_id, Credentials credentials,
             Transport transport = {}, Sleep sleep = {});

  // `request` with CatalogId added when one is configured; the answer's JSON ({} when empty),
  // or GlueErrorStatus naming `what`, after the retries above.
  Result<nlohmann::json> Call(const std::string& action, nlohmann::json request, const std::string& what) const;

  const std::string& region() const { return region_; }
  const std::string& endpoint() const { return endpoint_; }

 private:
  std::string endpoint_;
  std::string region_;
  std::string catalog_id_;
  Credentials credentials_;
  Transport transport_;
  Sleep sleep_;
};

// A client for catalog.type glue: credentials and region from the config's chain
// (storage/aws_credentials.h, storage.s3's rules), requests to catalog.endpoint or Glue's
// regional endpoint.
Result<GlueClient> OpenGlueClient(const GlueCatalogConfig& config);

}  // namespace floe::catalog
