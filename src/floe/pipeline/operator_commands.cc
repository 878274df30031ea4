#include "floe/pipeline/operator_commands.h"

namespace floe::pipeline {

CommandResult CommandQueue::Submit(OperatorCommand command, std::chrono::milliseconds timeout) {
  auto pending = std::make_shared<Pending>();
  pending->command = std::move(command);
  std::unique_lock lock(mu_);
  if (!closed_.empty()) return Status::Unavailable(closed_);
  queue_.push_back(pending);
  if (done_.wait_for(lock, timeout, [&] { return pending->result.has_value(); })) return std::move(*pending->result);
  // Still queued (Drain answers under the lock, so it cannot be half-applied): withdraw it.
  pending->withdrawn = true;
  return Status::Unavailable("the pipeline did not take the command within " + std::to_string(timeout.count()) +
                             " ms (still starting, or stopping); nothing was changed");
}

int CommandQueue::Drain(const std::function<CommandResult(const OperatorCommand&)>& apply) {
  int applied = 0;
  std::unique_lock lock(mu_);
  while (!queue_.empty()) {
    auto pending = queue_.front();
    queue_.pop_front();
    if (pending->withdrawn) continue;
    // Applied under the lock: Submit's timeout cannot withdraw a command while it is applied.
    // Commands are rare and quick (a commit at most), so holding it costs nothing.
    pending->result = apply(pending->command);
    ++applied;
  }
  lock.unlock();
  done_.notify_all();
  return applied;
}

void CommandQueue::Close(const std::string& why) {
  std::unique_lock lock(mu_);
  closed_ = why;
  for (auto& pending : queue_) {
    if (!pending->withdrawn) pending->result = Status::Unavailable(why);
  }
  queue_.clear();
  lock.unlock();
  done_.notify_all();
}

}  // namespace floe::pipeline
