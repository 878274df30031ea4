#pragma once
// The documents a registry schema imports (Protobuf `import "x.proto"`, JSON Schema external
// `$ref`s), fetched through the schema's `references` (name → subject + version), and the
// references of those documents in turn. Each document is fetched once per schema.
#include <map>
#include <string>

#include "floe/core/result.h"
#include "floe/registry/client.h"

namespace floe::pipeline {

class RegistryReferences {
 public:
  RegistryReferences(const registry::RegisteredSchema& root, registry::Client& client);

  // The text of the document registered under reference `name`. kNotFound when no schema
  // fetched so far lists that name; the registry's errors (kUnavailable: retry later) as they are.
  Result<std::string> Fetch(const std::string& name);

 private:
  void Learn(const std::vector<registry::SchemaReference>& references);

  registry::Client& client_;
  std::map<std::string, registry::SchemaReference> known_;
  std::map<std::string, std::string> fetched_;
};

}  // namespace floe::pipeline
