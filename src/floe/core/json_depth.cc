#include "floe/core/json_depth.h"

#include <algorithm>
#include <string>

namespace floe {

int JsonNestingDepth(std::string_view text, int limit) {
  int depth = 0;
  int deepest = 0;
  bool in_string = false;
  for (std::size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (in_string) {
      if (c == '\\') {
        ++i;  // the escaped character cannot end the string
      } else if (c == '"') {
        in_string = false;
      }
      continue;
    }
    if (c == '"') {
      in_string = true;
    } else if (c == '{' || c == '[') {
      deepest = std::max(deepest, ++depth);
      if (deepest > limit) return deepest;
    } else if ((c == '}' || c == ']') && depth > 0) {
      --depth;
    }
  }
  return deepest;
}

Status CheckJsonDepth(std::string_view text, std::string_view what) {
  if (JsonNestingDepth(text) <= kMaxJsonDepth) return Status::OK();
  return Status::InvalidArgument(std::string(what) + " nests deeper than " + std::to_string(kMaxJsonDepth) + " levels");
}

}  // namespace floe
