#include "floe/core/memory_pool.h"

#include <arrow/memory_pool.h>
#include <malloc.h>

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <cstring>

namespace floe {
namespace {

// Freed pages go back to the OS after 100 ms (Arrow's default: 1 s). Measured at buffer_memory
// 64MiB: peak RSS 255-265 MiB instead of 300, CPU within the noise; at 0 ms the page faults
// came back (+20 % CPU). Set through Arrow, which applies it to jemalloc already running:
// JE_ARROW_MALLOC_CONF set from here would come too late (jemalloc starts before main()).
constexpr int kJemallocDecayMs = 100;

// At a small buffer_memory the pages jemalloc keeps for reuse within its decay time were a
// third of what Arrow held: at 16MiB peak RSS 126-160 MiB with 100 ms, 108-110 MiB with 0 ms;
// at 64MiB 227-237 against 198-203 (2M records each, 3 runs). Below this budget they go back
// at once, for ~15 % more CPU (the page faults above): whoever sets a small budget wants RSS.
constexpr std::int64_t kPromptReturnBudget = std::int64_t{128} << 20;

bool jemalloc_decay_is_ours = false;  // ConfigureAllocators chose jemalloc and its decay

// librdkafka's fetch responses (up to fetch.max.bytes each) are malloc'ed and freed once their
// last message is. glibc raises its mmap threshold to the largest block freed, so after the
// first response they came from the heap, where freed ones stayed as fragments: 7 MiB of 82 at
// buffer_memory 16MiB. A fixed threshold keeps them mmap'ed, returned to the OS when freed.
constexpr int kMmapThreshold = 256 * 1024;

bool OperatorTunedMalloc() {
  if (std::getenv("MALLOC_MMAP_THRESHOLD_") != nullptr) return true;
  const char* tunables = std::getenv("GLIBC_TUNABLES");
  return tunables != nullptr && std::strstr(tunables, "mmap_threshold") != nullptr;
}

}  // namespace

void ConfigureAllocators() {
  if (!OperatorTunedMalloc()) (void)mallopt(M_MMAP_THRESHOLD, kMmapThreshold);
  if (std::getenv("ARROW_DEFAULT_MEMORY_POOL") != nullptr) return;
  const auto backends = arrow::SupportedMemoryBackendNames();
  if (std::find(backends.begin(), backends.end(), "jemalloc") == backends.end()) return;
  ::setenv("ARROW_DEFAULT_MEMORY_POOL", "jemalloc", /*overwrite=*/0);
  if (std::getenv("JE_ARROW_MALLOC_CONF") != nullptr) return;
  jemalloc_decay_is_ours = arrow::jemalloc_set_decay_ms(kJemallocDecayMs).ok();
}

std::int64_t ArrowMemoryHeld() {
  arrow::MemoryPool* pool = arrow::default_memory_pool();
  const std::int64_t allocated = pool->bytes_allocated();
  if (pool->backend_name() != "jemalloc") return allocated;
  // Freed pages jemalloc keeps for reuse until its decay time has passed: resident, but in no
  // allocation. (Not its metadata and partly used slabs: a few MiB that no commit gives back.)
  const auto resident = arrow::jemalloc_get_stat("stats.resident");  // each refreshes the stats
  const auto active = arrow::jemalloc_get_stat("stats.active");
  const auto metadata = arrow::jemalloc_get_stat("stats.metadata");
  if (!resident.ok() || !active.ok() || !metadata.ok()) return allocated;
  return allocated + std::max<std::int64_t>(0, *resident - *active - *metadata);
}

void FitAllocatorsToBudget(std::int64_t buffer_memory) {
  if (jemalloc_decay_is_ours && buffer_memory <= kPromptReturnBudget) (void)arrow::jemalloc_set_decay_ms(0);
}

}  // namespace floe
