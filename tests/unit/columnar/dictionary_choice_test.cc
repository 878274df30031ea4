// Which columns are written without a dictionary (columnar/dictionary_choice.h): near-unique
// and floating-point leaf columns, found from a sample; low-cardinality ones and columns with
// too few values keep the dictionary.
#include "floe/columnar/dictionary_choice.h"

#include <arrow/api.h>
#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace floe::columnar {
namespace {

std::shared_ptr<arrow::Array> Strings(std::int64_t n, int distinct) {
  arrow::StringBuilder b;
  for (std::int64_t i = 0; i < n; ++i) EXPECT_TRUE(b.Append("v" + std::to_string(i % distinct)).ok());
  return b.Finish().ValueOrDie();
}

std::shared_ptr<arrow::Array> Longs(std::int64_t n, int distinct) {
  arrow::Int64Builder b;
  for (std::int64_t i = 0; i < n; ++i) EXPECT_TRUE(b.Append(1'700'000'000'000 + i % distinct).ok());
  return b.Finish().ValueOrDie();
}

std::shared_ptr<arrow::Array> Doubles(std::int64_t n) {
  arrow::DoubleBuilder b;
  for (std::int64_t i = 0; i < n; ++i) EXPECT_TRUE(b.Append(static_cast<double>(i % 3)).ok());
  return b.Finish().ValueOrDie();
}

TEST(DictionaryChoice, NearUniqueAndFloatingPointColumnsArePlain) {
  const std::int64_t n = 1000;
  auto device = arrow::StructArray::Make(arrow::ArrayVector{Strings(n, 4), Longs(n, 1000)},
                                         std::vector<std::string>{"os", "serial"}).ValueOrDie();
  auto batch = arrow::RecordBatch::Make(
      arrow::schema({arrow::field("event_id", arrow::utf8()), arrow::field("country", arrow::utf8()),
                     arrow::field("ts", arrow::int64()), arrow::field("price", arrow::float64()),
                     arrow::field("device", device->type())}),
      n, {Strings(n, 1000), Strings(n, 20), Longs(n, 900), Doubles(n), device});
  EXPECT_EQ(PlainEncodedColumns(*batch), (std::vector<std::string>{"event_id", "ts", "price", "device.serial"}));
}

TEST(DictionaryChoice, TooFewValuesKeepTheDictionary) {
  arrow::StringBuilder b;
  for (int i = 0; i < 200; ++i) ASSERT_TRUE(i < 10 ? b.Append("id" + std::to_string(i)).ok() : b.AppendNull().ok());
  auto batch = arrow::RecordBatch::Make(arrow::schema({arrow::field("id", arrow::utf8())}), 200, {b.Finish().ValueOrDie()});
  EXPECT_TRUE(PlainEncodedColumns(*batch).empty());
}

}  // namespace
}  // namespace floe::columnar
