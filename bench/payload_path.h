#pragma once
// The per-format decode path of `floe run`, without Kafka and the registry: the writer schema
// as the decoder seam's PayloadSchema (columnar/value_decoder.h) and what the pipeline does
// per record before ValueDecoder::Append. Shared by floe_bench_encode and floe_bench_micro.
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "event.h"
#include "floe/avro/payload_schema.h"
#include "floe/avro/schema.h"
#include "floe/json/inference.h"
#include "floe/json/payload_schema.h"
#include "floe/proto/payload_schema.h"
#include "floe/proto/schema.h"

namespace floe::bench {

// One format's writer schema and its per-record selection, as the pipeline does it.
struct Payload {
  Format format;
  std::shared_ptr<const columnar::PayloadSchema> schema;
  std::shared_ptr<const proto::ProtoSchema> proto;  // protobuf
  json::JsonType inferred;                          // json
  json::Inference inference;                        // json

  static Result<Payload> Make(Format format, const std::vector<std::string>& sample) {
    Payload p{format, nullptr, nullptr, json::Object({}), json::Inference()};
    const std::string_view text = bench::EventSchema(format);
    switch (format) {
      case Format::kAvro: {
        FLOE_ASSIGN_OR_RETURN(auto parsed, avro::ParseSchema(text));
        FLOE_ASSIGN_OR_RETURN(p.schema, avro::RecordPayloadSchema(parsed));
        break;
      }
      case Format::kProtobuf: {
        FLOE_ASSIGN_OR_RETURN(p.proto, proto::ProtoSchema::Parse(text));
        const std::int32_t first[] = {0};
        FLOE_ASSIGN_OR_RETURN(auto message, p.proto->MessageFor(first));
        FLOE_ASSIGN_OR_RETURN(p.schema, proto::MessagePayloadSchema(p.proto, message));
        break;
      }
      case Format::kJsonSchema: {
        FLOE_ASSIGN_OR_RETURN(p.schema, json::JsonSchemaPayloadSchema(text));
        break;
      }
      case Format::kJson: {
        for (const auto& e : sample) {  // untimed: settle the inferred type
          FLOE_ASSIGN_OR_RETURN(auto widened, p.inference.FitOrWiden(p.inferred, e));
          if (widened) p.inferred = std::move(*widened);
        }
        FLOE_ASSIGN_OR_RETURN(p.schema, json::InferredPayloadSchema(p.inferred));
        break;
      }
    }
    return p;
  }

  // One record: `payload` is what follows the schema id (the whole value for json).
  Status Append(columnar::ValueDecoder& decoder, std::string_view payload) {
    switch (format) {
      case Format::kProtobuf: {
        FLOE_ASSIGN_OR_RETURN(auto selected, proto::SelectMessage(*proto, payload));
        return decoder.Append(selected.bytes);
      }
      case Format::kJson: {
        FLOE_ASSIGN_OR_RETURN(auto widened, inference.FitOrWiden(inferred, payload));
        if (widened) return Status::Internal("a record widened the settled type");
        return decoder.Append(payload);
      }
      default: return decoder.Append(payload);
    }
  }
};


// What the decoder is handed for event bytes from EncodeEvents: Protobuf's message-index byte
// [0] in front (the rest of the framing, magic and schema id, is read by the pipeline).
inline std::string PayloadPrefix(Format format) { return format == Format::kProtobuf ? std::string(1, '\0') : ""; }

}  // namespace floe::bench
