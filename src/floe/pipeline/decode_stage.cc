#include "floe/pipeline/decode_stage.h"

#include <algorithm>
#include <unordered_map>

#include "floe/pipeline/topic_state.h"

namespace floe::pipeline {

DecodeStage::DecodeStage(int threads) : pool_(threads, "floe-decode") {}

void DecodeStage::Submit(std::vector<Item>& batch) {
  batch_.clear();  // the last batch's items, their records already freed by Run
  batch_.swap(batch);
  tasks_.clear();
  // Group the items by partition: count each partition's items (records come in runs of one
  // partition, a fetch's worth, so the last task is checked first), then place their indexes.
  task_of_item_.resize(batch_.size());
  std::unordered_map<PartitionState*, std::size_t> task_of;
  PartitionState* last_partition = nullptr;
  std::size_t last_task = 0;
  for (std::size_t i = 0; i < batch_.size(); ++i) {
    PartitionState* partition = batch_[i].partition;
    if (tasks_.empty() || partition != last_partition) {
      auto [it, added] = task_of.try_emplace(partition, tasks_.size());
      if (added) tasks_.emplace_back();
      last_partition = partition;
      last_task = it->second;
    }
    ++tasks_[last_task].end;  // a count for now
    task_of_item_[i] = static_cast<std::uint32_t>(last_task);
  }
  if (tasks_.empty()) return;
  std::size_t begin = 0;
  for (auto& task : tasks_) {
    const std::size_t count = task.end;
    task.begin = task.end = begin;
    begin += count;
  }
  order_.resize(batch_.size());
  for (std::size_t i = 0; i < batch_.size(); ++i) order_[tasks_[task_of_item_[i]].end++] = static_cast<std::uint32_t>(i);
  // Longest first: the threads finish closer together.
  std::sort(tasks_.begin(), tasks_.end(),
            [](const Task& a, const Task& b) { return a.end - a.begin > b.end - b.begin; });
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
  for (std::size_t i = task.begin; i < task.end; ++i) {
    Item& item = batch_[order_[i]];
    auto appended = item.partition->buffer->Append(item.record, *item.schema, item.payload, item.key_payload);
    if (!appended.ok()) {
      task.why = std::move(appended);
      return;
    }
    ++task.appended;
    // The record (librdkafka's message) is freed here, not on the poll thread.
    item.record.Release();
  }
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
    r.items.reserve(task.end - task.begin - task.appended);
    for (std::size_t i = task.begin + task.appended; i < task.end; ++i) r.items.push_back(std::move(batch_[order_[i]]));
    refused.push_back(std::move(r));
  }
  tasks_.clear();
  return refused;
}

}  // namespace floe::pipeline
