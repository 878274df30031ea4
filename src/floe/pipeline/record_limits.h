#pragma once
// The size rule every record passes before anything reads it (docs/errors.md, "Record
// limits"): a record whose key and value together are larger than the topic's
// max_record_size is a bad record for error_mode, never decoded, so one huge record cannot
// make Floe allocate several times its size. Its dead letter carries no key or value (the
// dead-letter topic would refuse them too); the headers say where it is and how large it was.
#include <cstdint>

#include "floe/core/status.h"
#include "floe/kafka/record.h"

namespace floe::pipeline {

inline constexpr const char* kErrorHeaderDroppedBytes = "floe.error.dropped_bytes";

// The record's key and value bytes.
std::int64_t RecordBytes(const kafka::Record& record);

// kInvalidArgument naming the record's size and the limit when it is over max_record_size.
Status CheckRecordSize(const kafka::Record& record, std::int64_t max_record_size);

}  // namespace floe::pipeline
