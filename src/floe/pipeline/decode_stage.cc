#include "floe/pipeline/decode_stage.h"

#include <algorithm>
#include <unordered_map>

#include "floe/pipeline/topic_state.h"

namespace floe::pipeline {

DecodeStage::DecodeStage(int threads) : pool_(threads, "floe-decode") {}

void DecodeStage::Submit(std::vector<Item> batch) {
  tasks_.clear();
  // Records come in runs of one partition (a fetch's worth), so the last task is checked first.
  std::unordered_map<PartitionState*, std::size_t> task_of;
  for (auto& item : batch) {
    std::size_t index;
    if (!tasks_.empty() && tasks_.back().items.back().partition == item.partition) {
      index = tasks_.size() - 1;
    } else {
      auto [it, added] = task_of.try_emplace(item.partition, tasks_.size());
      if (added) tasks_.emplace_back();
      index = it->second;
    }
    tasks_[index].items.push_back(std::move(item));
  }
  if (tasks_.empty()) return;
  // Longest first: the threads finish closer together.
  std::sort(tasks_.begin(), tasks_.end(), [](const Task& a, const Task& b) { return a.items.size() > b.items.size(); });
  {
    std::lock_guard lock(mu_);
    remaining_ = tasks_.size();
  }
  in_flight_ = true;
  for (auto& task : tasks_) {
    pool_.Submit([this, &task] {
      Run(task);
      std::lock_guard lock(mu_);
      if (--remaining_ == 0) done_.notify_all();
    });
  }
}

void DecodeStage::Run(Task& task) {
  for (auto& item : task.items) {
    auto appended = item.partition->buffer->Append(item.record, *item.schema, item.payload, item.key_payload);
    if (!appended.ok()) {
      task.why = std::move(appended);
      return;
    }
    ++task.appended;
  }
  // The records (librdkafka's messages) are freed here, not on the poll thread.
  task.items.clear();
}

std::vector<DecodeStage::Refused> DecodeStage::Join() {
  std::vector<Refused> refused;
  if (!in_flight_) return refused;
  {
    std::unique_lock lock(mu_);
    done_.wait(lock, [this] { return remaining_ == 0; });
  }
  in_flight_ = false;
  for (auto& task : tasks_) {
    if (task.why.ok()) continue;
    Refused r{std::move(task.why), {}};
    r.items.reserve(task.items.size() - task.appended);
    for (std::size_t i = task.appended; i < task.items.size(); ++i) r.items.push_back(std::move(task.items[i]));
    refused.push_back(std::move(r));
  }
  tasks_.clear();
  return refused;
}

}  // namespace floe::pipeline
