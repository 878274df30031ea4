#include "floe/proto/schema.h"

#include <google/protobuf/descriptor.h>
#include <google/protobuf/descriptor.pb.h>
#include <gtest/gtest.h>

#include <map>

namespace floe::proto {
namespace {

std::string Base64(const std::string& bytes) {
  static constexpr char kAlphabet[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
  std::string out;
  std::size_t i = 0;
  for (; i + 2 < bytes.size(); i += 3) {
    const std::uint32_t n = (std::uint8_t(bytes[i]) << 16) | (std::uint8_t(bytes[i + 1]) << 8) | std::uint8_t(bytes[i + 2]);
    for (int s = 18; s >= 0; s -= 6) out.push_back(kAlphabet[(n >> s) & 63]);
  }
  if (i + 1 == bytes.size()) {
    const std::uint32_t n = std::uint8_t(bytes[i]) << 16;
    out += std::string{kAlphabet[(n >> 18) & 63], kAlphabet[(n >> 12) & 63], '=', '='};
  } else if (i + 2 == bytes.size()) {
    const std::uint32_t n = (std::uint8_t(bytes[i]) << 16) | (std::uint8_t(bytes[i + 1]) << 8);
    out += std::string{kAlphabet[(n >> 18) & 63], kAlphabet[(n >> 12) & 63], kAlphabet[(n >> 6) & 63], '='};
  }
  return out;
}

constexpr const char* kOrders = R"(syntax = "proto3";
package acme;

message Order {
  int64 id = 1;
  message Line { string sku = 1; }
  repeated Line lines = 2;
  map<string, int32> tags = 3;
  message Audit { message Entry { string who = 1; } }
}

message Payment { string id = 1; }
)";

std::shared_ptr<const ProtoSchema> MustParse(const std::string& text, const ImportResolver& imports = {}) {
  auto r = ProtoSchema::Parse(text, imports);
  EXPECT_TRUE(r.ok()) << r.status().ToString();
  return r.ok() ? *r : nullptr;
}

std::string NameFor(const ProtoSchema& s, std::vector<std::int32_t> indexes, std::string_view configured = {}) {
  auto r = s.MessageFor(indexes, configured);
  return r.ok() ? (*r)->full_name() : "error: " + r.status().message();
}

TEST(ProtoSchemaTest, MessageIndexesWalkTopLevelThenNestedTypes) {
  auto s = MustParse(kOrders);
  ASSERT_TRUE(s);
  EXPECT_EQ(s->file()->name(), "schema.proto");
  EXPECT_EQ(NameFor(*s, {0}), "acme.Order");
  EXPECT_EQ(NameFor(*s, {1}), "acme.Payment");
  EXPECT_EQ(NameFor(*s, {0, 0}), "acme.Order.Line");
  // The map's entry type is a nested type too, in declaration order (as Confluent counts).
  EXPECT_EQ(NameFor(*s, {0, 1}), "acme.Order.TagsEntry");
  EXPECT_EQ(NameFor(*s, {0, 2, 0}), "acme.Order.Audit.Entry");
  EXPECT_EQ(NameFor(*s, {2}), "error: message indexes [2] name no message: schema.proto has 2 top-level messages");
  EXPECT_EQ(NameFor(*s, {0, 2, 1}),
            "error: message indexes [0, 2, 1] name no message: acme.Order.Audit has 1 nested messages");
  EXPECT_EQ(NameFor(*s, {}), "error: an empty message-index array names no message");
}

TEST(ProtoSchemaTest, ConfiguredMessageAppliesOnlyToTheDefaultIndex) {
  auto s = MustParse(kOrders);
  ASSERT_TRUE(s);
  EXPECT_EQ(NameFor(*s, {0}, "acme.Payment"), "acme.Payment");
  EXPECT_EQ(NameFor(*s, {0, 0}, "acme.Payment"), "acme.Order.Line");  // the producer chose: it wins
  EXPECT_EQ(NameFor(*s, {0}, "acme.Nope"), "error: no message 'acme.Nope' in schema.proto or the files it imports");
}

TEST(ProtoSchemaTest, SyntaxErrorsCarryLineAndColumn) {
  auto r = ProtoSchema::Parse("syntax = \"proto3\";\nmessage A {\n  int32 x = 1\n}\n");
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().code(), StatusCode::kInvalidArgument);
  EXPECT_EQ(r.status().message(), "the Protobuf schema does not parse: schema.proto:4:1: Expected \";\".");
}

TEST(ProtoSchemaTest, BuildErrorsCarryLineAndColumn) {
  auto r = ProtoSchema::Parse("syntax = \"proto3\";\nmessage A {\n  Missing x = 1;\n}\n");
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().code(), StatusCode::kInvalidArgument);
  EXPECT_EQ(r.status().message(),
            "the Protobuf schema is not valid: schema.proto:3:3: 'A.x': \"Missing\" is not defined.");
}

TEST(ProtoSchemaTest, AcceptsBase64FileDescriptorProto) {
  auto text = MustParse(kOrders);
  ASSERT_TRUE(text);
  google::protobuf::FileDescriptorProto proto;
  text->file()->CopyTo(&proto);
  proto.set_name("orders.proto");
  auto s = MustParse(Base64(proto.SerializeAsString()));
  ASSERT_TRUE(s);
  EXPECT_EQ(s->file()->name(), "orders.proto");  // a descriptor keeps the name it carries
  EXPECT_EQ(NameFor(*s, {0, 0}), "acme.Order.Line");
  EXPECT_EQ(s->file()->message_type(0)->DebugString(), text->file()->message_type(0)->DebugString());
}

