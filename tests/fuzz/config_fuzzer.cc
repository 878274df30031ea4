// Fuzz target: floe.yaml, through the same loader `floe run`, `floe validate` and
// `floe catalog serve` use. Every problem must come back as one kInvalidArgument listing
// what is wrong, never an exception from yaml-cpp or a crash.
#include "floe/core/config.h"
#include "fuzz_check.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace floe;
  using namespace floe::fuzz;
  const std::string yaml(reinterpret_cast<const char*>(data), size);
  for (ConfigUse use : {ConfigUse::kRun, ConfigUse::kCatalogServe}) {
    auto config = ParseConfig(yaml, "fuzz.yaml", use);
    if (!config.ok()) {
      Check(config.status().code() == StatusCode::kInvalidArgument, "a refused config is kInvalidArgument");
      Check(!config.status().message().empty(), "a refused config says why");
      continue;
    }
    if (use == ConfigUse::kRun && config->topics.empty()) Fail("a config for floe run without topics was accepted: " + yaml);
  }
  return 0;
}
