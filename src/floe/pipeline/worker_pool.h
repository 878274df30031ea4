#pragma once
// The materializer's worker threads (`workers:` in the config, docs/configuration.md): a fixed
// number of threads that run tasks in the order they were submitted. The poll thread hands
// them what would otherwise stop it from reading Kafka — writing a topic's Parquet files and
// committing them (materializer_commits.cc) — and collects the outcome later on its own
// thread, so no pipeline state is shared with a task beyond what the task was given.
#include <condition_variable>
#include <deque>
#include <functional>
#include <mutex>
#include <thread>
#include <vector>

namespace floe::pipeline {

class WorkerPool {
 public:
  // `name` (at most 15 characters) names the threads, for top -H, perf and debuggers.
  explicit WorkerPool(int threads, const char* name = "floe-worker");
  // Runs every task already submitted, then joins the threads.
  ~WorkerPool();
  WorkerPool(const WorkerPool&) = delete;
  WorkerPool& operator=(const WorkerPool&) = delete;

  void Submit(std::function<void()> task);
  int size() const { return static_cast<int>(threads_.size()); }

 private:
  void Work();

  std::mutex mu_;
  std::condition_variable ready_;
  std::deque<std::function<void()>> tasks_;
  bool stopping_ = false;
  std::vector<std::thread> threads_;
};

// `workers:` resolved: the configured number, else the cores this process may use.
int WorkerCount(int configured);

}  // namespace floe::pipeline
