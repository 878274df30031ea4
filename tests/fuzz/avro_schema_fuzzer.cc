// Fuzz target: Avro schemas as the Schema Registry (or a container file's header) hands them
// to Floe. The first record of the input is the schema JSON; ParseSchema must refuse it or
// return a tree the rest of the Avro module can use: the Arrow mapping, both payload forms
// (a record schema as columns, any schema as one datum column) and their decoders, which
// then decode the input's other records under DecoderCheck's invariants.
#include "floe/avro/arrow_mapping.h"
#include "floe/avro/payload_schema.h"
#include "floe/avro/schema.h"
#include "fuzz_check.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace floe;
  using namespace floe::fuzz;
  const std::vector<Record> records = SplitRecords(data, size);
  auto node = avro::ParseSchema(records.front().payload);
  if (!node.ok()) {
    Check(node.status().code() == StatusCode::kInvalidArgument || node.status().code() == StatusCode::kUnsupported,
          "a schema ParseSchema refuses is kInvalidArgument or kUnsupported");
    return 0;
  }
  (void)avro::ToArrowType(**node);
  std::vector<std::shared_ptr<const columnar::PayloadSchema>> forms;
  if ((*node)->type == avro::Type::kRecord) {
    if (auto record = avro::RecordPayloadSchema(*node); record.ok()) forms.push_back(*record);
  }
  if (auto datum = avro::DatumPayloadSchema(*node, "value"); datum.ok()) forms.push_back(*datum);
  for (const auto& form : forms) {
    auto check = DecoderCheck::Make(*form, /*light=*/true);
    for (std::size_t i = 1; i < records.size(); ++i) {
      if (records[i].flush_before) check->Flush();
      check->Append(records[i].payload);
    }
    check->Finish();
  }
  return 0;
}
