#include "floe/pipeline/partition_phase.h"

namespace floe::pipeline {

std::string_view PartitionPhaseName(PartitionPhase phase) {
  switch (phase) {
    case PartitionPhase::kRecovering: return "recovering";
    case PartitionPhase::kReading: return "reading";
    case PartitionPhase::kWaiting: return "waiting";
    case PartitionPhase::kSuspended: return "suspended";
  }
  return "unknown";
}

FailureKind Classify(const Status& status) {
  switch (status.code()) {
    case StatusCode::kUnavailable:
    case StatusCode::kIoError:
    case StatusCode::kConflict:
      return FailureKind::kRetryLater;
    default:
      return FailureKind::kPermanent;
  }
}

}  // namespace floe::pipeline
