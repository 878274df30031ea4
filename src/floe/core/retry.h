#pragma once
// Optimistic concurrency, the one way Floe retries it (table commits, schema changes,
// compaction): an attempt reads fresh state, builds its change on it and tries to commit;
// kConflict means another writer won the race, so the attempt runs again at once on the new
// state (no sleep: reloading is what resolves a conflict). Every other outcome goes back to
// the caller — in particular kUnavailable, which the caller retries later with its own
// non-blocking backoff (core/backoff.h) instead of sleeping on the thread that polls Kafka.
#include <type_traits>

#include "floe/core/result.h"

namespace floe {

// Enough for a handful of writers racing on one table; past it something is wrong (a writer
// committing in a tight loop) and the caller should see the conflict.
inline constexpr int kMaxConflictAttempts = 20;

namespace retry_internal {
inline const Status& StatusOf(const Status& s) { return s; }
template <typename T>
Status StatusOf(const Result<T>& r) { return r.status(); }
}  // namespace retry_internal

// Calls attempt(n) for n = 1, 2, … while it fails with kConflict, at most max_attempts
// times, and returns the last outcome. `attempt` returns Status or Result<T>.
template <typename Attempt>
std::invoke_result_t<Attempt&, int> RetryOnConflict(Attempt&& attempt, int max_attempts = kMaxConflictAttempts) {
  for (int n = 1;; ++n) {
    auto outcome = attempt(n);
    if (n >= max_attempts || retry_internal::StatusOf(outcome).code() != StatusCode::kConflict) return outcome;
  }
}

}  // namespace floe
