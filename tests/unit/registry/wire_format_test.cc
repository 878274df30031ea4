#include "floe/registry/wire_format.h"

#include <gtest/gtest.h>

namespace floe::registry {
namespace {

TEST(WireFormat, SplitsIdAndPayload) {
  const std::string msg("\x00\x00\x01\x02\x03payload", 12);
  auto r = ParseWireFormat(msg);
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  EXPECT_EQ(r->schema_id, 0x010203);
  EXPECT_EQ(r->payload, "payload");
}

TEST(WireFormat, EmptyPayloadIsAllowed) {
  auto r = ParseWireFormat(std::string("\x00\x00\x00\x00\x07", 5));
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r->schema_id, 7);
  EXPECT_TRUE(r->payload.empty());
}

TEST(WireFormat, RejectsWrongMagicByte) {
  auto r = ParseWireFormat(std::string("\x01\x00\x00\x00\x07xx", 7));
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().code(), StatusCode::kInvalidArgument);
  EXPECT_NE(r.status().message().find("magic byte is 1, expected 0"), std::string::npos);
}

TEST(WireFormat, RejectsShortMessagesAtEveryLength) {
  const std::string full("\x00\x00\x00\x00\x07", 5);
  for (std::size_t n = 0; n < full.size(); ++n) {
    EXPECT_FALSE(ParseWireFormat(full.substr(0, n)).ok()) << n;
  }
}

TEST(WireFormat, RejectsIdsBeyondInt32) {
  EXPECT_FALSE(ParseWireFormat(std::string("\x00\xff\x00\x00\x01", 5)).ok());
}

}  // namespace
}  // namespace floe::registry
