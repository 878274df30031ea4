#include "floe/core/memory_pool.h"

#include <arrow/memory_pool.h>

#include <algorithm>
#include <cstdlib>

namespace floe {

void PreferJemallocPool() {
  if (std::getenv("ARROW_DEFAULT_MEMORY_POOL") != nullptr) return;
  const auto backends = arrow::SupportedMemoryBackendNames();
  if (std::find(backends.begin(), backends.end(), "jemalloc") == backends.end()) return;
  ::setenv("ARROW_DEFAULT_MEMORY_POOL", "jemalloc", /*overwrite=*/0);
}

}  // namespace floe
