// Schemaless JSON writer schemas (pipeline/writer_schemas_inferred.cc): inference starts from
// the table's value columns, widens per record, and a widening becomes current only once the
// table accepted it.
#include <arrow/api.h>
#include <gtest/gtest.h>

#include "floe/pipeline/writer_schemas.h"
#include "floe/schema/arrow_schema.h"

namespace floe::pipeline {
namespace {

// A table that only reports its columns: the other calls are not made by WriterSchemas.
class ColumnsOnlySink final : public sink::TableSink {
 public:
  explicit ColumnsOnlySink(std::optional<schema::Schema> columns) : columns_(std::move(columns)) {}
  std::string name() const override { return "t"; }
  Result<sink::TopicOffsets> LoadOffsets() override { return Status::Internal("not used"); }
  Result<std::optional<schema::Schema>> Columns() override {
    ++columns_calls;
    return columns_;
  }
  Result<sink::SchemaChange> EnsureColumns(const schema::Schema&) override { return Status::Internal("not used"); }
  Result<sink::CommitReport> Commit(const std::vector<sink::PartitionFlush>&) override {
    return Status::Internal("not used");
  }
  int columns_calls = 0;

 private:
  std::optional<schema::Schema> columns_;
};

TopicConfig JsonTopic() {
  TopicConfig topic;
  topic.name = "clicks";
  topic.value = PayloadFormat::kJson;
  return topic;
}

std::string ValueColumns(const WriterSchema& schema) { return schema.columns->ToString(); }

TEST(WriterSchemasInferredTest, NewTableStartsEmptyAndWidensOnlyWhenAccepted) {
  const TopicConfig topic = JsonTopic();
  ColumnsOnlySink table(std::nullopt);
  WriterSchemas schemas(topic, nullptr, &table);

  auto first = schemas.Resolve(R"({"a": 1, "n": null})");
  ASSERT_TRUE(first.ok()) << first.status().ToString();
  EXPECT_EQ(first->schema->id, kInferredSchemaId);
  EXPECT_EQ(ValueColumns(*first->schema), "a: int64");
  // Not accepted yet: the same widening is the same candidate.
  auto again = schemas.Resolve(R"({"a": 2, "n": null})");
  ASSERT_TRUE(again.ok());
  EXPECT_EQ(again->schema, first->schema);
  schemas.Accepted(*first->schema);

  auto fits = schemas.Resolve(R"({"a": 3})");
  ASSERT_TRUE(fits.ok());
  EXPECT_EQ(fits->schema, first->schema);
  auto wider = schemas.Resolve(R"({"b": "x", "a": 4})");
  ASSERT_TRUE(wider.ok());
  EXPECT_EQ(ValueColumns(*wider->schema), "a: int64\nb: string");
  EXPECT_EQ(table.columns_calls, 1);  // the table is read once
}

TEST(WriterSchemasInferredTest, RefusedWideningDoesNotBecomeCurrent) {
  const TopicConfig topic = JsonTopic();
  ColumnsOnlySink table(std::nullopt);
  WriterSchemas schemas(topic, nullptr, &table);
  auto longs = schemas.Resolve(R"({"a": 1})");
  ASSERT_TRUE(longs.ok());
  schemas.Accepted(*longs->schema);

  auto doubles = schemas.Resolve(R"({"a": 1.5})");
  ASSERT_TRUE(doubles.ok());
  EXPECT_EQ(ValueColumns(*doubles->schema), "a: double");
  // The table refused it (no Accepted): later integers still fit the long column.
  auto next = schemas.Resolve(R"({"a": 2})");
  ASSERT_TRUE(next.ok());
  EXPECT_EQ(next->schema, longs->schema);
}

TEST(WriterSchemasInferredTest, StartsFromTheTableValueColumnsWithoutFloeColumns) {
  const TopicConfig topic = JsonTopic();
  auto arrow_columns = arrow::schema({arrow::field("small", arrow::int32()), arrow::field("name", arrow::utf8()),
                                      arrow::field("odd", arrow::fixed_size_binary(16)),
                                      arrow::field("_kafka", arrow::struct_({arrow::field("offset", arrow::int64())}))});
  auto columns = schema::FromArrowSchema(*arrow_columns);
  ASSERT_TRUE(columns.ok()) << columns.status().ToString();
  ColumnsOnlySink table(*columns);
  WriterSchemas schemas(topic, nullptr, &table);

  // Fits the table as it is: the int column stays int, the system column is not a value column,
  // and the column JSON cannot fill is left out (and null).
  auto fits = schemas.Resolve(R"({"small": 7, "name": "x"})");
  ASSERT_TRUE(fits.ok()) << fits.status().ToString();
  EXPECT_EQ(ValueColumns(*fits->schema), "small: int32\nname: string");
}

TEST(WriterSchemasInferredTest, BadJsonAndConflictsAreBadRecords) {
  const TopicConfig topic = JsonTopic();
  ColumnsOnlySink table(std::nullopt);
  WriterSchemas schemas(topic, nullptr, &table);
  auto strings = schemas.Resolve(R"({"a": "x"})");
  ASSERT_TRUE(strings.ok());
  schemas.Accepted(*strings->schema);

  for (const char* bad : {R"({"a": 1)", "[1]", R"({"a": {"b": 1}})"}) {
    auto resolved = schemas.Resolve(bad);
    ASSERT_FALSE(resolved.ok()) << bad;
    EXPECT_EQ(resolved.status().code(), StatusCode::kInvalidArgument) << bad;
  }

  TopicConfig as_text = JsonTopic();
  as_text.json_conflicts_as_text = true;
  WriterSchemas loose(as_text, nullptr, &table);
  auto first = loose.Resolve(R"({"a": "x"})");
  ASSERT_TRUE(first.ok());
  loose.Accepted(*first->schema);
  auto object = loose.Resolve(R"({"a": {"b": 1}})");
  ASSERT_TRUE(object.ok()) << object.status().ToString();
  EXPECT_EQ(ValueColumns(*object->schema), "a: string");  // JSON text: still a string column
}

}  // namespace
}  // namespace floe::pipeline
