#pragma once
// Shared by the floe.yaml tests.
#include <gtest/gtest.h>

#include <string>

#include "floe/core/config.h"

namespace floe {

// The message ParseConfig rejects `yaml` with; a test failure (and "") when it accepts it.
inline std::string ConfigErrors(const std::string& yaml) {
  auto r = ParseConfig(yaml, "floe.yaml");
  EXPECT_FALSE(r.ok()) << "expected errors for:\n" << yaml;
  return r.ok() ? "" : r.status().message();
}

}  // namespace floe
