#pragma once
// A schema text -> decoder in one call, and checks of decoded columns against JSON.
#include <arrow/api.h>
#include <arrow/json/from_string.h>
#include <google/protobuf/descriptor.h>
#include <gtest/gtest.h>

#include <memory>
#include <string>

#include "floe/proto/payload_schema.h"
#include "floe/proto/schema.h"

namespace floe::proto::testing {

struct TestDecoder {
  std::shared_ptr<const ProtoSchema> schema;
  const google::protobuf::Descriptor* message = nullptr;
  std::shared_ptr<const columnar::PayloadSchema> payload;
  std::unique_ptr<columnar::ValueDecoder> decoder;
  columnar::ValueDecoder* operator->() { return decoder.get(); }
};

// `message` empty: the file's first message. `key_column` non-empty: the key (struct) form.
inline TestDecoder MakeDecoder(const std::string& text, const std::string& message = {},
                               const std::string& key_column = {}) {
  TestDecoder d;
  auto schema = ProtoSchema::Parse(text);
  EXPECT_TRUE(schema.ok()) << schema.status().ToString();
  if (!schema.ok()) return d;
  d.schema = *schema;
  auto descriptor = message.empty() ? d.schema->MessageFor(std::vector<std::int32_t>{0}) : d.schema->FindMessage(message);
  EXPECT_TRUE(descriptor.ok()) << descriptor.status().ToString();
  if (!descriptor.ok()) return d;
  d.message = *descriptor;
  auto payload = key_column.empty() ? MessagePayloadSchema(d.schema, d.message)
                                    : FieldPayloadSchema(d.schema, d.message, key_column);
  EXPECT_TRUE(payload.ok()) << payload.status().ToString();
  if (!payload.ok()) return d;
  d.payload = *payload;
  auto decoder = d.payload->NewDecoder();
  EXPECT_TRUE(decoder.ok()) << decoder.status().ToString();
  if (decoder.ok()) d.decoder = std::move(*decoder);
  return d;
}

// The error a schema gets when it is turned into columns.
inline Status MappingError(const std::string& text) {
  auto schema = ProtoSchema::Parse(text);
  if (!schema.ok()) return schema.status();
  auto descriptor = (*schema)->MessageFor(std::vector<std::int32_t>{0});
  if (!descriptor.ok()) return descriptor.status();
  return MessagePayloadSchema(*schema, *descriptor).status();
}

inline std::shared_ptr<arrow::RecordBatch> Flush(columnar::ValueDecoder& decoder) {
  auto batch = decoder.Flush();
  EXPECT_TRUE(batch.ok()) << batch.status().ToString();
  if (!batch.ok()) return nullptr;
  EXPECT_TRUE((*batch)->ValidateFull().ok()) << (*batch)->ValidateFull().ToString();
  return *batch;
}

// Column `name` equals `json` (arrow::json::ArrayFromJSONString of the column's type).
inline void ExpectColumn(const arrow::RecordBatch& batch, const std::string& name, const std::string& json) {
  auto column = batch.GetColumnByName(name);
  ASSERT_TRUE(column) << "no column " << name;
  auto expected = arrow::json::ArrayFromJSONString(column->type(), json);
  ASSERT_TRUE(expected.ok()) << expected.status().ToString();
  EXPECT_TRUE(column->Equals(**expected)) << name << ": got " << column->ToString() << "\nexpected "
                                          << (*expected)->ToString();
}

}  // namespace floe::proto::testing
