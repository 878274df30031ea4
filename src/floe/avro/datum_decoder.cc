#include "floe/avro/datum_decoder.h"

namespace floe::avro {

Result<DatumDecoder> DatumDecoder::Make(std::shared_ptr<const Node> schema, arrow::ArrayBuilder* builder) {
  return Make(schema, schema, builder);
}

Result<DatumDecoder> DatumDecoder::Make(std::shared_ptr<const Node> writer, std::shared_ptr<const Node> reader,
                                        arrow::ArrayBuilder* builder) {
  FLOE_ASSIGN_OR_RETURN(DecodePlan plan, DecodePlan::Compile(writer, reader, builder));
  return DatumDecoder(std::move(plan));
}

}  // namespace floe::avro
