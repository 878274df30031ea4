#pragma once
// Shared helpers for the schema module's tests.
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <string>

#include "floe/core/result.h"
#include "floe/schema/json.h"

namespace floe::schema::testing {

inline nlohmann::json J(const std::string& text) { return nlohmann::json::parse(text); }

// The schema in `text`, failing the test when it does not parse.
inline Schema MustParseSchema(const std::string& text) {
  Result<Schema> s = SchemaFromJson(J(text));
  EXPECT_TRUE(s.ok()) << s.status().ToString() << "\n" << text;
  return s.ok() ? *s : Schema{};
}

// The error message of a parse that must fail.
template <typename T>
std::string ErrorOf(const Result<T>& r) {
  EXPECT_FALSE(r.ok()) << "expected an error";
  return r.ok() ? std::string() : r.status().message();
}

#define EXPECT_CONTAINS(haystack, needle)                                              \
  do {                                                                                 \
    const std::string haystack_ = (haystack);                                          \
    EXPECT_NE(haystack_.find(needle), std::string::npos)                               \
        << "expected to find \"" << (needle) << "\" in \"" << haystack_ << "\"";      \
  } while (0)

// A schema with every type the spec has, nested types at every position, docs and ids
// out of order: the input of the round-trip tests.
inline constexpr const char* kEveryTypeSchema = R"json({
  "type": "struct", "schema-id": 7, "identifier-field-ids": [1, 30],
  "fields": [
    {"id": 1, "name": "id", "required": true, "type": "long", "doc": "primary key"},
    {"id": 2, "name": "flag", "required": false, "type": "boolean"},
    {"id": 3, "name": "i", "required": false, "type": "int"},
    {"id": 4, "name": "f", "required": false, "type": "float"},
    {"id": 5, "name": "d", "required": false, "type": "double"},
    {"id": 6, "name": "price", "required": false, "type": "decimal(9,2)"},
    {"id": 7, "name": "big", "required": false, "type": "decimal(38,10)"},
    {"id": 8, "name": "day", "required": false, "type": "date"},
    {"id": 9, "name": "t", "required": false, "type": "time"},
    {"id": 10, "name": "ts", "required": false, "type": "timestamp"},
    {"id": 11, "name": "tstz", "required": false, "type": "timestamptz"},
    {"id": 12, "name": "ts_ns", "required": false, "type": "timestamp_ns"},
    {"id": 13, "name": "tstz_ns", "required": false, "type": "timestamptz_ns"},
    {"id": 14, "name": "s", "required": false, "type": "string"},
    {"id": 15, "name": "u", "required": false, "type": "uuid"},
    {"id": 16, "name": "fx", "required": false, "type": "fixed[16]"},
    {"id": 17, "name": "b", "required": false, "type": "binary"},
    {"id": 18, "name": "point", "required": true, "type": {"type": "struct", "fields": [
      {"id": 30, "name": "x", "required": true, "type": "long", "doc": "east"},
      {"id": 31, "name": "y", "required": false, "type": "double"}]}},
    {"id": 19, "name": "tags", "required": false,
     "type": {"type": "list", "element-id": 32, "element-required": true, "element": "string"}},
    {"id": 20, "name": "props", "required": true,
     "type": {"type": "map", "key-id": 33, "key": "string", "value-id": 34, "value-required": false,
              "value": {"type": "list", "element-id": 35, "element-required": false, "element": "int"}}},
    {"id": 21, "name": "points", "required": false,
     "type": {"type": "list", "element-id": 36, "element-required": false,
              "element": {"type": "struct", "fields": [
                {"id": 37, "name": "x", "required": true, "type": "long"},
                {"id": 38, "name": "m", "required": false,
                 "type": {"type": "map", "key-id": 39, "value-id": 40, "value-required": true,
                          "key": {"type": "struct", "fields": [{"id": 41, "name": "k", "required": true, "type": "int"}]},
                          "value": "timestamptz"}}]}}},
    {"id": 22, "name": "defaults", "required": false, "type": "int",
     "initial-default": 34, "write-default": 35},
    {"id": 23, "name": "v3", "required": false, "type": "unknown"},
    {"id": 24, "name": "var", "required": false, "type": "variant"},
    {"id": 25, "name": "structured_default", "required": false,
     "type": {"type": "struct", "fields": [{"id": 42, "name": "a", "required": false, "type": "string"}]},
     "initial-default": {"42": "x"}}
  ]
})json";

}  // namespace floe::schema::testing
