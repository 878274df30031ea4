#pragma once
// The Delta codec of a table's offsets (topic_offsets.h): one `txn` action per Kafka
// partition, appId "floe:<topic>:<partition>", version = the next offset to read. Delta keeps
// the newest version per appId, so the log's state always holds every partition's offset.
#include <cstdint>
#include <map>
#include <string>

#include "floe/core/result.h"
#include "floe/delta/delta_log.h"
#include "floe/sink/topic_offsets.h"

namespace floe::sink {

// "floe:<topic>:<partition>"
std::string DeltaAppId(const std::string& topic, std::int32_t partition);

// The offsets of a replayed log; txn actions of other writers (other appId prefixes) are
// ignored. A "floe:" appId that is not floe:<topic>:<partition> is kInvalidArgument.
Result<TopicOffsets> DeltaCommittedOffsets(const delta::TableState& state);

// appId -> version, as delta::Commit::txns wants them.
std::map<std::string, std::int64_t> DeltaTxnVersions(const TopicOffsets& offsets);

}  // namespace floe::sink
