#pragma once
// A Status-returning producer for dead-letter topics. Delivery is asynchronous; Flush() is
// the point where the caller learns whether everything it queued reached the broker. Floe
// flushes before it commits the table offsets that skip past dead-lettered records, so a
// record is either in the table, in its dead-letter topic, or read again after a restart.
#include <chrono>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "floe/core/result.h"
#include "floe/kafka/record.h"  // OwnedHeader

namespace RdKafka {
class Producer;
}  // namespace RdKafka

namespace floe::kafka {

struct ProducerOptions {
  std::string bootstrap_servers;
  std::map<std::string, std::string> properties;  // librdkafka pass-through, applied last
};

class DeliveryTracker;  // producer.cc: librdkafka's delivery report callback

// Safe to use from several threads; delivery failures are counted per producer, so a Flush()
// reports failures of records any thread queued.
class Producer {
 public:
  // Defaults: enable.idempotence=true, acks=all; options.properties override them.
  static Result<std::unique_ptr<Producer>> Create(const ProducerOptions& options);
  // Does not wait: records still queued (no Flush, or a failed one) are dropped and logged. A
  // caller that has not seen Flush() succeed has not committed past them, so they are
  // produced again after a restart.
  ~Producer();

  // Queues one record (copying key, value and headers) for any partition (librdkafka's
  // partitioner, by key). nullopt key/value = null key / tombstone. A full local queue is
  // waited out, serving delivery reports, for up to 30 s before kUnavailable.
  Status Produce(const std::string& topic, std::optional<std::string_view> key, std::optional<std::string_view> value,
                 const std::vector<OwnedHeader>& headers);
  // Waits until everything queued is delivered. kUnavailable naming the topic and the error if
  // any record since the last Flush failed to deliver, or if the timeout passed first (the
  // records still queued stay queued and count for the next Flush).
  Status Flush(std::chrono::milliseconds timeout);

 private:
  Producer(std::unique_ptr<DeliveryTracker> tracker, std::unique_ptr<RdKafka::Producer> producer);

  // Declared first so it is destroyed last: librdkafka calls into it until producer_ is gone.
  std::unique_ptr<DeliveryTracker> tracker_;
  std::unique_ptr<RdKafka::Producer> producer_;
};

}  // namespace floe::kafka
