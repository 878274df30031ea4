#pragma once
// Non-throwing reads of Iceberg metadata JSON. nlohmann::json throws on a wrong-typed
// get<>(); these helpers check the type first and turn every mismatch into an
// InvalidArgument naming the object and the key, so no exception leaves the module.
// Private to the schema module.
#include <nlohmann/json.hpp>

#include <optional>
#include <string>
#include <string_view>

#include "floe/core/result.h"

namespace floe::schema::json_access {

// The member `key` of `obj`, or nullptr when `obj` is not an object or has no such key.
// A JSON null counts as absent: writers differ on whether they emit null for "no value".
const nlohmann::json* Find(const nlohmann::json& obj, std::string_view key);

// "a string", "an array", … for "… must be an integer, got a string".
std::string Describe(const nlohmann::json& value);

// Required members: an error "<where>: missing \"<key>\"" when absent.
Result<const nlohmann::json*> Require(const nlohmann::json& obj, std::string_view key, std::string_view where);
Result<int> RequireInt(const nlohmann::json& obj, std::string_view key, std::string_view where);
Result<bool> RequireBool(const nlohmann::json& obj, std::string_view key, std::string_view where);
Result<std::string> RequireString(const nlohmann::json& obj, std::string_view key, std::string_view where);

// Optional members: nullopt when absent, an error when present with the wrong type.
Result<std::optional<int>> OptionalInt(const nlohmann::json& obj, std::string_view key, std::string_view where);
Result<std::optional<std::string>> OptionalString(const nlohmann::json& obj, std::string_view key,
                                                  std::string_view where);

// A JSON value as a 32-bit int: integers only (1.0 is not an id), within int's range.
Result<int> AsInt(const nlohmann::json& value, std::string_view what);

// Serializes without throwing: invalid UTF-8 in strings is replaced, not an exception.
std::string DumpCompact(const nlohmann::json& value);

}  // namespace floe::schema::json_access
