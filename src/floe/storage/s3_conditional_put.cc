// The one S3 request arrow::fs cannot make: a create that fails when the key exists
// (`If-None-Match: *`, honoured by AWS since 2024 and by S3-compatible stores). Delta's
// commit protocol rests on it. libcurl signs it (CURLOPT_AWS_SIGV4) with the credentials
// the store's Arrow options hold, so both paths act as the same principal.
#include "floe/storage/aws_sigv4.h"
#include "floe/storage/object_put.h"
#include "floe/storage/s3_store_internal.h"

namespace floe::storage {
namespace {

std::string ObjectUrl(const S3Store& store, const std::string& bucket, const std::string& key) {
  const auto& c = store.config;
  if (c.endpoint.empty()) {
    return "https://" + bucket + ".s3." + store.fs->region() + ".amazonaws.com/" + EncodeObjectPath(key);
  }
  std::string endpoint = c.endpoint;
  while (!endpoint.empty() && endpoint.back() == '/') endpoint.pop_back();
  if (c.path_style) return endpoint + "/" + bucket + "/" + EncodeObjectPath(key);
  const auto host = endpoint.find("://") + 3;
  return endpoint.substr(0, host) + bucket + "." + endpoint.substr(host) + "/" + EncodeObjectPath(key);
}

std::string Hint(long code, const std::string& s3_code) {
  if (code == 403 && s3_code == "AccessDenied") return "the IAM policy must allow s3:PutObject on this key: docs/storage.md";
  if (code == 404 && s3_code == "NoSuchBucket") return "the warehouse bucket does not exist";
  return "";
}

}  // namespace

Status S3PutIfAbsent(const S3Store& store, const std::string& bucket_key, const std::string& content) {
  const auto slash = bucket_key.find('/');
  if (slash == std::string::npos || slash == 0 || slash + 1 == bucket_key.size()) {
    return Status::InvalidArgument("'" + bucket_key + "' is not bucket/key");
  }
  const std::string bucket = bucket_key.substr(0, slash);
  const std::string what = "conditional PUT s3://" + bucket_key;
  ObjectPut put;
  put.store = "s3";
  put.method = "PUT";
  put.url = ObjectUrl(store, bucket, bucket_key.substr(slash + 1));
  // Asked each time: the assume-role provider refreshes expiring credentials itself.
  put.user = store.options.GetAccessKey();
  put.password = store.options.GetSecretKey();
  const std::string session_token = store.options.GetSessionToken();
  if (put.user.empty()) return Status::IoError(what + ": no AWS credentials found (" + DescribeCredentials(store.config) + ")");
  put.aws_sigv4 = "aws:amz:" + store.fs->region() + ":s3";
  // x-amz-* headers are part of the signature; S3 needs the payload hash as a header.
  put.headers = {"If-None-Match: *", "Content-Type: application/octet-stream",
                 "x-amz-content-sha256: " + Sha256Hex(content)};
  if (!session_token.empty()) put.headers.push_back("x-amz-security-token: " + session_token);
  if (!store.config.sse_type.empty()) put.headers.push_back("x-amz-server-side-encryption: " + store.config.sse_type);

  FLOE_ASSIGN_OR_RETURN(auto answer, SendObjectPut(put, content, what));
  if (answer.code >= 200 && answer.code < 300) return Status::OK();
  const std::string s3_code = XmlElement(answer.body, "Code");
  // 409: a concurrent conditional write to the key is in flight.
  return ObjectPutStatus("s3", answer.code, s3_code, XmlElement(answer.body, "Message"), what,
                         Hint(answer.code, s3_code), answer.code == 412 || answer.code == 409);
}

}  // namespace floe::storage
