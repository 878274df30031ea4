#pragma once
// Messages taken from librdkafka's consumer queue in one call (rd_kafka_consume_batch_queue)
// and handed out one at a time by Consumer::Poll. librdkafka's per-message consume reads the
// clock twice, takes the queue lock twice and, in its C++ API, wraps each message in an object
// of its own: the clock reads alone were ~3 % of `floe run`'s CPU (issue 17 asks for one clock
// read per poll batch). A batch is what is already queued, up to kMaxMessages; only an empty
// queue is waited on, for its first message, so no record waits for a batch to fill.
//
// librdkafka counts the messages of a batch as read when it returns them (its application
// position moves past all of them), so the ones still here are read but not delivered: a seek
// drops a partition's, a pause rewinds the partition to its first one here (nothing arrives
// while paused), and a partition's read position is its first message here, if any.
#include <cstddef>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

struct rd_kafka_message_s;
struct rd_kafka_queue_s;

namespace floe::kafka {

class FetchedBatch {
 public:
  static constexpr std::size_t kMaxMessages = 1024;

  FetchedBatch() = default;
  ~FetchedBatch();  // destroys the messages not handed out
  FetchedBatch(const FetchedBatch&) = delete;
  FetchedBatch& operator=(const FetchedBatch&) = delete;

  bool empty() const { return next_ == messages_.size(); }
  // Refills an empty batch from `queue`: what is queued, else waits up to `timeout_ms` for one
  // message. Rebalance and event callbacks run in here. The number of messages (0 on timeout),
  // or -1 when librdkafka refused the call (rd_kafka_last_error() says why).
  int Fill(rd_kafka_queue_s* queue, int timeout_ms);
  // The next message, now the caller's (rd_kafka_message_destroy); nullptr when empty.
  rd_kafka_message_s* Next();
  // Destroys the partition's messages not handed out yet (a seek: they are read again).
  void DropPartition(const std::string& topic, std::int32_t partition);
  // The offset of the partition's first message not handed out yet, if it has one here.
  std::optional<std::int64_t> FirstOffset(const std::string& topic, std::int32_t partition) const;
  // The same for every partition with a message here.
  std::map<std::pair<std::string, std::int32_t>, std::int64_t> FirstOffsets() const;
  void Clear();

 private:
  std::vector<rd_kafka_message_s*> messages_;  // messages_[next_..] not handed out; nullptr = dropped
  std::size_t next_ = 0;
};

}  // namespace floe::kafka
