// How a store's answer to a conditional create becomes a Status: what the Delta commit loop,
// the start-up probe and the retry metrics act on.
#include <gtest/gtest.h>

#include "floe/storage/object_put.h"

namespace floe::storage {
namespace {

Status Answer(long code, const std::string& store_code, bool conflict = false) {
  return ObjectPutStatus("s3", code, store_code, "message", "conditional PUT s3://b/k", "a hint", conflict);
}

TEST(ObjectPutStatus, PreconditionFailedIsAConflict) {
  const Status st = Answer(412, "PreconditionFailed", /*conflict=*/true);
  EXPECT_EQ(st.code(), StatusCode::kConflict);
  EXPECT_NE(st.message().find("HTTP 412 PreconditionFailed"), std::string::npos) << st.message();
}

TEST(ObjectPutStatus, NotImplementedMeansNoConditionalWritesNotARetry) {
  // S3Proxy answers If-None-Match with 501 NotImplemented: the probe must report "no conditional
  // create" (and refuse Delta), not fail the start as if the store were down.
  const Status st = Answer(501, "NotImplemented");
  EXPECT_EQ(st.code(), StatusCode::kUnsupported);
  EXPECT_NE(st.message().find("does not implement conditional writes"), std::string::npos) << st.message();
}

TEST(ObjectPutStatus, ServerErrorsAndThrottlingAreRetried) {
  EXPECT_EQ(Answer(503, "SlowDown").code(), StatusCode::kUnavailable);
  EXPECT_EQ(Answer(500, "InternalError").code(), StatusCode::kUnavailable);
  EXPECT_EQ(Answer(429, "").code(), StatusCode::kUnavailable);
}

TEST(ObjectPutStatus, ClientErrorsCarryTheHint) {
  const Status st = Answer(403, "AccessDenied");
  EXPECT_EQ(st.code(), StatusCode::kIoError);
  EXPECT_NE(st.message().find("(a hint)"), std::string::npos) << st.message();
}

}  // namespace
}  // namespace floe::storage
