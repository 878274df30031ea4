// Fuzz target: JSON Schema payloads against the fixed schema schemas/fuzz.schema.json (every
// mapped type: Connect widths and annotations, formats, decimals, maps, lists of lists,
// $refs, JSON text fallbacks). Each record goes into the value decoder
// (JsonSchemaPayloadSchema: one column per property) and the key decoder
// (JsonSchemaKeyPayloadSchema: the whole object as one struct column), under DecoderCheck's
// invariants, and both must accept the same records (one JSON type, two layouts).
#include "floe/json/payload_schema.h"
#include "fuzz_check.h"
#include "fuzz_schemas.h"

namespace floe::fuzz {
namespace {

struct Fixture {
  Fixture() {
    auto v = json::JsonSchemaPayloadSchema(kFuzzJsonSchema);
    CheckOk(v.status(), "schemas/fuzz.schema.json as a value schema");
    value = *v;
    auto k = json::JsonSchemaKeyPayloadSchema(kFuzzJsonSchema, "key");
    CheckOk(k.status(), "schemas/fuzz.schema.json as a key schema");
    key = *k;
  }
  std::shared_ptr<const columnar::PayloadSchema> value, key;
};

const Fixture& TheFixture() {
  static const Fixture* fixture = new Fixture();  // never destroyed: libFuzzer exits without unwinding
  return *fixture;
}

}  // namespace
}  // namespace floe::fuzz

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace floe::fuzz;
  const Fixture& f = TheFixture();
  auto value = DecoderCheck::Make(*f.value);
  auto key = DecoderCheck::Make(*f.key, /*light=*/true);
  for (const Record& record : SplitRecords(data, size)) {
    if (record.flush_before) {
      value->Flush();
      Check(key->AppendNull(), "a JSON key column takes a null row");
    }
    const bool accepted = value->Append(record.payload);
    Check(key->Append(record.payload) == accepted, "the value and key forms disagree on a record");
  }
  value->Finish();
  key->Finish();
  return 0;
}
