#pragma once
// Which allocator Arrow's default memory pool uses in the floe binary (issue 17).
//
// The Arrow C++ that Floe ships with (the pyarrow wheel's) defaults to mimalloc, which hands
// freed pages back to the OS within milliseconds: column builders that grow every flush then
// fault in and zero their pages again (transparent huge pages: 2 MiB at a time), and page
// zeroing was 22 % of `floe run`'s CPU profile. jemalloc keeps them for a decay time: measured
// on the 2M-record bench topic, CPU 5.0-5.6 s instead of 5.8-6.5 s, peak RSS 620-650 MiB
// instead of 755-840 MiB (bench/results/latest.md).
namespace floe {

// Makes jemalloc, with a 100 ms page decay, Arrow's default pool unless
// ARROW_DEFAULT_MEMORY_POOL is set (the operator's choice wins) or this Arrow was built without
// it. Call first in main(), before anything allocates through Arrow: Arrow reads the variable
// once, on first use of its default pool.
void PreferJemallocPool();

}  // namespace floe
