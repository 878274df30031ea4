#include "floe/pipeline/record_limits.h"

#include <string>

namespace floe::pipeline {

std::int64_t RecordBytes(const kafka::Record& record) {
  const auto key = record.key();
  const auto value = record.value();
  return static_cast<std::int64_t>((key ? key->size() : 0) + (value ? value->size() : 0));
}

Status CheckRecordSize(const kafka::Record& record, std::int64_t max_record_size) {
  const std::int64_t bytes = RecordBytes(record);
  if (bytes <= max_record_size) return Status::OK();
  return Status::InvalidArgument("record of " + std::to_string(bytes) + " bytes (key and value) is larger than max_record_size (" +
                                 std::to_string(max_record_size) + " bytes); it was not decoded");
}

}  // namespace floe::pipeline
