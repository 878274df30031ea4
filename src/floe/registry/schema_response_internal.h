#pragma once
// Reading the Schema Registry's answers: a schema by id (GET /schemas/ids/{id}) or by subject
// version (GET /subjects/{s}/versions/{v}). The registry is a remote service, so its bodies
// are untrusted bytes: every shape problem is kInvalidArgument naming it, never an exception
// (tests/fuzz/registry_response_fuzzer.cc feeds these arbitrary bytes).
#include <cstdint>
#include <string>

#include "floe/core/result.h"
#include "floe/registry/client.h"

namespace floe::registry {

// {"id": N, "schemaType": "AVRO"|"PROTOBUF"|"JSON" (absent: AVRO), "schema": "...",
//  "references": [{"name", "subject", "version"}]}; `id` when the body has none (or one out of
// the 32-bit range).
Result<RegisteredSchema> ParseSchemaResponse(const std::string& body, std::int32_t id);

// The registry's own explanation, {"error_code":40403,"message":"Schema not found"}, when it
// sent one; else the body's first 200 bytes.
std::string RegistryMessage(const std::string& body);

}  // namespace floe::registry
