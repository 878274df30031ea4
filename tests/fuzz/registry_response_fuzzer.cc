// Fuzz target: the Schema Registry's answer bodies (GET /schemas/ids/{id} and
// /subjects/{subject}/versions/{v}) as the registry client reads them: a remote service's
// bytes, which must give a schema or a clear error, never an exception or a crash.
#include "floe/registry/schema_response_internal.h"
#include "fuzz_check.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace floe;
  using namespace floe::fuzz;
  const std::string body(reinterpret_cast<const char*>(data), size);
  (void)registry::RegistryMessage(body);
  auto schema = registry::ParseSchemaResponse(body, 7);
  if (!schema.ok()) {
    Check(schema.status().code() == StatusCode::kInvalidArgument || schema.status().code() == StatusCode::kUnsupported,
          "a bad registry answer is kInvalidArgument (or kUnsupported for an unknown schemaType)");
    return 0;
  }
  Check(schema->id >= 0, "a schema id is never negative");
  return 0;
}
