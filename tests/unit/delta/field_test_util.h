#pragma once
// Building the schemas of the Delta tests.
#include <optional>
#include <string>
#include <utility>

#include "floe/schema/types.h"

namespace floe::delta::testing {

// A field with no doc and no defaults; optional unless `required`.
inline schema::NestedField F(int id, std::string name, schema::TypePtr type, bool required = false) {
  return schema::NestedField{id, std::move(name), required, std::move(type), "", std::nullopt, std::nullopt};
}

}  // namespace floe::delta::testing
