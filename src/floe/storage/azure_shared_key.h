#pragma once
// Azure Storage's Shared Key authorization (learn.microsoft.com: "Authorize with Shared Key"),
// for the one request arrow::fs cannot make (a conditional Put Blob). Kept apart from the
// HTTP code so the string-to-sign can be checked against Microsoft's documented example.
#include <map>
#include <string>

#include "floe/core/result.h"

namespace floe::storage {

struct SharedKeyRequest {
  std::string method;                          // PUT, GET, …
  std::string account;                         // the storage account name
  std::string path;                            // the URL's path as sent (percent-encoded), from '/'
  std::map<std::string, std::string> headers;  // names in lower case
  std::map<std::string, std::string> query;    // names in lower case, values decoded
};

// The string-to-sign of the 2015-02-21+ service versions: the verb, eleven standard headers
// (Content-Length empty when 0), the x-ms-* headers sorted, and the canonicalized resource
// "/<account><path>" with the query parameters, one per line, sorted.
std::string SharedKeyStringToSign(const SharedKeyRequest& request);

// "SharedKey <account>:<base64 HMAC-SHA256 of string_to_sign with the decoded key>".
// kInvalidArgument when the key is not base64 (never quoting it).
Result<std::string> SharedKeyAuthorization(const SharedKeyRequest& request, const std::string& base64_account_key);

}  // namespace floe::storage
