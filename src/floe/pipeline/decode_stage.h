#pragma once
// Decoding off the poll thread (issue 17, docs/running.md "Threads"). The poll thread reads
// records, resolves each one's writer schema and checks that the table holds its columns; the
// records it queued are then handed here as one batch, and the stage appends them to their
// partitions' buffers — decode and column building — on its own threads while the poll thread
// reads the next batch. A batch's records of one partition are one task, appended in the order
// they were read, so per-partition order holds; tasks of different partitions run in parallel.
//
// One batch is in flight at a time, and the poll thread waits for it (Join) before it touches
// a buffer itself (commits, status, the error policy): a buffer has one user at a time, with no
// lock. A record its buffer refuses (a decode error) stops its partition's task; Join returns
// it with the partition's records after it, for the poll thread to apply the error policy.
#include <condition_variable>
#include <cstdint>
#include <mutex>
#include <optional>
#include <string_view>
#include <vector>

#include "floe/core/status.h"
#include "floe/kafka/record.h"
#include "floe/pipeline/worker_pool.h"
#include "floe/pipeline/writer_schemas.h"

namespace floe::pipeline {

struct PartitionState;
struct TopicState;

class DecodeStage {
 public:
  // A record ready to append: PartitionBuffer::Append's arguments, and where it goes.
  struct Item {
    kafka::Record record;
    const WriterSchema* schema = nullptr;
    std::string_view payload;                     // into record's value
    std::optional<std::string_view> key_payload;  // into record's key
    TopicState* topic = nullptr;
    PartitionState* partition = nullptr;
    std::uint64_t buffer_resets = 0;  // the buffer's resets() when queued: a reset since drops it
  };
  // A partition whose task stopped at a record its buffer refused (`why`): items[0] is that
  // record, then the partition's later records of the batch, none of them appended.
  struct Refused {
    Status why;
    std::vector<Item> items;
  };

  explicit DecodeStage(int threads);

  // Starts appending `batch` (records in the order read); no batch may be in flight. The
  // items stay where they are: `batch` comes back empty, with an earlier batch's capacity for
  // the next one to fill (a 16,384-record batch regrown and moved item by item into its
  // partitions' tasks was a tenth of the poll thread's time).
  void Submit(std::vector<Item>& batch);
  bool in_flight() const { return in_flight_; }
  // Waits for the batch in flight, if any, and returns the partitions that refused a record.
  std::vector<Refused> Join();

 private:
  // One partition's items: batch_[order_[begin]], ..., batch_[order_[end - 1]], in read order.
  struct Task {
    std::size_t begin = 0;
    std::size_t end = 0;
    std::size_t appended = 0;
    Status why;
  };
  void Run(Task& task);

  std::vector<Item> batch_;
  std::vector<std::uint32_t> order_;  // indexes into batch_, grouped by task
  std::vector<std::uint32_t> task_of_item_;  // Submit's scratch: the task of batch_[i]
  std::vector<Task> tasks_;
  std::mutex mu_;
  std::condition_variable done_;
  std::size_t remaining_ = 0;
  bool in_flight_ = false;
  // Last: its threads are joined before the tasks they use go.
  WorkerPool pool_;
};

}  // namespace floe::pipeline
