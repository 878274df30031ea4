#pragma once
// Floe's librdkafka settings for a group consumer (consumer.h), with the user's properties
// applied on top: what Consumer::Create uses, what Consumer::CheckOptions tries without making
// a client, and what the group watch's rebalance probe (group_watch.h) starts from.
#include <librdkafka/rdkafkacpp.h>

#include <memory>

#include "floe/core/result.h"
#include "floe/kafka/consumer.h"

namespace floe::kafka {

// InvalidArgument naming the property librdkafka refused.
Result<std::unique_ptr<RdKafka::Conf>> BuildConsumerConf(const ConsumerOptions& options);

}  // namespace floe::kafka
