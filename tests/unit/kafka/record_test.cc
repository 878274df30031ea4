// Record (record.h) over owned bytes: headers and topic are views that stay valid while the
// record holds its data, including after a move; a reused header vector is refilled, not appended to.
#include "floe/kafka/record.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace floe::kafka {
namespace {

RecordData WithHeaders() {
  RecordData data;
  data.topic = "prod.payments.card-authorizations.v1";  // past std::string's inline capacity
  data.partition = 3;
  data.offset = 42;
  data.value = "v";
  data.headers = {{"traceparent", "00-4bf9"}, {"x-request-source-service", std::nullopt}};
  return data;
}

TEST(RecordTest, HeadersAreViewsOfTheRecordsOwnBytesWithNullValuesKept) {
  const Record record(WithHeaders());
  const auto headers = record.headers();
  ASSERT_EQ(headers.size(), 2u);
  EXPECT_EQ(headers[0].key, "traceparent");
  ASSERT_TRUE(headers[0].value.has_value());
  EXPECT_EQ(*headers[0].value, "00-4bf9");
  EXPECT_EQ(headers[1].key, "x-request-source-service");
  EXPECT_FALSE(headers[1].value.has_value());
  EXPECT_EQ(record.topic(), "prod.payments.card-authorizations.v1");
  EXPECT_EQ(record.Position(), "prod.payments.card-authorizations.v1/3@42");
}

TEST(RecordTest, HeadersIntoAReusedVectorReplaceWhatItHeld) {
  const Record with(WithHeaders());
  RecordData plain;
  plain.topic = "t";
  const Record without(std::move(plain));
  std::vector<Header> scratch;
  with.Headers(scratch);
  EXPECT_EQ(scratch.size(), 2u);
  without.Headers(scratch);
  EXPECT_TRUE(scratch.empty());
  with.Headers(scratch);
  ASSERT_EQ(scratch.size(), 2u);
  EXPECT_EQ(scratch[1].key, "x-request-source-service");
}

TEST(RecordTest, MovingARecordKeepsItsTopicAndHeadersValid) {
  Record moved(WithHeaders());
  const Record record(std::move(moved));
  EXPECT_EQ(record.topic(), "prod.payments.card-authorizations.v1");
  EXPECT_EQ(record.headers().at(0).key, "traceparent");
}

}  // namespace
}  // namespace floe::kafka
