#pragma once
// Status is how every Floe module reports failure: no exception crosses a module boundary.
// A Status carries a code (what kind of failure, so callers and error policies can decide
// what to do) and a message written for the operator (what broke and where).
#include <string>
#include <string_view>
#include <utility>

namespace floe {

enum class StatusCode {
  kOk = 0,
  kInvalidArgument,   // the input broke a rule (bad config, corrupt record, bad schema)
  kNotFound,          // a named thing does not exist (schema id, table, file)
  kAlreadyExists,     // create of something that is there
  kConflict,          // optimistic-concurrency loss: retry against fresh state
  kUnavailable,       // a dependency is unreachable right now: retry with backoff
  kUnsupported,       // valid input that Floe does not handle (yet)
  kIoError,           // local or object storage failed
  kInternal,          // a bug in Floe
};

std::string_view StatusCodeName(StatusCode code);

class [[nodiscard]] Status {
 public:
  Status() = default;
  Status(StatusCode code, std::string message) : code_(code), message_(std::move(message)) {}

  static Status OK() { return {}; }
  static Status InvalidArgument(std::string m) { return {StatusCode::kInvalidArgument, std::move(m)}; }
  static Status NotFound(std::string m) { return {StatusCode::kNotFound, std::move(m)}; }
  static Status AlreadyExists(std::string m) { return {StatusCode::kAlreadyExists, std::move(m)}; }
  static Status Conflict(std::string m) { return {StatusCode::kConflict, std::move(m)}; }
  static Status Unavailable(std::string m) { return {StatusCode::kUnavailable, std::move(m)}; }
  static Status Unsupported(std::string m) { return {StatusCode::kUnsupported, std::move(m)}; }
  static Status IoError(std::string m) { return {StatusCode::kIoError, std::move(m)}; }
  static Status Internal(std::string m) { return {StatusCode::kInternal, std::move(m)}; }

  bool ok() const { return code_ == StatusCode::kOk; }
  StatusCode code() const { return code_; }
  const std::string& message() const { return message_; }
  // "InvalidArgument: <message>", or "OK".
  std::string ToString() const;
  // The same failure with context in front: "reading orders/3@42: <message>".
  Status WithContext(std::string_view context) const;

 private:
  StatusCode code_ = StatusCode::kOk;
  std::string message_;
};

}  // namespace floe

#define FLOE_CONCAT_INNER(a, b) a##b
#define FLOE_CONCAT(a, b) FLOE_CONCAT_INNER(a, b)

#define FLOE_RETURN_IF_ERROR(expr)                 \
  do {                                             \
    ::floe::Status floe_status_ = (expr);          \
    if (!floe_status_.ok()) return floe_status_;   \
  } while (0)
