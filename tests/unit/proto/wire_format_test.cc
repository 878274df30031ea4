#include "floe/proto/wire_format.h"

#include <gtest/gtest.h>

#include "wire_encoder.h"

namespace floe::proto {
namespace {

using testing::WireEncoder;

std::string ZigZag(std::int64_t v) { return WireEncoder().SInt(1, v).str().substr(1); }

TEST(ProtoWireFormatTest, SingleZeroByteIsFirstMessage) {
  const std::string payload("\0\x08\x01", 3);
  auto r = ParseMessageIndexes(payload);
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  EXPECT_EQ(r->indexes, std::vector<std::int32_t>({0}));
  EXPECT_EQ(r->message, std::string("\x08\x01"));
}

TEST(ProtoWireFormatTest, NestedIndexes) {
  const std::string payload = ZigZag(2) + ZigZag(1) + ZigZag(0) + "MSG";
  auto r = ParseMessageIndexes(payload);
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  EXPECT_EQ(r->indexes, std::vector<std::int32_t>({1, 0}));
  EXPECT_EQ(r->message, "MSG");
}

TEST(ProtoWireFormatTest, EmptyMessageAfterIndexes) {
  const std::string payload = ZigZag(1) + ZigZag(3);
  auto r = ParseMessageIndexes(payload);
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  EXPECT_EQ(r->indexes, std::vector<std::int32_t>({3}));
  EXPECT_TRUE(r->message.empty());
}

TEST(ProtoWireFormatTest, RoundTripsEncode) {
  for (const auto& indexes : std::vector<std::vector<std::int32_t>>{{0}, {1}, {0, 0}, {3, 200, 7}, {70000}}) {
    const std::string payload = EncodeMessageIndexes(indexes) + "x";
    auto r = ParseMessageIndexes(payload);
    ASSERT_TRUE(r.ok()) << r.status().ToString();
    EXPECT_EQ(r->indexes, indexes);
    EXPECT_EQ(r->message, "x");
  }
  EXPECT_EQ(EncodeMessageIndexes({0}), std::string(1, '\0'));
}

void ExpectInvalid(const std::string& payload, const std::string& rule) {
  auto r = ParseMessageIndexes(payload);
  ASSERT_FALSE(r.ok()) << "accepted";
  EXPECT_EQ(r.status().code(), StatusCode::kInvalidArgument);
  EXPECT_NE(r.status().message().find(rule), std::string::npos) << r.status().message();
}

TEST(ProtoWireFormatTest, MalformedArraysNameTheRule) {
  ExpectInvalid("", "truncated varint");
  ExpectInvalid("\x80", "truncated varint");
  ExpectInvalid(std::string(11, '\xff'), "overlong varint");
  ExpectInvalid(ZigZag(-1), "negative count -1");
  ExpectInvalid(ZigZag(101) + std::string(200, '\0'), "count 101 is more than");
  ExpectInvalid(ZigZag(5) + ZigZag(1), "count 5 but only 1 bytes follow");
  ExpectInvalid(ZigZag(2) + ZigZag(1) + "\x80", "truncated varint");
  ExpectInvalid(ZigZag(1) + ZigZag(-3), "message index -3");
  ExpectInvalid(ZigZag(1) + ZigZag(std::int64_t{1} << 40), "is not in [0, 2^31)");
  ExpectInvalid(ZigZag(1) + "\xff\xff\xff\xff\xff\xff\xff\xff\xff\x7f", "overlong varint");
}

TEST(ProtoWireFormatTest, ErrorsSayWhereAndWhat) {
  auto r = ParseMessageIndexes(ZigZag(2) + ZigZag(1) + ZigZag(-1));
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().message(), "Protobuf message-index array: message index -1 is not in [0, 2^31) (at byte 2)");
}

}  // namespace
}  // namespace floe::proto
