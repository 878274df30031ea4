// The nesting bound for outside JSON (core/json_depth.h): brackets inside strings, escaped
// quotes and malformed text are measured correctly, and deep text is refused by name.
#include "floe/core/json_depth.h"

#include <gtest/gtest.h>

#include <string>

namespace floe {
namespace {

TEST(JsonDepth, CountsObjectsAndArraysNotStrings) {
  EXPECT_EQ(JsonNestingDepth("1"), 0);
  EXPECT_EQ(JsonNestingDepth(R"({"a": [1, {"b": []}]})"), 4);
  EXPECT_EQ(JsonNestingDepth(R"({"a": "[[[[{{{{"})"), 1);
  EXPECT_EQ(JsonNestingDepth(R"({"a": "\"[[[", "b": [[]]})"), 3);  // an escaped quote does not end the string
  EXPECT_EQ(JsonNestingDepth(R"(["\\", [[]]])"), 3);                 // nor does an escaped backslash hide one
  EXPECT_EQ(JsonNestingDepth("]]]]{"), 1);                             // malformed: measured as far as it goes
}

TEST(JsonDepth, RefusesPastTheLimitAndStopsCounting) {
  const std::string deep = std::string(kMaxJsonDepth + 1, '[') + std::string(kMaxJsonDepth + 1, ']');
  const std::string ok = std::string(kMaxJsonDepth, '[') + std::string(kMaxJsonDepth, ']');
  EXPECT_TRUE(CheckJsonDepth(ok, "x").ok());
  const Status st = CheckJsonDepth(deep, "schema registry answer");
  EXPECT_EQ(st.code(), StatusCode::kInvalidArgument);
  EXPECT_EQ(st.message(), "schema registry answer nests deeper than 1000 levels");
  EXPECT_EQ(JsonNestingDepth(std::string(1'000'000, '['), 10), 11);
}

}  // namespace
}  // namespace floe
