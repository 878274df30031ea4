// The hand-over of operator commands from HTTP threads to the materializer's loop
// (operator_commands.h): answered once applied, withdrawn on timeout (never applied late),
// refused once the run ended.
#include "floe/pipeline/operator_commands.h"

#include <gtest/gtest.h>

#include <atomic>
#include <future>
#include <thread>

namespace floe::pipeline {
namespace {

using namespace std::chrono_literals;

TEST(CommandQueueTest, SubmitWaitsUntilTheLoopAppliedTheCommand) {
  CommandQueue queue;
  auto answer = std::async(std::launch::async, [&] {
    return queue.Submit({OperatorCommand::Kind::kSkip, "orders", 3, 42}, 10s);
  });
  std::atomic<int> applied{0};
  while (answer.wait_for(5ms) != std::future_status::ready) {
    queue.Drain([&](const OperatorCommand& c) -> CommandResult {
      ++applied;
      return nlohmann::json{{"topic", c.topic}, {"partition", c.partition}, {"offset", c.offset}};
    });
  }
  auto result = answer.get();
  ASSERT_TRUE(result.ok()) << result.status().ToString();
  EXPECT_EQ(*result, (nlohmann::json{{"topic", "orders"}, {"partition", 3}, {"offset", 42}}));
  EXPECT_EQ(applied.load(), 1);
}

TEST(CommandQueueTest, RefusalsKeepTheirStatus) {
  CommandQueue queue;
  auto answer = std::async(std::launch::async, [&] { return queue.Submit({OperatorCommand::Kind::kResume, "x"}, 10s); });
  while (answer.wait_for(5ms) != std::future_status::ready) {
    queue.Drain([](const OperatorCommand&) -> CommandResult { return Status::Conflict("topic 'x' is not suspended"); });
  }
  auto result = answer.get();
  ASSERT_FALSE(result.ok());
  EXPECT_EQ(result.status().code(), StatusCode::kConflict);
}

TEST(CommandQueueTest, ACommandNotTakenInTimeIsWithdrawnAndNeverAppliedLater) {
  CommandQueue queue;
  auto result = queue.Submit({OperatorCommand::Kind::kResume, "orders"}, 20ms);
  ASSERT_FALSE(result.ok());
  EXPECT_EQ(result.status().code(), StatusCode::kUnavailable);
  EXPECT_NE(result.status().message().find("nothing was changed"), std::string::npos);
  int applied = 0;
  queue.Drain([&](const OperatorCommand&) -> CommandResult {
    ++applied;
    return nlohmann::json::object();
  });
  EXPECT_EQ(applied, 0);
}

TEST(CommandQueueTest, AfterCloseQueuedAndNewCommandsAreRefused) {
  CommandQueue queue;
  auto waiting = std::async(std::launch::async, [&] { return queue.Submit({OperatorCommand::Kind::kResume, "a"}, 10s); });
  std::this_thread::sleep_for(20ms);  // usually queued by now; refused either way
  queue.Close("the pipeline has stopped");
  auto first = waiting.get();
  ASSERT_FALSE(first.ok());
  EXPECT_EQ(first.status().code(), StatusCode::kUnavailable);
  auto later = queue.Submit({OperatorCommand::Kind::kResume, "b"}, 10s);
  ASSERT_FALSE(later.ok());
  EXPECT_EQ(later.status().message(), "the pipeline has stopped");
}

}  // namespace
}  // namespace floe::pipeline
