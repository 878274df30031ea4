#pragma once
// How the schema module's JSON parsers word the errors of floe/core/json_access.h:
// `field 'a': "id" must be an integer, got a string`. Private to the schema module.
#include <string_view>

#include "floe/core/json_access.h"

namespace floe::schema {

inline constexpr json_access::Wording kJsonWording{
    .kinds = {.null = "null",
              .object = "an object",
              .array = "an array",
              .string = "a string",
              .boolean = "a boolean",
              .integer = "an integer",
              .number = "a non-integer number",
              .binary = "an invalid value",
              .discarded = "an invalid value"},
    .member = R"({where}: "{key}")",
    .missing = R"({where}: missing "{key}")",
    .not_container = "{where}: expected an {container}, got {kind}",
    .wrong_container = "{subject} must be an {container}, got {kind}",
    .wrong_kind = "{subject} must be {expected}, got {kind}",
    .out_of_int32 = "{subject} {value} is outside the 32-bit integer range",
    .out_of_int64 = "{subject} {value} is outside the 64-bit integer range",
};

// Reads of the object that messages call `where` ("schema", "field 'a.b'").
constexpr json_access::At In(std::string_view where) { return {kJsonWording, where}; }

}  // namespace floe::schema
