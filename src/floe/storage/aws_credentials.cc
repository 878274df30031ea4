#include "floe/storage/aws_credentials.h"

#include "floe/storage/s3_store_internal.h"

namespace floe::storage {

struct AwsCredentialSource::Impl {
  S3StorageConfig config;
  arrow::fs::S3Options options;  // holds the SDK's credentials provider
};

AwsCredentialSource::AwsCredentialSource(std::unique_ptr<Impl> impl, std::string region)
    : impl_(std::move(impl)), region_(std::move(region)) {}

AwsCredentialSource::~AwsCredentialSource() = default;

Result<std::shared_ptr<AwsCredentialSource>> AwsCredentialSource::Make(const S3StorageConfig& config) {
  auto impl = std::make_unique<Impl>();
  impl->config = config;
  impl->config.endpoint.clear();  // credentials and region only: no S3 endpoint applies here
  FLOE_ASSIGN_OR_RETURN(auto options_and_region, AwsOptionsAndRegion(impl->config));
  impl->options = std::move(options_and_region.first);
  return std::shared_ptr<AwsCredentialSource>(new AwsCredentialSource(std::move(impl), options_and_region.second));
}

Result<AwsCredentials> AwsCredentialSource::Current() const {
  AwsCredentials out{impl_->options.GetAccessKey(), impl_->options.GetSecretKey(), impl_->options.GetSessionToken()};
  if (out.access_key_id.empty()) {
    return Status::IoError("no AWS credentials found (" + DescribeCredentials(impl_->config) + ")");
  }
  return out;
}

}  // namespace floe::storage
