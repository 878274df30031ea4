#pragma once
// How the floe binary's allocators are set up (issue 17): Arrow's default pool, and glibc
// malloc, which librdkafka allocates from.
//
// The Arrow C++ that Floe ships with (the pyarrow wheel's) defaults to mimalloc, which hands
// freed pages back to the OS within milliseconds: column builders that grow every flush then
// fault in and zero their pages again (transparent huge pages: 2 MiB at a time), and page
// zeroing was 22 % of `floe run`'s CPU profile. jemalloc keeps them for a decay time: measured
// on the 2M-record bench topic, CPU 5.0-5.6 s instead of 5.8-6.5 s, peak RSS 620-650 MiB
// instead of 755-840 MiB (bench/results/latest.md).
#include <cstdint>

namespace floe {

// Call first in main(), before anything allocates (Arrow reads its settings once, on first use
// of its default pool). Each setting yields to the operator's own (the environment variable
// named beside it):
// - jemalloc as Arrow's default pool (ARROW_DEFAULT_MEMORY_POOL), unless this Arrow was built
//   without it, with a 100 ms page decay (JE_ARROW_MALLOC_CONF);
// - glibc malloc with a fixed 256 KiB mmap threshold (GLIBC_TUNABLES, MALLOC_MMAP_THRESHOLD_).
void ConfigureAllocators();

// Once buffer_memory is known (before the pipeline's threads start): at a budget of 128 MiB or
// less, jemalloc returns freed pages at once instead of after 100 ms (unless the operator set
// JE_ARROW_MALLOC_CONF). jemalloc applies it to the arenas it creates from then on, which
// the threads started later allocate from.
void FitAllocatorsToBudget(std::int64_t buffer_memory);

// What Arrow's memory takes (what buffer_memory is held against, issue 17): the bytes Arrow's
// default pool has allocated, and with jemalloc the freed pages it still holds for reuse. A
// few microseconds: for housekeeping, not per record.
std::int64_t ArrowMemoryHeld();

}  // namespace floe
