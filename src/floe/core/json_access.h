#pragma once
// Non-throwing, type-checked reads of nlohmann::json values, shared by every module that
// parses JSON. nlohmann::json throws on a wrong-typed get<>(); these readers check the kind
// first and turn every mismatch into an InvalidArgument naming what is wrong, so no
// exception leaves the caller.
//
// The checks exist once, here. How their errors read is data: each module passes its
// Wording (through At), so that its messages keep the phrasing its users already see.
#include <nlohmann/json.hpp>

#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "floe/core/result.h"

namespace floe::json_access {

using Json = nlohmann::json;

// What messages call each kind of JSON value: "string", or "a string", ...
struct KindNames {
  std::string_view null, object, array, string, boolean, integer, number, binary, discarded;
};

// The kinds by their bare names: "string", "integer", "number" (one that is not an integer), ...
inline constexpr KindNames kBareKindNames{.null = "null",
                                          .object = "object",
                                          .array = "array",
                                          .string = "string",
                                          .boolean = "boolean",
                                          .integer = "integer",
                                          .number = "number",
                                          .binary = "binary",
                                          .discarded = "discarded"};

// A module's phrasing of the errors below. Each message is a template whose placeholders
// are filled in; an unknown one is kept as written.
//   {where}     what the caller calls the enclosing object (At::where): "schema", "snapshot"
//   {key}       the member's name
//   {subject}   what is wrong: a member as `member` names it, or an element of one (that
//               name followed by "[i]" or ".name"), or a caller's own description
//   {expected}  what the value must be: "an integer", "an array of strings"
//   {container} "object" or "array"
//   {kind}      the kind of value found, from `kinds`
//   {value}     the value found, as compact JSON
// No member has a default, so a wording that leaves one out does not compile quietly
// (-Wmissing-field-initializers).
struct Wording {
  KindNames kinds;
  std::string_view member;           // names a member, as a {subject}: {where} {key}
  std::string_view missing;          // a required member is absent: {where} {key}
  std::string_view not_container;    // a value is not an object or an array: {where} {container} {kind} {value}
  std::string_view wrong_container;  // a member is not an object or an array: {subject} {container} {kind} {value}
  std::string_view wrong_kind;       // a value is of the wrong kind: {subject} {expected} {kind} {value}
  std::string_view out_of_int32;     // an integer beyond 32 bits: {subject} {kind} {value}
  std::string_view out_of_int64;     // an integer beyond a signed 64 bits: {subject} {kind} {value}
};

// Where a read happens: the wording of its errors and, for wordings that use {where}, the
// name of the enclosing object. Implicit from a Wording, for wordings without {where}.
class At {
 public:
  constexpr At(const Wording& wording, std::string_view where = {})  // NOLINT(google-explicit-constructor)
      : wording_(&wording), where_(where) {}
  const Wording& wording() const { return *wording_; }
  std::string_view where() const { return where_; }

 private:
  const Wording* wording_;
  std::string_view where_;
};

// --- Lookup and description ----------------------------------------------------------------

// The member `key` of `obj`, or nullptr when `obj` is not an object or has no such key.
// A JSON null counts as absent: writers differ on whether they emit null for "no value".
const Json* Find(const Json& obj, std::string_view key);

// The kind of `value` in `at`'s wording: "string", "a non-integer number", ...
std::string_view KindName(const Json& value, const At& at);

// Serializes on one line without throwing: invalid UTF-8 in strings is replaced.
std::string DumpCompact(const Json& value);

// A member named as messages name it (the wording's `member`), to build an element's
// subject from: Member(at, "ids") + "[0]".
std::string Member(const At& at, std::string_view key);

// The error for a required member that is absent, for callers with their own lookup.
Status Missing(std::string_view key, const At& at);

// --- Values --------------------------------------------------------------------------------

// `value` itself must be an object / an array; the error names it by at.where().
Status ExpectObject(const Json& value, const At& at);
Status ExpectArray(const Json& value, const At& at);

// Integers only (1.0 is not an id), within the type's range. `subject` names the value.
Result<int> AsInt(const Json& value, std::string_view subject, const At& at);
Result<std::int64_t> AsInt64(const Json& value, std::string_view subject, const At& at);

// --- Members -------------------------------------------------------------------------------

// Required members: the `missing` error when absent; `obj` must be an object (an error
// named by at.where() otherwise).
Result<const Json*> Require(const Json& obj, std::string_view key, const At& at);
Result<int> RequireInt(const Json& obj, std::string_view key, const At& at);
Result<std::int64_t> RequireInt64(const Json& obj, std::string_view key, const At& at);
Result<bool> RequireBool(const Json& obj, std::string_view key, const At& at);
Result<std::string> RequireString(const Json& obj, std::string_view key, const At& at);
Result<const Json*> RequireArray(const Json& obj, std::string_view key, const At& at);

// Optional members: nullopt (nullptr) when absent, an error when present with the wrong kind.
Result<std::optional<int>> OptionalInt(const Json& obj, std::string_view key, const At& at);
Result<std::optional<std::int64_t>> OptionalInt64(const Json& obj, std::string_view key, const At& at);
Result<std::optional<std::string>> OptionalString(const Json& obj, std::string_view key, const At& at);
Result<const Json*> OptionalArray(const Json& obj, std::string_view key, const At& at);
Result<const Json*> OptionalObject(const Json& obj, std::string_view key, const At& at);

// Required arrays of one kind of element, each element checked.
Result<std::vector<std::string>> RequireStringList(const Json& obj, std::string_view key, const At& at);
Result<std::vector<int>> RequireIntList(const Json& obj, std::string_view key, const At& at);
Result<std::vector<std::int64_t>> RequireInt64List(const Json& obj, std::string_view key, const At& at);

// An optional object of string values; numbers and booleans are accepted and kept as their
// JSON text (some writers emit them). Absent -> empty.
Result<std::map<std::string, std::string, std::less<>>> OptionalStringMap(const Json& obj, std::string_view key,
                                                                         const At& at);

}  // namespace floe::json_access
