#pragma once
// Where one assigned partition stands in the materializer, and what a failure means.
//
//   kRecovering ──(table offsets read, seeked there)──> kReading
//   kReading ──(a record needs something unavailable: paused, seeked back)──> kWaiting
//   kWaiting ──(backoff over: resumed, the record comes again)──> kReading
//   any ──(the topic is suspended: paused)──> kSuspended   (left only by a restart)
//
// Records are appended only in kReading; in every other phase they are dropped, which is safe
// because the partition is paused or will be seeked to the right offset before it reads again.
#include <string_view>

#include "floe/core/status.h"

namespace floe::pipeline {

enum class PartitionPhase {
  kRecovering,  // the table's offsets could not be read on assignment: where to start is unknown
  kReading,
  kWaiting,     // paused until a backoff ends
  kSuspended,   // the topic is suspended: paused, offsets untouched
};

std::string_view PartitionPhaseName(PartitionPhase phase);

// What a failure means for the record or the commit it came from:
//   kRetryLater — a dependency is unreachable or busy (kUnavailable, kIoError, or kConflict
//                 after the sink's own conflict retries): wait and try the same thing again,
//                 never skip it;
//   kPermanent  — retrying cannot help: for a record, it is bad (the topic's error_mode
//                 decides); for a table operation, the topic is suspended.
enum class FailureKind { kRetryLater, kPermanent };
FailureKind Classify(const Status& status);

}  // namespace floe::pipeline
