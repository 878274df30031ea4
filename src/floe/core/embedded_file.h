#pragma once
// A file compiled into the binary by cmake/EmbedFiles.cmake (the web console's static
// files): served from memory, so a deployed binary needs no files beside it.
#include <string_view>

namespace floe {

struct EmbeddedFile {
  std::string_view path;   // relative to the embedded directory, '/'-separated
  std::string_view bytes;  // the file's contents (static storage)
};

}  // namespace floe
