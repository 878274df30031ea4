#pragma once
// AWS Glue's JSON API, one action per call: POST / to https://glue.<region>.amazonaws.com (or
// catalog.endpoint) with `X-Amz-Target: AWSGlue.<Action>` and a JSON body, signed with SigV4 by
// libcurl through storage's one HTTP sender (storage/object_put.h). Glue's exceptions become
// Status codes here; the catalog (glue_catalog.cc) rewords them for the thing it asked about.
#include <functional>
#include <string>

#include <nlohmann/json.hpp>

#include "floe/core/result.h"
#include "floe/storage/aws_credentials.h"
#include "floe/storage/object_put.h"

namespace floe::catalog {

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

  // endpoint: "" for AWS (https://glue.<region>.amazonaws.com); catalog_id: "" for the caller's account.
  GlueClient(std::string endpoint, std::string region, std::string catalog_id, Credentials credentials,
             Transport transport = {});

  // `request` with CatalogId added when one is configured; the answer's JSON ({} when empty),
  // or GlueErrorStatus naming `what`.
  Result<nlohmann::json> Call(const std::string& action, nlohmann::json request, const std::string& what) const;

  const std::string& region() const { return region_; }
  const std::string& endpoint() const { return endpoint_; }

 private:
  std::string endpoint_;
  std::string region_;
  std::string catalog_id_;
  Credentials credentials_;
  Transport transport_;
};

}  // namespace floe::catalog
