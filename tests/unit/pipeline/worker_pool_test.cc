// The materializer's worker threads (pipeline/worker_pool.h): tasks run in submission order on
// one thread, concurrently on several, and all of them before the pool is gone; `workers:`
// unset resolves to the cores this process may use.
#include "floe/pipeline/worker_pool.h"

#include <gtest/gtest.h>
#include <sched.h>

#include <chrono>
#include <future>
#include <vector>

namespace floe::pipeline {
namespace {

using namespace std::chrono_literals;

TEST(WorkerPool, OneThreadRunsTasksInOrderAndAllBeforeItIsGone) {
  std::vector<int> order;
  {
    WorkerPool pool(1);
    for (int i = 0; i < 100; ++i) pool.Submit([&order, i] { order.push_back(i); });  // one thread: no race
  }
  ASSERT_EQ(order.size(), 100u);
  for (int i = 0; i < 100; ++i) EXPECT_EQ(order[static_cast<std::size_t>(i)], i);
}

TEST(WorkerPool, SeveralThreadsRunTasksAtTheSameTime) {
  std::promise<void> release;
  std::shared_future<void> released = release.get_future().share();
  std::promise<void> second_ran;
  std::future<void> second = second_ran.get_future();
  {
    WorkerPool pool(2);  // joined at the end of this block, before what its tasks use goes
    EXPECT_EQ(pool.size(), 2);
    pool.Submit([released] { released.wait(); });  // holds the first thread
    pool.Submit([&second_ran] { second_ran.set_value(); });
    // The second task runs while the first still holds its thread.
    EXPECT_EQ(second.wait_for(10s), std::future_status::ready);
    release.set_value();
  }
}

TEST(WorkerPool, UnsetWorkersAreTheAvailableCores) {
  cpu_set_t set;
  CPU_ZERO(&set);
  ASSERT_EQ(sched_getaffinity(0, sizeof(set), &set), 0);
  EXPECT_EQ(WorkerCount(0), CPU_COUNT(&set));
  EXPECT_EQ(WorkerCount(3), 3);
}

}  // namespace
}  // namespace floe::pipeline
