// Fuzz target: schemaless JSON (`value: json`), the way the pipeline runs it
// (pipeline/writer_schemas_inferred.cc): the type inferred so far starts empty; each record is
// checked with Inference::FitOrWiden, a widened type replaces the current one (its own
// PayloadSchema and decoders, as after a table schema change), and the record is decoded into
// the current type's columns under DecoderCheck's invariants. Each input runs twice: with
// conflicts as errors and with `json_conflicts: as_text`. Beyond DecoderCheck:
//  - a record that fits, or that widened the type, decodes (inference and decoder agree);
//  - a widened type fits the record that widened it (FitOrWiden answers nullopt again);
//  - the widened type survives the table: InferredFromColumns of its columns gives a type
//    with the same columns (what a restart reads back).
#include <arrow/api.h>

#include "floe/json/inference.h"
#include "floe/json/payload_schema.h"
#include "fuzz_check.h"

namespace floe::fuzz {
namespace {

struct Current {
  json::JsonType type = json::Object({});
  std::shared_ptr<const columnar::PayloadSchema> schema;
  std::unique_ptr<DecoderCheck> check;
};

void Switch(Current& current, json::JsonType type) {
  if (current.check) current.check->Finish();
  auto schema = json::InferredPayloadSchema(type);
  CheckOk(schema.status(), "InferredPayloadSchema of an inferred type " + json::ToString(type));
  current.type = std::move(type);
  current.schema = *schema;
  current.check = DecoderCheck::Make(*current.schema);

  auto read_back = json::InferredFromColumns(*current.schema->columns());
  CheckOk(read_back.status(), "InferredFromColumns of an inferred type's columns");
  auto columns = json::ToArrowSchema(*read_back);
  CheckOk(columns.status(), "ToArrowSchema of a type read back from columns");
  Check((*columns)->Equals(*current.schema->columns()),
        "columns read back from a table give other columns: " + (*columns)->ToString() + " vs " +
            current.schema->columns()->ToString());
}

void Run(const std::vector<Record>& records, bool conflicts_as_text) {
  json::Inference inference(json::InferenceOptions{.conflicts_as_text = conflicts_as_text});
  Current current;
  Switch(current, json::Object({}));
  for (const Record& record : records) {
    if (record.flush_before) current.check->Flush();
    auto fit = inference.FitOrWiden(current.type, record.payload);
    if (!fit.ok()) {
      Check(fit.status().code() == StatusCode::kInvalidArgument, "FitOrWiden refused with " + fit.status().ToString());
      current.check->Append(record.payload);  // the decoder may take it (it ignores unknown properties): no claim
      continue;
    }
    if (*fit) {
      Switch(current, std::move(**fit));
      auto again = inference.FitOrWiden(current.type, record.payload);
      CheckOk(again.status(), "FitOrWiden of the record that widened the type, against the widened type");
      Check(!*again, "the widened type " + json::ToString(current.type) + " does not fit the record that widened it");
    }
    Check(current.check->Append(record.payload),
          "a record that fits the inferred type " + json::ToString(current.type) + " does not decode");
  }
  current.check->Finish();
}

}  // namespace
}  // namespace floe::fuzz

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const auto records = floe::fuzz::SplitRecords(data, size);
  floe::fuzz::Run(records, /*conflicts_as_text=*/false);
  floe::fuzz::Run(records, /*conflicts_as_text=*/true);
  return 0;
}
