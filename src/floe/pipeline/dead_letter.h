#pragma once
// What error_mode: dlq sends: the original record (key, value, headers as they were) plus
// headers saying where it came from and why Floe could not write it (docs/errors.md).
#include <string>
#include <vector>

#include "floe/core/status.h"
#include "floe/kafka/consumer.h"
#include "floe/kafka/producer.h"

namespace floe::pipeline {

inline constexpr const char* kErrorHeaderTopic = "floe.error.topic";
inline constexpr const char* kErrorHeaderPartition = "floe.error.partition";
inline constexpr const char* kErrorHeaderOffset = "floe.error.offset";
inline constexpr const char* kErrorHeaderReason = "floe.error.reason";

std::vector<kafka::OwnedHeader> DeadLetterHeaders(const kafka::Record& record, const Status& reason);

}  // namespace floe::pipeline
