#pragma once
// Helpers shared by the JSON decoder tests: decoders from schema text, and column checks.
#include <arrow/api.h>
#include <arrow/json/from_string.h>
#include <gtest/gtest.h>

#include <memory>
#include <string>

#include "floe/json/payload_schema.h"

namespace floe::json::testing {

inline std::unique_ptr<columnar::ValueDecoder> ValueDecoderFor(const std::string& schema) {
  auto payload_schema = JsonSchemaPayloadSchema(schema);
  EXPECT_TRUE(payload_schema.ok()) << payload_schema.status().ToString();
  if (!payload_schema.ok()) return nullptr;
  auto decoder = (*payload_schema)->NewDecoder();
  EXPECT_TRUE(decoder.ok()) << decoder.status().ToString();
  return decoder.ok() ? std::move(*decoder) : nullptr;
}

// Flushes and checks the batch is well formed (children as long as their parents).
inline std::shared_ptr<arrow::RecordBatch> FlushValid(columnar::ValueDecoder& decoder) {
  auto batch = decoder.Flush();
  EXPECT_TRUE(batch.ok()) << batch.status().ToString();
  if (!batch.ok()) return nullptr;
  const arrow::Status valid = (*batch)->ValidateFull();
  EXPECT_TRUE(valid.ok()) << valid.ToString();
  return *batch;
}

inline void ExpectColumn(const arrow::RecordBatch& batch, const std::string& name, const std::string& expected_json) {
  auto column = batch.GetColumnByName(name);
  ASSERT_NE(column, nullptr) << name;
  auto expected = arrow::json::ArrayFromJSONString(column->type(), expected_json);
  ASSERT_TRUE(expected.ok()) << expected.status().ToString();
  EXPECT_TRUE(column->Equals(**expected)) << name << ": got " << column->ToString() << "\nexpected "
                                          << (*expected)->ToString();
}

// The status of appending one payload, checking that a failure appended nothing.
inline Status AppendChecked(columnar::ValueDecoder& decoder, const std::string& payload) {
  const std::int64_t before = decoder.num_rows();
  const Status validated = decoder.Validate(payload);
  Status st = decoder.Append(payload);
  EXPECT_EQ(validated.ok(), st.ok()) << payload << ": Validate says " << validated.ToString() << ", Append says "
                                     << st.ToString();
  EXPECT_EQ(decoder.num_rows(), before + (st.ok() ? 1 : 0)) << payload;
  return st;
}

}  // namespace floe::json::testing
