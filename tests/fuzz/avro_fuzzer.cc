// Fuzz target: Confluent Avro payloads (the bytes after the schema id) against the fixed
// schema schemas/fuzz.avsc (every primitive, complex and logical type, unions of both
// kinds). Each record goes into the record decoder (RecordPayloadSchema: one column per field,
// rolled back on failure) and the datum decoder (DatumPayloadSchema: the record as one struct
// column, validated before it is decoded), under DecoderCheck's invariants, and both must
// accept the same records.
#include "floe/avro/payload_schema.h"
#include "floe/avro/schema.h"
#include "fuzz_check.h"
#include "fuzz_schemas.h"

namespace floe::fuzz {
namespace {

struct Fixture {
  Fixture() {
    auto node = avro::ParseSchema(kFuzzAvroSchema);
    CheckOk(node.status(), "parsing schemas/fuzz.avsc");
    auto r = avro::RecordPayloadSchema(*node);
    CheckOk(r.status(), "schemas/fuzz.avsc as a record payload schema");
    record = *r;
    auto d = avro::DatumPayloadSchema(*node, "key");
    CheckOk(d.status(), "schemas/fuzz.avsc as a datum payload schema");
    datum = *d;
  }
  std::shared_ptr<const columnar::PayloadSchema> record, datum;
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
  auto record = DecoderCheck::Make(*f.record);
  auto datum = DecoderCheck::Make(*f.datum, /*light=*/true);
  for (const Record& r : SplitRecords(data, size)) {
    if (r.flush_before) {
      record->Flush();
      Check(datum->AppendNull(), "an Avro datum column takes a null row");
    }
    const bool accepted = record->Append(r.payload);
    Check(datum->Append(r.payload) == accepted, "the record and datum forms disagree on a payload");
  }
  record->Finish();
  datum->Finish();
  return 0;
}
