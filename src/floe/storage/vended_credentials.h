#pragma once
// Credential vending for the REST catalog (`catalog.vend_credentials`): short-lived S3
// credentials that may only read one table's files, so engines need no keys of their own.
// They come from STS AssumeRole on storage.s3.role_arn with a session policy scoped to the
// table's location, asked for with the default chain's credentials (the same principal Floe's
// own assume-role provider uses), and are cached per location until shortly before expiry.
#include <map>
#include <string>

#include "floe/core/result.h"

namespace floe::storage {

// FileIO properties for reading `table_location` (s3://bucket/prefix): s3.access-key-id,
// s3.secret-access-key, s3.session-token and s3.session-token-expires-at-ms. kInvalidArgument
// for a location outside S3; kUnavailable when STS cannot be reached.
Result<std::map<std::string, std::string>> VendReadCredentials(const std::string& table_location);

// The session policy for `table_location`: s3:GetObject under it and s3:ListBucket of its
// prefix (exposed for tests).
Result<std::string> ReadOnlySessionPolicy(const std::string& table_location);

}  // namespace floe::storage
