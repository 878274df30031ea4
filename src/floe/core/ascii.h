#pragma once
// ASCII case folding for the names Floe compares without case: HTTP header names, SQL-ish type
// names, table properties, S3 signing's canonical headers. Only A-Z change: the result does not
// depend on the process's locale, and UTF-8 bytes pass through untouched.
#include <string>
#include <string_view>

namespace floe {

inline std::string AsciiLower(std::string_view s) {
  std::string out(s);
  for (char& c : out) {
    if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
  }
  return out;
}

}  // namespace floe
