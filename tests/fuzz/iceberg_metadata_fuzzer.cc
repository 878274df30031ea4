// Fuzz target: Iceberg table metadata JSON (v1, v2, v3), as Floe reads it from a catalog's
// metadata location. A file ParseTableMetadata accepts must serialize, and what it
// serializes must parse back to the same text (the form Floe writes is stable).
#include "floe/iceberg/table_metadata.h"
#include "fuzz_check.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace floe;
  using namespace floe::fuzz;
  auto metadata = iceberg::ParseTableMetadata(std::string_view(reinterpret_cast<const char*>(data), size));
  if (!metadata.ok()) {
    Check(metadata.status().code() == StatusCode::kInvalidArgument ||
              metadata.status().code() == StatusCode::kUnsupported,
          "refused table metadata is kInvalidArgument (kUnsupported for an unknown format version)");
    return 0;
  }
  const std::string written = iceberg::SerializeTableMetadata(*metadata);
  auto again = iceberg::ParseTableMetadata(written);
  if (!again.ok()) Fail("metadata Floe serialized does not parse: " + again.status().ToString() + "\n" + written);
  Check(iceberg::SerializeTableMetadata(*again) == written, "serialized metadata parses back to the same text");
  return 0;
}
