#include "floe/core/json_access.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <limits>
#include <string>

namespace floe::json_access {
namespace {

// Every template uses its placeholders, so that a test sees which one was filled in.
constexpr Wording kTestWording{
    .kinds = {.null = "NULL",
              .object = "OBJECT",
              .array = "ARRAY",
              .string = "STRING",
              .boolean = "BOOLEAN",
              .integer = "INTEGER",
              .number = "NUMBER",
              .binary = "BINARY",
              .discarded = "DISCARDED"},
    .member = "{where}.{key}",
    .missing = "{where}: no {key}",
    .not_container = "{where}: wants an {container}, has {kind}",
    .wrong_container = "{subject}: wants an {container}, has {kind} {value}",
    .wrong_kind = "{subject}: wants {expected}, has {kind} {value}",
    .out_of_int32 = "{subject}: {value} ({kind}) beyond int32",
    .out_of_int64 = "{subject}: {value} ({kind}) beyond int64",
};
constexpr At kIn{kTestWording, "obj"};

Json Parse(const char* text) { return Json::parse(text); }

template <typename T>
std::string ErrorOf(const Result<T>& r) {
  return r.ok() ? std::string("(ok)") : r.status().message();
}
std::string ErrorOf(const Status& st) { return st.ok() ? std::string("(ok)") : st.message(); }

TEST(JsonAccess, FindTreatsNullAndNonObjectsAsAbsent) {
  const Json j = Parse(R"({"a":1,"n":null})");
  ASSERT_NE(Find(j, "a"), nullptr);
  EXPECT_EQ(*Find(j, "a"), 1);
  EXPECT_EQ(Find(j, "n"), nullptr);
  EXPECT_EQ(Find(j, "missing"), nullptr);
  EXPECT_EQ(Find(Parse("[1]"), "a"), nullptr);
  EXPECT_EQ(Find(Parse("5"), "a"), nullptr);
}

TEST(JsonAccess, KindNamesComeFromTheWording) {
  EXPECT_EQ(KindName(Parse("null"), kIn), "NULL");
  EXPECT_EQ(KindName(Parse("{}"), kIn), "OBJECT");
  EXPECT_EQ(KindName(Parse("[]"), kIn), "ARRAY");
  EXPECT_EQ(KindName(Parse(R"("x")"), kIn), "STRING");
  EXPECT_EQ(KindName(Parse("true"), kIn), "BOOLEAN");
  EXPECT_EQ(KindName(Parse("-1"), kIn), "INTEGER");
  EXPECT_EQ(KindName(Parse("1"), kIn), "INTEGER");  // unsigned in nlohmann
  EXPECT_EQ(KindName(Parse("1.5"), kIn), "NUMBER");
  EXPECT_EQ(KindName(Json::binary({1, 2}), kIn), "BINARY");
  EXPECT_EQ(KindName(Json(Json::value_t::discarded), kIn), "DISCARDED");
}

TEST(JsonAccess, DumpCompactReplacesInvalidUtf8) {
  EXPECT_EQ(DumpCompact(Parse(R"({"a":[1,2]})")), R"({"a":[1,2]})");
  EXPECT_EQ(DumpCompact(Json(std::string("a\xff"))), "\"a\xEF\xBF\xBD\"");
}

TEST(JsonAccess, MemberAndMissingUseTheWording) {
  EXPECT_EQ(Member(kIn, "k"), "obj.k");
  EXPECT_EQ(ErrorOf(Missing("k", kIn)), "obj: no k");
  EXPECT_EQ(Missing("k", kIn).code(), StatusCode::kInvalidArgument);
}

TEST(JsonAccess, UnknownPlaceholdersAndLoneBracesAreKept) {
  static constexpr Wording kOdd = [] {
    Wording w = kTestWording;
    w.member = "{where}{nope}{key";
    w.missing = "} {key} {";
    return w;
  }();
  const At in{kOdd, "w"};
  EXPECT_EQ(Member(in, "k"), "w{nope}{key");
  EXPECT_EQ(ErrorOf(Missing("k", in)), "} k {");
}

TEST(JsonAccess, ExpectObjectAndArrayNameTheValueByWhere) {
  EXPECT_TRUE(ExpectObject(Parse("{}"), kIn).ok());
  EXPECT_TRUE(ExpectArray(Parse("[]"), kIn).ok());
  EXPECT_EQ(ErrorOf(ExpectObject(Parse("[1]"), kIn)), "obj: wants an object, has ARRAY");
  EXPECT_EQ(ErrorOf(ExpectArray(Parse("{}"), kIn)), "obj: wants an array, has OBJECT");
}

TEST(JsonAccess, RequireChecksTheContainerAndThePresence) {
  const Json j = Parse(R"({"a":1,"n":null})");
  ASSERT_TRUE(Require(j, "a", kIn).ok());
  EXPECT_EQ(**Require(j, "a", kIn), 1);
  EXPECT_EQ(ErrorOf(Require(j, "n", kIn)), "obj: no n");
  EXPECT_EQ(ErrorOf(Require(j, "b", kIn)), "obj: no b");
  EXPECT_EQ(ErrorOf(Require(Parse(R"("s")"), "a", kIn)), "obj: wants an object, has STRING");
}

TEST(JsonAccess, IntReadsAcceptOnlyIntegersInRange) {
  const Json j = Parse(R"({"max":2147483647,"min":-2147483648,"big":2147483648,"low":-2147483649,
    "huge":9223372036854775808,"s":"1","f":1.0})");
  EXPECT_EQ(*RequireInt(j, "max", kIn), std::numeric_limits<int>::max());
  EXPECT_EQ(*RequireInt(j, "min", kIn), std::numeric_limits<int>::min());
  EXPECT_EQ(ErrorOf(RequireInt(j, "big", kIn)), "obj.big: 2147483648 (INTEGER) beyond int32");
  EXPECT_EQ(ErrorOf(RequireInt(j, "low", kIn)), "obj.low: -2147483649 (INTEGER) beyond int32");
  EXPECT_EQ(ErrorOf(RequireInt(j, "huge", kIn)), "obj.huge: 9223372036854775808 (INTEGER) beyond int32");
  EXPECT_EQ(ErrorOf(RequireInt(j, "s", kIn)), "obj.s: wants an integer, has STRING \"1\"");
  EXPECT_EQ(ErrorOf(RequireInt(j, "f", kIn)), "obj.f: wants an integer, has NUMBER 1.0");
  EXPECT_EQ(ErrorOf(RequireInt(j, "none", kIn)), "obj: no none");
}

TEST(JsonAccess, Int64ReadsCoverTheSignedRange) {
  const Json j = Parse(R"({"max":9223372036854775807,"min":-9223372036854775808,"huge":9223372036854775808})");
  EXPECT_EQ(*RequireInt64(j, "max", kIn), std::numeric_limits<std::int64_t>::max());
  EXPECT_EQ(*RequireInt64(j, "min", kIn), std::numeric_limits<std::int64_t>::min());
  EXPECT_EQ(ErrorOf(RequireInt64(j, "huge", kIn)), "obj.huge: 9223372036854775808 (INTEGER) beyond int64");
  EXPECT_EQ(ErrorOf(AsInt64(Parse("true"), "the flag", kIn)), "the flag: wants an integer, has BOOLEAN true");
  EXPECT_EQ(*AsInt(Parse("-7"), "x", kIn), -7);
}

TEST(JsonAccess, BoolAndStringReads) {
  const Json j = Parse(R"({"b":false,"s":"text","n":3})");
  EXPECT_EQ(*RequireBool(j, "b", kIn), false);
  EXPECT_EQ(ErrorOf(RequireBool(j, "s", kIn)), "obj.s: wants a boolean, has STRING \"text\"");
  EXPECT_EQ(*RequireString(j, "s", kIn), "text");
  EXPECT_EQ(ErrorOf(RequireString(j, "n", kIn)), "obj.n: wants a string, has INTEGER 3");
  EXPECT_EQ(ErrorOf(RequireString(j, "none", kIn)), "obj: no none");
}

TEST(JsonAccess, OptionalReadsAreEmptyWhenAbsentOrNullAndCheckedWhenPresent) {
  const Json j = Parse(R"({"i":5,"l":5000000000,"s":"x","n":null,"wrong":[]})");
  EXPECT_EQ(*OptionalInt(j, "i", kIn), 5);
  EXPECT_EQ(*OptionalInt(j, "n", kIn), std::nullopt);
  EXPECT_EQ(*OptionalInt(j, "none", kIn), std::nullopt);
  EXPECT_EQ(ErrorOf(OptionalInt(j, "l", kIn)), "obj.l: 5000000000 (INTEGER) beyond int32");
  EXPECT_EQ(*OptionalInt64(j, "l", kIn), 5000000000);
  EXPECT_EQ(*OptionalInt64(j, "n", kIn), std::nullopt);
  EXPECT_EQ(ErrorOf(OptionalInt64(j, "wrong", kIn)), "obj.wrong: wants an integer, has ARRAY []");
  EXPECT_EQ(*OptionalString(j, "s", kIn), "x");
  EXPECT_EQ(*OptionalString(j, "none", kIn), std::nullopt);
  EXPECT_EQ(ErrorOf(OptionalString(j, "i", kIn)), "obj.i: wants a string, has INTEGER 5");
  // Not an object: nothing is there to read.
  EXPECT_EQ(*OptionalInt(Parse("[1]"), "i", kIn), std::nullopt);
}

TEST(JsonAccess, ArrayAndObjectMembers) {
  const Json j = Parse(R"({"a":[1],"o":{"k":1},"s":"x","n":null})");
  ASSERT_TRUE(RequireArray(j, "a", kIn).ok());
  EXPECT_EQ((*RequireArray(j, "a", kIn))->size(), 1u);
  EXPECT_EQ(ErrorOf(RequireArray(j, "o", kIn)), R"(obj.o: wants an array, has OBJECT {"k":1})");
  EXPECT_EQ(ErrorOf(RequireArray(j, "n", kIn)), "obj: no n");
  EXPECT_EQ(*OptionalArray(j, "none", kIn), nullptr);
  EXPECT_EQ(*OptionalArray(j, "n", kIn), nullptr);
  EXPECT_EQ(ErrorOf(OptionalArray(j, "s", kIn)), R"(obj.s: wants an array, has STRING "x")");
  EXPECT_NE(*OptionalObject(j, "o", kIn), nullptr);
  EXPECT_EQ(*OptionalObject(j, "none", kIn), nullptr);
  EXPECT_EQ(ErrorOf(OptionalObject(j, "a", kIn)), "obj.a: wants an object, has ARRAY [1]");
}

TEST(JsonAccess, ListsCheckEveryElement) {
  const Json j = Parse(R"({"s":["a","b"],"i":[1,-2],"l":[5000000000],"bad":["a",1],"obj":{}})");
  EXPECT_EQ(*RequireStringList(j, "s", kIn), (std::vector<std::string>{"a", "b"}));
  EXPECT_EQ(*RequireIntList(j, "i", kIn), (std::vector<int>{1, -2}));
  EXPECT_EQ(*RequireInt64List(j, "l", kIn), (std::vector<std::int64_t>{5000000000}));
  EXPECT_EQ(ErrorOf(RequireIntList(j, "l", kIn)), "obj.l[0]: 5000000000 (INTEGER) beyond int32");
  EXPECT_EQ(ErrorOf(RequireStringList(j, "bad", kIn)), "obj.bad[1]: wants a string, has INTEGER 1");
  EXPECT_EQ(ErrorOf(RequireInt64List(j, "bad", kIn)), "obj.bad[0]: wants an integer, has STRING \"a\"");
  EXPECT_EQ(ErrorOf(RequireStringList(j, "obj", kIn)), "obj.obj: wants an array of strings, has OBJECT {}");
  EXPECT_EQ(ErrorOf(RequireIntList(j, "obj", kIn)), "obj.obj: wants an array of integers, has OBJECT {}");
  EXPECT_EQ(ErrorOf(RequireStringList(j, "none", kIn)), "obj: no none");
  EXPECT_TRUE(RequireIntList(Parse(R"({"e":[]})"), "e", kIn)->empty());
}

TEST(JsonAccess, StringMapsKeepScalarsAsTheirJsonText) {
  const Json j = Parse(R"({"m":{"s":"x","i":3,"f":1.5,"b":true},"bad":{"k":[1]},"arr":[1]})");
  auto m = OptionalStringMap(j, "m", kIn);
  ASSERT_TRUE(m.ok()) << m.status().ToString();
  EXPECT_EQ(m->at("s"), "x");
  EXPECT_EQ(m->at("i"), "3");
  EXPECT_EQ(m->at("f"), "1.5");
  EXPECT_EQ(m->at("b"), "true");
  EXPECT_TRUE(OptionalStringMap(j, "none", kIn)->empty());
  EXPECT_EQ(ErrorOf(OptionalStringMap(j, "bad", kIn)), "obj.bad.k: wants a string, has ARRAY [1]");
  EXPECT_EQ(ErrorOf(OptionalStringMap(j, "arr", kIn)), "obj.arr: wants an object of strings, has ARRAY [1]");
}

}  // namespace
}  // namespace floe::json_access
