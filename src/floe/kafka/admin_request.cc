#include "floe/kafka/admin_request.h"

#include <array>
#include <string>

namespace floe::kafka {

namespace {

struct AdminCleanup {
  void operator()(rd_kafka_queue_t* queue) const { rd_kafka_queue_destroy(queue); }
  void operator()(rd_kafka_AdminOptions_t* options) const { rd_kafka_AdminOptions_destroy(options); }
};

constexpr std::chrono::milliseconds kSlice{100};

}  // namespace

Result<AdminAnswer> RequestAdmin(rd_kafka_t* handle, rd_kafka_admin_op_t op, std::string_view what,
                                 std::chrono::milliseconds timeout,
                                 const std::function<Status(rd_kafka_AdminOptions_t*, rd_kafka_queue_t*)>& send,
                                 const std::function<bool()>& stopping) {
  std::unique_ptr<rd_kafka_AdminOptions_t, AdminCleanup> options(rd_kafka_AdminOptions_new(handle, op));
  std::array<char, 256> error{};
  if (rd_kafka_AdminOptions_set_request_timeout(options.get(), static_cast<int>(timeout.count()), error.data(),
                                                error.size()) != RD_KAFKA_RESP_ERR_NO_ERROR) {
    return Status::InvalidArgument(std::string(what) + ": " + error.data());
  }
  std::unique_ptr<rd_kafka_queue_t, AdminCleanup> queue(rd_kafka_queue_new(handle));
  FLOE_RETURN_IF_ERROR(send(options.get(), queue.get()));
  // The request's own timeout answers first; the margin only guards against a lost event.
  const auto deadline = std::chrono::steady_clock::now() + timeout + std::chrono::seconds(1);
  while (std::chrono::steady_clock::now() < deadline) {
    if (AdminAnswer answer{rd_kafka_queue_poll(queue.get(), static_cast<int>(kSlice.count()))}) {
      if (rd_kafka_event_error(answer.get()) == RD_KAFKA_RESP_ERR_NO_ERROR) return answer;
      return Status::Unavailable(std::string(what) + " failed: " + rd_kafka_event_error_string(answer.get()));
    }
    if (stopping && stopping()) return Status::Unavailable(std::string(what) + ": stopped before an answer came");
  }
  return Status::Unavailable(std::string(what) + ": no answer within " + std::to_string(timeout.count()) + " ms");
}

}  // namespace floe::kafka
