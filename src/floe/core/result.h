#pragma once
// Result<T> is a value or the Status saying why there is none.
#include <cassert>
#include <utility>
#include <variant>

#include "floe/core/status.h"

namespace floe {

template <typename T>
class [[nodiscard]] Result {
 public:
  Result(T value) : v_(std::move(value)) {}  // NOLINT: implicit by design, like arrow::Result
  Result(Status status) : v_(std::move(status)) {  // NOLINT
    assert(!std::get<Status>(v_).ok() && "a Result cannot hold an OK status");
  }

  bool ok() const { return std::holds_alternative<T>(v_); }
  Status status() const { return ok() ? Status::OK() : std::get<Status>(v_); }

  const T& value() const& { assert(ok()); return std::get<T>(v_); }
  T& value() & { assert(ok()); return std::get<T>(v_); }
  T&& value() && { assert(ok()); return std::get<T>(std::move(v_)); }
  const T& operator*() const& { return value(); }
  T& operator*() & { return value(); }
  T&& operator*() && { return std::move(*this).value(); }
  const T* operator->() const { return &value(); }
  T* operator->() { return &value(); }

 private:
  std::variant<T, Status> v_;
};

}  // namespace floe

#define FLOE_ASSIGN_OR_RETURN_IMPL(tmp, lhs, rexpr) \
  auto tmp = (rexpr);                               \
  if (!tmp.ok()) return tmp.status();               \
  lhs = std::move(tmp).value()

// FLOE_ASSIGN_OR_RETURN(auto x, Compute()); returns the error Status from the caller.
#define FLOE_ASSIGN_OR_RETURN(lhs, rexpr) \
  FLOE_ASSIGN_OR_RETURN_IMPL(FLOE_CONCAT(floe_result_, __LINE__), lhs, rexpr)
