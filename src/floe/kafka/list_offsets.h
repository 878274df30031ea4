#pragma once
// The low and high watermarks of many partitions at once, with librdkafka's ListOffsets admin
// call: one request per leader broker for all of them. query_watermark_offsets asks for one
// partition at a time and waits for two answers, so reading 1,000 partitions' targets that way
// took ~1,000 round trips before the first record (batch mode's "caught up", lag).
#include <chrono>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "floe/core/result.h"
#include "floe/kafka/group_consumer.h"

struct rd_kafka_s;

namespace floe::kafka {

// [low, high) of each of `partitions` (their offset fields are ignored), in their order, as
// `handle`'s own query_watermark_offsets would answer: high is the last stable offset when the
// client reads with isolation.level=read_committed (librdkafka's default), else the high
// watermark. A partition the brokers refuse fails the whole call, naming it.
Result<std::vector<std::pair<std::int64_t, std::int64_t>>> ListWatermarks(rd_kafka_s* handle,
                                                                          const std::vector<TopicPartition>& partitions,
                                                                          std::chrono::milliseconds timeout);

}  // namespace floe::kafka
