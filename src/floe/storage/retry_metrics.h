#pragma once
// Retries the object-store clients make on their own (503 SlowDown, 500, timeouts, refused
// connections), counted for /metrics as floe_storage_retries_total{store, error}: a store that
// is struggling shows up on a dashboard before commits start to fail.
#include <arrow/filesystem/s3fs.h>

#include <chrono>
#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <string_view>

#include "floe/core/metrics.h"

namespace floe::storage {

// Where the counters go from now on; nullptr (the default) counts nothing. The registry must
// outlive every store (the `floe run` process's registry does).
void ReportRetriesTo(MetricsRegistry* registry);

// Counts one retry of a request to `store` that failed with `error` (an error code such as
// SlowDown, or "network"), and logs it, at most once every few seconds per store.
void CountRetry(std::string_view store, std::string_view error, std::string_view message);

// What has been retried so far, per store (for /status): counts per error, and the latest.
struct StoreRetries {
  std::map<std::string, std::uint64_t> by_error;
  std::string last_error;
  std::string last_message;
  std::chrono::system_clock::time_point last_at;
};
std::map<std::string, StoreRetries> RetriesSoFar();

// The AWS SDK's standard retry strategy (exponential backoff with jitter, up to
// `max_attempts` tries per request), counting each retry it decides on.
std::shared_ptr<arrow::fs::S3RetryStrategy> CountingS3RetryStrategy(int max_attempts);

}  // namespace floe::storage
