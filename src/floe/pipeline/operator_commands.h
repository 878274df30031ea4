#pragma once
// Operator commands (resume, skip) handed from the admin API's worker threads to the
// materializer's single thread. The materializer owns all pipeline state and never locks it, so
// a command cannot be applied where it arrives: Submit queues it and blocks until the loop has
// applied or refused it (Drain), so the HTTP answer says what really happened.
//
// A command the loop does not take within the timeout (the run is still starting, or ending) is
// withdrawn and answered kUnavailable: it will never be applied later behind the caller's back.
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <deque>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <string>

#include <nlohmann/json.hpp>

#include "floe/core/result.h"

namespace floe::pipeline {

struct OperatorCommand {
  enum class Kind { kResume, kSkip };
  Kind kind = Kind::kResume;
  std::string topic;
  std::int32_t partition = 0;  // kSkip
  std::int64_t offset = 0;     // kSkip
};

// The outcome of a command, as the admin API answers it: the JSON body, or the Status whose code
// picks the HTTP status (kNotFound 404, kConflict 409, kInvalidArgument 400, kUnavailable 503).
using CommandResult = Result<nlohmann::json>;

class CommandQueue {
 public:
  // Any thread. Waits until the command was applied or refused, at most `timeout`.
  CommandResult Submit(OperatorCommand command, std::chrono::milliseconds timeout);
  // The materializer's thread: applies every queued command with `apply`, in arrival order.
  // Returns how many were applied.
  int Drain(const std::function<CommandResult(const OperatorCommand&)>& apply);
  // From now on, queued and new commands are refused with `why` (the run ended).
  void Close(const std::string& why);

 private:
  struct Pending {
    OperatorCommand command;
    std::optional<CommandResult> result;
    bool withdrawn = false;
  };
  std::mutex mu_;
  std::condition_variable done_;
  std::deque<std::shared_ptr<Pending>> queue_;
  std::string closed_;  // non-empty: refusing, with this reason
};

}  // namespace floe::pipeline
