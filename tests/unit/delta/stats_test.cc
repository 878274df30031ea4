#include "floe/delta/stats.h"

#include <arrow/api.h>
#include <arrow/io/memory.h>
#include <arrow/json/from_string.h>
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>
#include <parquet/metadata.h>

#include "field_test_util.h"
#include "floe/columnar/parquet_file_writer.h"
#include "floe/delta/partition_values.h"
#include "floe/schema/arrow_schema.h"

namespace floe::delta {
namespace {

using schema::Type;
using schema::TypeId;
using testing::F;

std::shared_ptr<arrow::Array> Json(const std::shared_ptr<arrow::DataType>& type, const std::string& json) {
  auto array = arrow::json::ArrayFromJSONString(type, json);
  EXPECT_TRUE(array.ok()) << array.status().ToString();
  return *array;
}

TEST(DeltaStats, MinMaxNullCountByPhysicalName) {
  schema::Schema s;
  s.fields = {F(1, "id", Type::Primitive(TypeId::kLong)),
              F(2, "name", Type::Primitive(TypeId::kString)),
              F(3, "amount", Type::Decimal(9, 2)),
              F(4, "day", Type::Primitive(TypeId::kDate)),
              F(5, "ts", Type::Primitive(TypeId::kTimestampTz)),
              F(6, "flag", Type::Primitive(TypeId::kBoolean)),
              F(7, "st", Type::Struct({F(9, "x", Type::Primitive(TypeId::kInt))})),
              F(8, "tags", Type::List(F(10, "element", Type::Primitive(TypeId::kString))))};
  auto arrow_schema = *schema::ToArrowSchema(s);
  const std::string long_name(40, 'z');
  std::vector<std::shared_ptr<arrow::Array>> columns = {
      Json(arrow::int64(), "[3, -7, null]"),
      Json(arrow::utf8(), "[\"b\", \"a\", \"" + long_name + "\"]"),
      Json(arrow::decimal128(9, 2), R"(["12.34", "-0.50", null])"),
      Json(arrow::date32(), "[0, 20454, null]"),
      Json(arrow::timestamp(arrow::TimeUnit::MICRO, "UTC"), "[1500, -1500, null]"),
      Json(arrow::boolean(), "[true, false, null]"),
      Json(arrow_schema->field(6)->type(), R"([{"x": 1}, null, {"x": 5}])"),
      Json(arrow_schema->field(7)->type(), R"([["a"], [], null])")};
  auto batch = arrow::RecordBatch::Make(arrow_schema, 3, columns);
  auto sink = *arrow::io::BufferOutputStream::Create();
  auto writer = columnar::ParquetFileWriter::Open(sink, arrow_schema);
  ASSERT_TRUE(writer.ok()) << writer.status().ToString();
  ASSERT_TRUE((*writer)->Write(*batch).ok());
  auto written = (*writer)->Close();
  ASSERT_TRUE(written.ok()) << written.status().ToString();
  auto text = StatsJson(*written->metadata, s);
  ASSERT_TRUE(text.ok()) << text.status().ToString();
  auto j = nlohmann::json::parse(*text);
  EXPECT_EQ(j["numRecords"], 3);
  EXPECT_EQ(j["minValues"]["id"], -7);
  EXPECT_EQ(j["maxValues"]["id"], 3);
  EXPECT_EQ(j["minValues"]["name"], "a");
  EXPECT_FALSE(j["maxValues"].contains("name"));  // longer than 32 code points: no max
  EXPECT_EQ(j["minValues"]["day"], "1970-01-01");
  EXPECT_EQ(j["maxValues"]["day"], "2026-01-01");
  EXPECT_EQ(j["minValues"]["ts"], "1969-12-31T23:59:59.998Z");  // rounded outwards
  EXPECT_EQ(j["maxValues"]["ts"], "1970-01-01T00:00:00.002Z");
  EXPECT_FALSE(j["minValues"].contains("flag"));
  EXPECT_EQ(j["nullCount"]["flag"], 1);
  EXPECT_EQ(j["minValues"]["st"]["x"], 1);
  EXPECT_EQ(j["nullCount"]["st"]["x"], 1);
  EXPECT_FALSE(j["nullCount"].contains("tags"));
  EXPECT_EQ(j["nullCount"]["id"], 1);
  // Decimals keep every digit: the raw text, not a double.
  EXPECT_NE(text->find("\"amount\":-0.50"), std::string::npos) << *text;
  EXPECT_NE(text->find("\"amount\":12.34"), std::string::npos) << *text;
}

TEST(DeltaPartitionValues, DeltaStringForms) {
  auto str = [](schema::PartitionValue v, schema::TypePtr t) { return *PartitionValueString(v, *t); };
  EXPECT_EQ(str(std::nullopt, Type::Primitive(TypeId::kString)), std::nullopt);
  EXPECT_EQ(str(schema::Literal(std::int32_t{20454}), Type::Primitive(TypeId::kDate)), "2026-01-01");
  EXPECT_EQ(str(schema::Literal(std::int64_t{1'500'000}), Type::Primitive(TypeId::kTimestampTz)),
            "1970-01-01 00:00:01.500000");
  EXPECT_EQ(str(schema::Literal(true), Type::Primitive(TypeId::kBoolean)), "true");
  EXPECT_EQ(str(schema::Literal(std::string("\x04\xD2", 2)), Type::Decimal(6, 2)), "12.34");
  EXPECT_EQ(PartitionValueString(schema::Literal(std::string("x")), *Type::Primitive(TypeId::kBinary)).status().code(),
            StatusCode::kUnsupported);
}

}  // namespace
}  // namespace floe::delta
