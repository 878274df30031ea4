// Fuzz target: Confluent Protobuf payloads (the bytes after the schema id) against the fixed
// schema schemas/fuzz.proto. Per record: SelectMessage (message-index framing), then the
// message bytes into the value decoder (MessagePayloadSchema) and the key decoder
// (FieldPayloadSchema) of the selected message, under DecoderCheck's invariants. Beyond them:
//  - the value and key forms accept the same messages (one plan, two layouts);
//  - libprotobuf is the oracle: a message it refuses to parse must be refused (Floe is only
//    ever stricter: type_mapping.h), and a message both accept must decode to the values
//    libprotobuf parsed (canonical text of tests/unit/proto/oracle_canon.h), except columns
//    holding proto2 (closed) enums, which differ by design.
#include <google/protobuf/descriptor.h>
#include <google/protobuf/dynamic_message.h>
#include <google/protobuf/stubs/logging.h>

#include <arrow/api.h>

#include <map>
#include <memory>

#include "floe/proto/payload_schema.h"
#include "floe/proto/schema.h"
#include "fuzz_check.h"
#include "fuzz_schemas.h"
#include "oracle_canon.h"

namespace floe::fuzz {
namespace {

namespace gp = google::protobuf;

// libprotobuf's last complaint (it logs why a parse failed), for the failure message.
std::string& LastLibprotobufLog() {
  static std::string* last = new std::string();
  return *last;
}

bool HasClosedEnum(const gp::Descriptor& message, int depth = 0);

bool HasClosedEnum(const gp::FieldDescriptor& field, int depth) {
  if (field.enum_type() != nullptr) return field.enum_type()->file()->syntax() == gp::FileDescriptor::SYNTAX_PROTO2;
  return field.message_type() != nullptr && HasClosedEnum(*field.message_type(), depth + 1);
}

bool HasClosedEnum(const gp::Descriptor& message, int depth) {
  if (depth > 32) return false;  // the fuzz schema is not recursive; this only bounds the walk
  for (int i = 0; i < message.field_count(); ++i) {
    if (HasClosedEnum(*message.field(i), depth)) return true;
  }
  return false;
}

// What is parsed once per process: the schema, and per message its two payload schemas.
struct Fixture {
  struct Forms {
    Status status;  // why the message has no payload schemas (e.g. a map entry refused)
    std::shared_ptr<const columnar::PayloadSchema> value, key;
  };

  Fixture() {
    gp::SetLogHandler([](gp::LogLevel, const char*, int, const std::string& message) { LastLibprotobufLog() = message; });
    auto parsed = proto::ProtoSchema::Parse(
        kFuzzProto,
        [](const std::string& name) -> Result<std::string> {
          if (name == "fuzz_legacy.proto") return std::string(kFuzzLegacyProto);
          return Status::NotFound("no import " + name);
        },
        "fuzz.proto");
    CheckOk(parsed.status(), "parsing schemas/fuzz.proto");
    schema = *parsed;
  }

  const Forms& FormsOf(const gp::Descriptor* message) {
    auto [it, added] = forms.try_emplace(message);
    if (!added) return it->second;
    auto value = proto::MessagePayloadSchema(schema, message);
    auto key = proto::FieldPayloadSchema(schema, message, "key");
    Check(value.ok() == key.ok(), "the value and key forms of " + message->full_name() + " disagree on the schema");
    if (!value.ok()) {
      Check(value.status().code() == StatusCode::kInvalidArgument || value.status().code() == StatusCode::kUnsupported,
            "a refused message schema: " + value.status().ToString());
      it->second.status = value.status();
      return it->second;
    }
    it->second.value = *value;
    it->second.key = *key;
    return it->second;
  }

  std::shared_ptr<const proto::ProtoSchema> schema;
  std::map<const gp::Descriptor*, Forms> forms;
  gp::DynamicMessageFactory factory;
};

Fixture& TheFixture() {
  static Fixture* fixture = new Fixture();  // never destroyed: libFuzzer exits without unwinding
  return *fixture;
}

// The decoders of one message, for one input.
struct Decoders {
  std::unique_ptr<DecoderCheck> value, key;
};

void CompareWithLibprotobuf(const gp::Descriptor& message, std::string_view bytes, bool accepted,
                            const arrow::RecordBatch* row) {
  Fixture& f = TheFixture();
  std::unique_ptr<gp::Message> parsed(f.factory.GetPrototype(&message)->New());
  LastLibprotobufLog().clear();
  const bool parses = parsed->ParseFromArray(bytes.data(), static_cast<int>(bytes.size()));
  if (!parses) {
    Check(!accepted, "Floe accepted a " + message.full_name() + " that libprotobuf refuses to parse (" +
                         LastLibprotobufLog() + "): " + proto::testing::Hex(bytes.substr(0, 512)));
    return;
  }
  if (!accepted || row == nullptr) return;
  for (int c = 0; c < message.field_count(); ++c) {
    const gp::FieldDescriptor* field = message.field(c);
    if (HasClosedEnum(*field, 0)) continue;
    const std::string got = proto::testing::CanonArrow(*row->column(c), 0);
    const std::string want = proto::testing::CanonField(*parsed, field);
    Check(got == want, message.full_name() + "." + field->name() + ": decoded " + got + ", libprotobuf parsed " + want);
  }
}

}  // namespace
}  // namespace floe::fuzz

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace floe::fuzz;
  Fixture& f = TheFixture();
  std::map<const google::protobuf::Descriptor*, Decoders> decoders;
  for (const Record& record : SplitRecords(data, size)) {
    if (record.flush_before) {
      for (auto& [message, d] : decoders) {
        d.value->Flush();
        d.key->AppendNull();  // a tombstone key between batches
      }
    }
    auto selected = floe::proto::SelectMessage(*f.schema, record.payload);
    if (!selected.ok()) {
      Check(selected.status().code() == floe::StatusCode::kInvalidArgument,
            "SelectMessage refused with " + selected.status().ToString());
      continue;
    }
    const auto& forms = f.FormsOf(selected->message);
    if (!forms.value) continue;
    auto [it, added] = decoders.try_emplace(selected->message);
    if (added) {
      it->second.value = DecoderCheck::Make(*forms.value);
      it->second.key = DecoderCheck::Make(*forms.key, /*light=*/true);
    }
    const bool accepted = it->second.value->Append(selected->bytes);
    Check(it->second.key->Append(selected->bytes) == accepted, "the value and key forms disagree on a message");
    CompareWithLibprotobuf(*selected->message, selected->bytes, accepted, it->second.value->last_row().get());
  }
  for (auto& [message, d] : decoders) {
    d.value->Finish();
    d.key->Finish();
  }
  return 0;
}
