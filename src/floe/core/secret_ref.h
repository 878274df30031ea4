#pragma once
// References to secrets kept outside floe.yaml: `${env:NAME}` (an environment variable) and
// `${file:/path}` (a file's content, one trailing newline dropped, as secret mounts write
// them). A value may mix references with literal text ("Bearer ${env:TOKEN}"). Every
// secret field of the config goes through ResolveSecretRefs, so a config can be committed
// without its secrets. Errors name the variable or the file, never a resolved value.
#include <string>
#include <string_view>

#include "floe/core/result.h"

namespace floe {

// The value with every reference replaced. kInvalidArgument for an unknown kind
// (`${vault:…}`), an unterminated `${`, an unset variable or an unreadable file.
// "$${" stands for a literal "${".
Result<std::string> ResolveSecretRefs(std::string_view value);

// True when the value holds at least one `${…}` reference (not counting "$${").
bool HasSecretRef(std::string_view value);

}  // namespace floe
