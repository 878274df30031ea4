#include "floe/core/json_access.h"

#include <limits>
#include <utility>

namespace floe::json_access {

namespace {

// The placeholders' values for one message; the found value is dumped only when asked for.
struct Fields {
  std::string_view where = {}, key = {}, subject = {}, expected = {}, container = {};
  const Json* got = nullptr;
};

void AppendField(std::string& out, std::string_view name, const Fields& f, const At& at) {
  if (name == "where") {
    out += f.where;
  } else if (name == "key") {
    out += f.key;
  } else if (name == "subject") {
    out += f.subject;
  } else if (name == "expected") {
    out += f.expected;
  } else if (name == "container") {
    out += f.container;
  } else if (name == "kind" && f.got != nullptr) {
    out += KindName(*f.got, at);
  } else if (name == "value" && f.got != nullptr) {
    out += DumpCompact(*f.got);
  } else {
    out += '{';
    out += name;
    out += '}';
  }
}

std::string Fill(std::string_view message, const Fields& f, const At& at) {
  std::string out;
  for (std::size_t i = 0; i < message.size();) {
    const std::size_t close = message[i] == '{' ? message.find('}', i) : std::string_view::npos;
    if (close == std::string_view::npos) {
      out += message[i++];
      continue;
    }
    AppendField(out, message.substr(i + 1, close - i - 1), f, at);
    i = close + 1;
  }
  return out;
}

Status Error(std::string_view message, const Fields& f, const At& at) {
  return Status::InvalidArgument(Fill(message, f, at));
}

Status WrongKind(std::string_view subject, std::string_view expected, const Json& got, const At& at) {
  return Error(at.wording().wrong_kind, {.subject = subject, .expected = expected, .got = &got}, at);
}

// An integer in [lo, hi]; `out_of_range` is the wording's message for one outside it.
Result<std::int64_t> AsIntegerIn(const Json& value, std::string_view subject, const At& at, std::int64_t lo,
                                 std::int64_t hi, std::string_view out_of_range) {
  if (value.is_number_unsigned()) {
    const auto u = value.get<std::uint64_t>();
    if (u <= static_cast<std::uint64_t>(hi)) return static_cast<std::int64_t>(u);
  } else if (value.is_number_integer()) {
    const auto i = value.get<std::int64_t>();
    if (i >= lo && i <= hi) return i;
  } else {
    return WrongKind(subject, "an integer", value, at);
  }
  return Error(out_of_range, {.subject = subject, .got = &value}, at);
}

// Objects and arrays share their checks; `array` says which one is wanted.
bool IsContainer(const Json& value, bool array) { return array ? value.is_array() : value.is_object(); }
std::string_view ContainerName(bool array) { return array ? "array" : "object"; }

// `v` (the member `key`, or nullptr when absent) when it is absent or the wanted container.
Result<const Json*> CheckContainer(const Json* v, std::string_view key, const At& at, bool array) {
  if (v == nullptr || IsContainer(*v, array)) return v;
  const std::string subject = Member(at, key);
  return Error(at.wording().wrong_container, {.subject = subject, .container = ContainerName(array), .got = v}, at);
}

Status ExpectContainer(const Json& value, const At& at, bool array) {
  if (IsContainer(value, array)) return Status::OK();
  return Error(at.wording().not_container, {.where = at.where(), .container = ContainerName(array), .got = &value}, at);
}

// A required array whose elements `read(element, subject)` checks; `expected` names the
// whole ("an array of strings").
template <typename T, typename Read>
Result<std::vector<T>> RequireList(const Json& obj, std::string_view key, const At& at, std::string_view expected,
                                   Read read) {
  FLOE_ASSIGN_OR_RETURN(const Json* v, Require(obj, key, at));
  const std::string subject = Member(at, key);
  if (!v->is_array()) return WrongKind(subject, expected, *v, at);
  std::vector<T> out;
  out.reserve(v->size());
  for (std::size_t i = 0; i < v->size(); ++i) {
    FLOE_ASSIGN_OR_RETURN(T x, read((*v)[i], subject + "[" + std::to_string(i) + "]"));
    out.push_back(std::move(x));
  }
  return out;
}

Result<std::string> AsString(const Json& value, std::string_view subject, const At& at) {
  if (!value.is_string()) return WrongKind(subject, "a string", value, at);
  return value.get<std::string>();
}

}  // namespace

// --- Lookup and description ----------------------------------------------------------------

const Json* Find(const Json& obj, std::string_view key) {
  if (!obj.is_object()) return nullptr;
  auto it = obj.find(key);
  if (it == obj.end() || it->is_null()) return nullptr;
  return &*it;
}

std::string_view KindName(const Json& value, const At& at) {
  const KindNames& names = at.wording().kinds;
  switch (value.type()) {
    case Json::value_t::null: return names.null;
    case Json::value_t::object: return names.object;
    case Json::value_t::array: return names.array;
    case Json::value_t::string: return names.string;
    case Json::value_t::boolean: return names.boolean;
    case Json::value_t::number_integer:
    case Json::value_t::number_unsigned: return names.integer;
    case Json::value_t::number_float: return names.number;
    case Json::value_t::binary: return names.binary;
    case Json::value_t::discarded: return names.discarded;
  }
  return names.discarded;
}

std::string DumpCompact(const Json& value) { return value.dump(-1, ' ', false, Json::error_handler_t::replace); }

std::string Member(const At& at, std::string_view key) {
  return Fill(at.wording().member, {.where = at.where(), .key = key}, at);
}

Status Missing(std::string_view key, const At& at) {
  return Error(at.wording().missing, {.where = at.where(), .key = key}, at);
}

// --- Values --------------------------------------------------------------------------------

Status ExpectObject(const Json& value, const At& at) { return ExpectContainer(value, at, /*array=*/false); }
Status ExpectArray(const Json& value, const At& at) { return ExpectContainer(value, at, /*array=*/true); }

Result<int> AsInt(const Json& value, std::string_view subject, const At& at) {
  FLOE_ASSIGN_OR_RETURN(std::int64_t x, AsIntegerIn(value, subject, at, std::numeric_limits<int>::min(),
                                                    std::numeric_limits<int>::max(), at.wording().out_of_int32));
  return static_cast<int>(x);
}

Result<std::int64_t> AsInt64(const Json& value, std::string_view subject, const At& at) {
  return AsIntegerIn(value, subject, at, std::numeric_limits<std::int64_t>::min(),
                     std::numeric_limits<std::int64_t>::max(), at.wording().out_of_int64);
}

// --- Members -------------------------------------------------------------------------------

Result<const Json*> Require(const Json& obj, std::string_view key, const At& at) {
  FLOE_RETURN_IF_ERROR(ExpectObject(obj, at));
  const Json* v = Find(obj, key);
  if (v == nullptr) return Missing(key, at);
  return v;
}

Result<int> RequireInt(const Json& obj, std::string_view key, const At& at) {
  FLOE_ASSIGN_OR_RETURN(const Json* v, Require(obj, key, at));
  return AsInt(*v, Member(at, key), at);
}

Result<std::int64_t> RequireInt64(const Json& obj, std::string_view key, const At& at) {
  FLOE_ASSIGN_OR_RETURN(const Json* v, Require(obj, key, at));
  return AsInt64(*v, Member(at, key), at);
}

Result<bool> RequireBool(const Json& obj, std::string_view key, const At& at) {
  FLOE_ASSIGN_OR_RETURN(const Json* v, Require(obj, key, at));
  if (!v->is_boolean()) return WrongKind(Member(at, key), "a boolean", *v, at);
  return v->get<bool>();
}

Result<std::string> RequireString(const Json& obj, std::string_view key, const At& at) {
  FLOE_ASSIGN_OR_RETURN(const Json* v, Require(obj, key, at));
  return AsString(*v, Member(at, key), at);
}

Result<const Json*> RequireArray(const Json& obj, std::string_view key, const At& at) {
  FLOE_ASSIGN_OR_RETURN(const Json* v, Require(obj, key, at));
  return CheckContainer(v, key, at, /*array=*/true);
}

Result<std::optional<int>> OptionalInt(const Json& obj, std::string_view key, const At& at) {
  const Json* v = Find(obj, key);
  if (v == nullptr) return std::optional<int>();
  FLOE_ASSIGN_OR_RETURN(int x, AsInt(*v, Member(at, key), at));
  return std::optional<int>(x);
}

Result<std::optional<std::int64_t>> OptionalInt64(const Json& obj, std::string_view key, const At& at) {
  const Json* v = Find(obj, key);
  if (v == nullptr) return std::optional<std::int64_t>();
  FLOE_ASSIGN_OR_RETURN(std::int64_t x, AsInt64(*v, Member(at, key), at));
  return std::optional<std::int64_t>(x);
}

Result<std::optional<std::string>> OptionalString(const Json& obj, std::string_view key, const At& at) {
  const Json* v = Find(obj, key);
  if (v == nullptr) return std::optional<std::string>();
  FLOE_ASSIGN_OR_RETURN(std::string s, AsString(*v, Member(at, key), at));
  return std::optional<std::string>(std::move(s));
}

Result<const Json*> OptionalArray(const Json& obj, std::string_view key, const At& at) {
  return CheckContainer(Find(obj, key), key, at, /*array=*/true);
}

Result<const Json*> OptionalObject(const Json& obj, std::string_view key, const At& at) {
  return CheckContainer(Find(obj, key), key, at, /*array=*/false);
}

Result<std::vector<std::string>> RequireStringList(const Json& obj, std::string_view key, const At& at) {
  return RequireList<std::string>(obj, key, at, "an array of strings",
                                  [&](const Json& e, const std::string& subject) { return AsString(e, subject, at); });
}

Result<std::vector<int>> RequireIntList(const Json& obj, std::string_view key, const At& at) {
  return RequireList<int>(obj, key, at, "an array of integers",
                          [&](const Json& e, const std::string& subject) { return AsInt(e, subject, at); });
}

Result<std::vector<std::int64_t>> RequireInt64List(const Json& obj, std::string_view key, const At& at) {
  return RequireList<std::int64_t>(obj, key, at, "an array of integers",
                                   [&](const Json& e, const std::string& subject) { return AsInt64(e, subject, at); });
}

Result<std::map<std::string, std::string, std::less<>>> OptionalStringMap(const Json& obj, std::string_view key,
                                                                         const At& at) {
  std::map<std::string, std::string, std::less<>> out;
  const Json* v = Find(obj, key);
  if (v == nullptr) return out;
  const std::string subject = Member(at, key);
  if (!v->is_object()) return WrongKind(subject, "an object of strings", *v, at);
  for (auto it = v->begin(); it != v->end(); ++it) {
    const Json& value = it.value();
    if (value.is_string()) {
      out.emplace(it.key(), value.get<std::string>());
    } else if (value.is_number() || value.is_boolean()) {
      out.emplace(it.key(), DumpCompact(value));
    } else {
      return WrongKind(subject + "." + it.key(), "a string", value, at);
    }
  }
  return out;
}

}  // namespace floe::json_access
