#include "floe/storage/retry_metrics.h"

#include <spdlog/spdlog.h>

#include <chrono>
#include <map>
#include <mutex>
#include <string>

namespace floe::storage {
namespace {

struct RetryReporting {
  std::mutex mutex;
  MetricsRegistry* registry = nullptr;
  std::map<std::string, std::chrono::steady_clock::time_point> last_logged;  // per store
  std::map<std::string, StoreRetries> so_far;                               // per store
};

RetryReporting& Reporting() {
  static auto* reporting = new RetryReporting();  // never destroyed: clients may retry at exit
  return *reporting;
}

class CountingRetryStrategy : public arrow::fs::S3RetryStrategy {
 public:
  explicit CountingRetryStrategy(int max_attempts)
      : inner_(arrow::fs::S3RetryStrategy::GetAwsStandardRetryStrategy(max_attempts)) {}

  bool ShouldRetry(const AWSErrorDetail& error, int64_t attempted_retries) override {
    const bool retry = inner_->ShouldRetry(error, attempted_retries);
    if (retry) {
      // Refused connections and answers without a body (a 503 to a HEAD) carry no error code.
      CountRetry("s3", error.exception_name.empty() ? "unnamed" : error.exception_name, error.message);
    }
    return retry;
  }
  int64_t CalculateDelayBeforeNextRetry(const AWSErrorDetail& error, int64_t attempted_retries) override {
    return inner_->CalculateDelayBeforeNextRetry(error, attempted_retries);
  }

 private:
  std::shared_ptr<arrow::fs::S3RetryStrategy> inner_;
};

}  // namespace

void ReportRetriesTo(MetricsRegistry* registry) {
  RetryReporting& r = Reporting();
  std::lock_guard lock(r.mutex);
  r.registry = registry;
}

void CountRetry(std::string_view store, std::string_view error, std::string_view message) {
  RetryReporting& r = Reporting();
  std::lock_guard lock(r.mutex);  // retries are rare and slow anyway: a lock costs nothing here
  if (r.registry) {
    r.registry
        ->GetCounter("floe_storage_retries_total", "Object-store requests retried by the storage client",
                     {{"store", std::string(store)}, {"error", std::string(error)}})
        .Increment();
  }
  StoreRetries& so_far = r.so_far[std::string(store)];
  ++so_far.by_error[std::string(error)];
  so_far.last_error = error;
  so_far.last_message = message;
  so_far.last_at = std::chrono::system_clock::now();
  const auto now = std::chrono::steady_clock::now();
  auto& last = r.last_logged[std::string(store)];
  if (now - last >= std::chrono::seconds(5)) {
    last = now;
    spdlog::warn("{} request failed ({}: {}); retrying with backoff", store, error, message);
  }
}

std::map<std::string, StoreRetries> RetriesSoFar() {
  RetryReporting& r = Reporting();
  std::lock_guard lock(r.mutex);
  return r.so_far;
}

std::shared_ptr<arrow::fs::S3RetryStrategy> CountingS3RetryStrategy(int max_attempts) {
  return std::make_shared<CountingRetryStrategy>(max_attempts);
}

}  // namespace floe::storage
