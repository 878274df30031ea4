#include "floe/core/memory_pool.h"

#include <arrow/memory_pool.h>
#include <malloc.h>

#include <algorithm>
#include <cstdlib>
#include <cstring>

namespace floe {
namespace {

// Freed pages go back to the OS after 100 ms (Arrow's default: 1 s). Measured at buffer_memory
// 64MiB: peak RSS 255-265 MiB instead of 300, CPU within the noise; at 0 ms the page faults
// came back (+20 % CPU). Set through Arrow, which applies it to jemalloc already running:
// JE_ARROW_MALLOC_CONF set from here would come too late (jemalloc starts before main()).
constexpr int kJemallocDecayMs = 100;

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
  if (std::getenv("JE_ARROW_MALLOC_CONF") == nullptr) (void)arrow::jemalloc_set_decay_ms(kJemallocDecayMs);
}

}  // namespace floe
