#pragma once
// Converting Arrow's status values at the edge of modules that use Arrow, so that
// arrow::Status never leaks out of them.
#include <arrow/result.h>
#include <arrow/status.h>

#include <string>

#include "floe/core/result.h"

namespace floe {

inline Status FromArrow(const arrow::Status& s) {
  if (s.ok()) return Status::OK();
  if (s.IsIOError()) return Status::IoError(s.ToString());
  if (s.IsInvalid() || s.IsTypeError()) return Status::InvalidArgument(s.ToString());
  if (s.IsKeyError()) return Status::NotFound(s.ToString());
  if (s.IsNotImplemented()) return Status::Unsupported(s.ToString());
  if (s.IsCapacityError() || s.IsOutOfMemory()) return Status::Unavailable(s.ToString());
  return Status::Internal(s.ToString());
}

template <typename T>
Result<T> FromArrow(arrow::Result<T> r) {
  if (!r.ok()) return FromArrow(r.status());
  return std::move(r).ValueUnsafe();
}

}  // namespace floe

#define FLOE_RETURN_IF_ARROW_ERROR(expr) FLOE_RETURN_IF_ERROR(::floe::FromArrow(expr))
#define FLOE_ASSIGN_OR_RETURN_ARROW(lhs, rexpr) FLOE_ASSIGN_OR_RETURN(lhs, ::floe::FromArrow(rexpr))
