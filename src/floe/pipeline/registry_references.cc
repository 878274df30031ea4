#include "floe/pipeline/registry_references.h"

namespace floe::pipeline {

RegistryReferences::RegistryReferences(const registry::RegisteredSchema& root, registry::Client& client)
    : client_(client) {
  Learn(root.references);
}

void RegistryReferences::Learn(const std::vector<registry::SchemaReference>& references) {
  for (const auto& r : references) known_.emplace(r.name, r);
}

Result<std::string> RegistryReferences::Fetch(const std::string& name) {
  if (auto it = fetched_.find(name); it != fetched_.end()) return it->second;
  auto known = known_.find(name);
  if (known == known_.end()) {
    return Status::NotFound("'" + name + "' is not among the schema's references (name → subject/version)");
  }
  auto schema = client_.GetSubjectVersion(known->second.subject, std::to_string(known->second.version));
  if (!schema.ok()) {
    return schema.status().WithContext("reference '" + name + "' (subject " + known->second.subject + " version " +
                                       std::to_string(known->second.version) + ")");
  }
  Learn(schema->references);
  return fetched_[name] = schema->schema;
}

}  // namespace floe::pipeline