TEST(ProtoSchemaTest, ImportsResolveThroughTheCallbackOnce) {
  std::map<std::string, std::string> registry = {
      {"common/money.proto", "syntax = \"proto3\"; package common; import \"common/currency.proto\";\n"
                             "message Money { int64 units = 1; Currency currency = 2; }"},
      {"common/currency.proto", "syntax = \"proto3\"; package common; enum Currency { EUR = 0; USD = 1; }"},
  };
  std::map<std::string, int> calls;
  ImportResolver resolve = [&](const std::string& name) -> Result<std::string> {
    ++calls[name];
    auto it = registry.find(name);
    if (it == registry.end()) return Status::NotFound("no reference named " + name);
    return it->second;
  };
  auto s = MustParse(
      "syntax = \"proto3\"; import \"common/money.proto\"; import \"common/currency.proto\";\n"
      "message Invoice { common.Money total = 1; common.Currency c = 2; }",
      resolve);
  ASSERT_TRUE(s);
  EXPECT_EQ(NameFor(*s, {0}), "Invoice");
  EXPECT_EQ(calls, (std::map<std::string, int>{{"common/currency.proto", 1}, {"common/money.proto", 1}}));

  // An import given as a base64 descriptor works the same.
  google::protobuf::FileDescriptorProto money;
  s->file()->dependency(0)->CopyTo(&money);
  registry["common/money.proto"] = Base64(money.SerializeAsString());
  calls.clear();
  EXPECT_TRUE(MustParse("syntax = \"proto3\"; import \"common/money.proto\"; message I { common.Money m = 1; }", resolve));
}

TEST(ProtoSchemaTest, ImportFailuresKeepTheResolversCode) {
  ImportResolver unavailable = [](const std::string&) -> Result<std::string> {
    return Status::Unavailable("registry down");
  };
  auto r = ProtoSchema::Parse("syntax = \"proto3\"; import \"x.proto\"; message A { int32 a = 1; }", unavailable);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().code(), StatusCode::kUnavailable);  // retry later, not a bad schema
  EXPECT_EQ(r.status().message(), "resolving import \"x.proto\" of schema.proto: registry down");

  r = ProtoSchema::Parse("syntax = \"proto3\"; import \"x.proto\"; message A { int32 a = 1; }");
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().code(), StatusCode::kInvalidArgument);
  EXPECT_EQ(r.status().message(),
            "import \"x.proto\" of schema.proto is not a built-in file and the schema has no references to resolve it");

  ImportResolver broken = [](const std::string&) -> Result<std::string> { return std::string("message {"); };
  r = ProtoSchema::Parse("syntax = \"proto3\"; import \"x.proto\"; message A { int32 a = 1; }", broken);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().code(), StatusCode::kInvalidArgument);
  EXPECT_NE(r.status().message().find("import \"x.proto\" of schema.proto: the Protobuf schema does not parse: x.proto:1:9:"),
            std::string::npos)
      << r.status().message();
}

TEST(ProtoSchemaTest, ImportCyclesAreRefused) {
  ImportResolver resolve = [](const std::string& name) -> Result<std::string> {
    if (name == "a.proto") return std::string("syntax = \"proto3\"; import \"b.proto\"; message A { int32 x = 1; }");
    return std::string("syntax = \"proto3\"; import \"a.proto\"; message B { int32 y = 1; }");
  };
  auto r = ProtoSchema::Parse("syntax = \"proto3\"; import \"a.proto\"; message R { A a = 1; }", resolve);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().code(), StatusCode::kInvalidArgument);
  EXPECT_NE(r.status().message().find("Protobuf imports form a cycle: a.proto -> b.proto -> a.proto"), std::string::npos)
      << r.status().message();
}

TEST(ProtoSchemaTest, BuiltInFilesNeedNoReferences) {
  auto s = MustParse(R"(syntax = "proto3";
import "google/protobuf/timestamp.proto";
import "google/protobuf/duration.proto";
import "google/protobuf/wrappers.proto";
import "google/protobuf/any.proto";
import "google/protobuf/descriptor.proto";
import "confluent/meta.proto";
import "confluent/type/decimal.proto";
import "google/type/date.proto";
message Everything {
  google.protobuf.Timestamp at = 1;
  google.protobuf.Duration took = 2;
  google.protobuf.StringValue note = 3;
  google.protobuf.Any extra = 4;
  confluent.type.Decimal amount = 5 [(confluent.field_meta) = { params: [ { key: "precision", value: "10" }, { key: "scale", value: "2" } ] }];
  google.type.Date day = 6;
}
)");
  ASSERT_TRUE(s);
  EXPECT_EQ(NameFor(*s, {0}), "Everything");
  ASSERT_TRUE(s->FindMessage("confluent.Meta").ok());
  ASSERT_TRUE(s->FindMessage("google.protobuf.Timestamp").ok());
}

}  // namespace
}  // namespace floe::proto
