#pragma once
// One librdkafka admin request on a client's handle, and its answer: what the group watch
// (DescribeConsumerGroups, DescribeTopics) and the watermark lookup (ListOffsets) share.
#include <librdkafka/rdkafka.h>

#include <chrono>
#include <functional>
#include <memory>
#include <string_view>

#include "floe/core/result.h"

namespace floe::kafka {

struct AdminEventDeleter {
  void operator()(rd_kafka_event_t* event) const { rd_kafka_event_destroy(event); }
};
using AdminAnswer = std::unique_ptr<rd_kafka_event_t, AdminEventDeleter>;

// Sends request `op` (named `what` in errors) with `timeout` as its request timeout: `send` sets
// any further option and issues the request to the queue given (an error it returns stops
// here). The answer is waited for in 100 ms slices, so that a caller being stopped (`stopping`
// true) never waits on a broker. Unavailable when the answer is an error, when none came within
// the timeout (plus a second's margin against a lost event), or once stopping.
Result<AdminAnswer> RequestAdmin(rd_kafka_t* handle, rd_kafka_admin_op_t op, std::string_view what,
                                 std::chrono::milliseconds timeout,
                                 const std::function<Status(rd_kafka_AdminOptions_t*, rd_kafka_queue_t*)>& send,
                                 const std::function<bool()>& stopping = {});

}  // namespace floe::kafka
