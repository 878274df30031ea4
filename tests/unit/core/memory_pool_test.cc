#include "floe/core/memory_pool.h"

#include <arrow/buffer.h>
#include <arrow/memory_pool.h>
#include <gtest/gtest.h>

#include <cstring>

namespace floe {
namespace {

// buffer_memory is held against ArrowMemoryHeld (issue 17): it must see what Arrow's default
// pool hands out, and see it go when it is freed.
TEST(ArrowMemoryHeld, CountsWhatArrowAllocatesAndFrees) {
  constexpr std::int64_t kSize = 32 << 20;
  const std::int64_t before = ArrowMemoryHeld();
  std::int64_t while_held = 0;
  {
    auto buffer = arrow::AllocateBuffer(kSize, arrow::default_memory_pool());
    ASSERT_TRUE(buffer.ok()) << buffer.status().ToString();
    std::memset((*buffer)->mutable_data(), 1, kSize);  // touched, as rows would be
    while_held = ArrowMemoryHeld();
    EXPECT_GE(while_held, before + kSize);
  }
  // Freed: no longer allocated. With jemalloc its pages may be kept for reuse a while (counted
  // until returned), so only the allocation is checked to be gone.
  EXPECT_LE(arrow::default_memory_pool()->bytes_allocated(), while_held - kSize);
  EXPECT_GE(ArrowMemoryHeld(), arrow::default_memory_pool()->bytes_allocated());
}

}  // namespace
}  // namespace floe
