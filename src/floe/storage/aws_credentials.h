#pragma once
// AWS credentials for requests Floe signs itself outside the S3 data path (the Glue catalog's
// JSON API). They come from the same chain as storage.s3 (static keys, or the AWS default
// chain, with an assumed role on top), through the AWS SDK that Arrow's S3 support carries,
// so Floe has one implementation of the chain and of STS AssumeRole.
#include <memory>
#include <string>

#include "floe/core/config.h"
#include "floe/core/result.h"

namespace floe::storage {

struct AwsCredentials {
  std::string access_key_id;
  std::string secret_access_key;
  std::string session_token;  // empty unless temporary credentials
};

class AwsCredentialSource {
 public:
  // Only region and the credential fields of `config` are used.
  static Result<std::shared_ptr<AwsCredentialSource>> Make(const S3StorageConfig& config);
  ~AwsCredentialSource();

  // Asked before each request: the assume-role provider refreshes expiring credentials itself.
  // kIoError when the chain finds none.
  Result<AwsCredentials> Current() const;
  // The configured region, else the one the AWS SDK resolved (AWS_REGION, profile).
  const std::string& region() const { return region_; }

 private:
  struct Impl;
  AwsCredentialSource(std::unique_ptr<Impl> impl, std::string region);
  std::unique_ptr<Impl> impl_;
  std::string region_;
};

}  // namespace floe::storage
