#include "floe/columnar/conform.h"

#include <arrow/api.h>
#include <arrow/extension/uuid.h>
#include <arrow/io/memory.h>
#include <arrow/json/from_string.h>
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>
#include <parquet/arrow/writer.h>
#include <parquet/file_reader.h>
#include <parquet/schema.h>

#include "floe/schema/arrow_schema.h"
#include "floe/schema/json.h"

namespace floe::columnar {
namespace {

using ArrayPtr = std::shared_ptr<arrow::Array>;
using BatchPtr = std::shared_ptr<arrow::RecordBatch>;

// The Arrow schema of a table schema whose field list is `fields` (Iceberg JSON), as the
// pipeline gets it from schema::ToArrowSchema: field ids in every field's metadata.
std::shared_ptr<arrow::Schema> Target(const std::string& fields) {
  const std::string text = R"({"type": "struct", "schema-id": 0, "fields": [)" + fields + "]}";
  Result<schema::Schema> table = schema::SchemaFromJson(nlohmann::json::parse(text));
  EXPECT_TRUE(table.ok()) << table.status().ToString();
  if (!table.ok()) return arrow::schema(arrow::FieldVector{});
  Result<std::shared_ptr<arrow::Schema>> arrow_schema = schema::ToArrowSchema(*table);
  EXPECT_TRUE(arrow_schema.ok()) << arrow_schema.status().ToString();
  return arrow_schema.ok() ? *arrow_schema : arrow::schema(arrow::FieldVector{});
}

ArrayPtr A(const std::shared_ptr<arrow::DataType>& type, const std::string& json) {
  auto array = arrow::json::ArrayFromJSONString(type, json);
  EXPECT_TRUE(array.ok()) << array.status().ToString() << "\n" << json;
  return array.ok() ? *array : nullptr;
}

BatchPtr Batch(arrow::FieldVector fields, arrow::ArrayVector columns) {
  const int64_t rows = columns.empty() ? 0 : columns.front()->length();
  return arrow::RecordBatch::Make(arrow::schema(std::move(fields)), rows, std::move(columns));
}

// Conforms and checks what every result must be: valid, and of exactly the target schema
// (field-id metadata included) down to the types of its columns.
BatchPtr MustConform(const arrow::RecordBatch& batch, const std::shared_ptr<arrow::Schema>& target) {
  Result<BatchPtr> out = ConformBatch(batch, target);
  EXPECT_TRUE(out.ok()) << out.status().ToString();
  if (!out.ok()) return nullptr;
  const BatchPtr& b = *out;
  EXPECT_TRUE(b->ValidateFull().ok()) << b->ValidateFull().ToString();
  EXPECT_TRUE(b->schema()->Equals(*target, /*check_metadata=*/true)) << b->schema()->ToString(true);
  EXPECT_EQ(b->num_rows(), batch.num_rows());
  for (int i = 0; i < b->num_columns(); ++i) {
    EXPECT_TRUE(b->column(i)->type()->Equals(*target->field(i)->type(), /*check_metadata=*/true))
        << "column " << i << " is " << b->column(i)->type()->ToString(true);
  }
  return b;
}

std::string ErrorOf(const arrow::RecordBatch& batch, const std::shared_ptr<arrow::Schema>& target) {
  Result<BatchPtr> out = ConformBatch(batch, target);
  EXPECT_FALSE(out.ok()) << "expected an error";
  if (out.ok()) return "";
  EXPECT_EQ(out.status().code(), StatusCode::kInvalidArgument);
  return out.status().message();
}

#define EXPECT_COLUMN(batch, name, json)                                                         \
  do {                                                                                           \
    const auto column_ = (batch)->GetColumnByName(name);                                         \
    ASSERT_NE(column_, nullptr) << (name);                                                      \
    const auto expected_ = A(column_->type(), json);                                             \
    EXPECT_TRUE(column_->Equals(*expected_)) << (name) << ": " << column_->ToString() << "\nexpected "  \
                                             << expected_->ToString();                           \
  } while (0)

#define EXPECT_CONTAINS(haystack, needle)                                                \
  do {                                                                                   \
    const std::string haystack_ = (haystack);                                            \
    EXPECT_NE(haystack_.find(needle), std::string::npos)                                 \
        << "expected to find \"" << (needle) << "\" in \"" << haystack_ << "\"";        \
  } while (0)

std::string FieldIdOf(const arrow::Field& f) {
  if (!f.metadata()) return "";
  auto v = f.metadata()->Get(schema::kParquetFieldIdKey);
  return v.ok() ? *v : "";
}

constexpr const char* kNested = R"(
  {"id": 1, "name": "id", "required": true, "type": "long"},
  {"id": 2, "name": "points", "required": false, "type": {"type": "list", "element-id": 3,
    "element-required": true, "element": {"type": "struct", "fields": [
      {"id": 4, "name": "x", "required": true, "type": "int"}]}}},
  {"id": 5, "name": "props", "required": false, "type": {"type": "map", "key-id": 6, "key": "string",
    "value-id": 7, "value-required": false, "value": "int"}})";

TEST(ConformBatch, SameTypesAreRelabelledWithoutCopyingData) {
  auto target = Target(kNested);
  // What a decoder builds: no metadata, Arrow's own list element name.
  auto points = arrow::list(arrow::field("item", arrow::struct_({arrow::field("x", arrow::int32(), false)}), false));
  auto batch = Batch({arrow::field("id", arrow::int64(), false), arrow::field("points", points),
                      arrow::field("props", arrow::map(arrow::utf8(), arrow::int32()))},
                     {A(arrow::int64(), "[1, 2]"), A(points, R"([[{"x": 1}], null])"),
                      A(arrow::map(arrow::utf8(), arrow::int32()), R"([[["a", 1]], []])")});
  BatchPtr out = MustConform(*batch, target);
  ASSERT_NE(out, nullptr);
  for (int i = 0; i < 3; ++i) {
    EXPECT_EQ(out->column_data(i)->buffers, batch->column_data(i)->buffers) << "column " << i << " was copied";
  }
  EXPECT_EQ(out->column_data(1)->child_data[0]->child_data[0]->buffers[1],
            batch->column_data(1)->child_data[0]->child_data[0]->buffers[1]);
  EXPECT_EQ(out->column(1)->type()->field(0)->name(), "element");
}

TEST(ConformBatch, OutputCarriesFieldIdsAtEveryLevel) {
  auto target = Target(kNested);
  // int16 elements need a cast, so this is the general path, not the relabelling one.
  auto points = arrow::list(arrow::field("item", arrow::struct_({arrow::field("x", arrow::int16(), false)}), false));
  auto batch = Batch({arrow::field("id", arrow::int64(), false), arrow::field("points", points)},
                     {A(arrow::int64(), "[1]"), A(points, R"([[{"x": 1}, {"x": 2}]])")});
  BatchPtr out = MustConform(*batch, target);
  ASSERT_NE(out, nullptr);
  const arrow::Schema& s = *out->schema();
  EXPECT_EQ(FieldIdOf(*s.field(0)), "1");
  EXPECT_EQ(FieldIdOf(*s.field(1)), "2");
  const auto& element = s.field(1)->type()->field(0);
  EXPECT_EQ(FieldIdOf(*element), "3");
  EXPECT_EQ(FieldIdOf(*element->type()->field(0)), "4");
  const auto& entries = s.field(2)->type()->field(0);
  EXPECT_EQ(FieldIdOf(*entries->type()->field(0)), "6");
  EXPECT_EQ(FieldIdOf(*entries->type()->field(1)), "7");
  EXPECT_COLUMN(out, "points", R"([[{"x": 1}, {"x": 2}]])");
  EXPECT_COLUMN(out, "props", "[null]");
}

TEST(ConformBatch, PromotesIntFloatAndDecimalPrecision) {
  auto target = Target(R"j(
      {"id": 1, "name": "qty", "required": true, "type": "long"},
      {"id": 2, "name": "ratio", "required": false, "type": "double"},
      {"id": 3, "name": "price", "required": false, "type": "decimal(12,2)"})j");
  auto batch = Batch({arrow::field("qty", arrow::int32(), false), arrow::field("ratio", arrow::float32()),
                      arrow::field("price", arrow::decimal128(10, 2))},
                     {A(arrow::int32(), "[1, -2147483648, 3]"), A(arrow::float32(), "[0.5, null, 2.25]"),
                      A(arrow::decimal128(10, 2), R"(["12345678.90", null, "-0.01"])")});
  BatchPtr out = MustConform(*batch, target);
  ASSERT_NE(out, nullptr);
  EXPECT_COLUMN(out, "qty", "[1, -2147483648, 3]");
  EXPECT_COLUMN(out, "ratio", "[0.5, null, 2.25]");
  EXPECT_COLUMN(out, "price", R"(["12345678.90", null, "-0.01"])");
}

TEST(ConformBatch, ConvertsOtherArrowEncodingsOfTheSameIcebergType) {
  auto target = Target(R"(
      {"id": 1, "name": "small", "required": false, "type": "int"},
      {"id": 2, "name": "text", "required": false, "type": "string"},
      {"id": 3, "name": "ts", "required": false, "type": "timestamp"},
      {"id": 4, "name": "tags", "required": false, "type": {"type": "list", "element-id": 5,
        "element-required": false, "element": "string"}},
      {"id": 6, "name": "code", "required": false, "type": "string"})");
  auto dict = arrow::DictionaryArray::FromArrays(arrow::dictionary(arrow::int8(), arrow::utf8()),
                                                 A(arrow::int8(), "[1, 0, null]"), A(arrow::utf8(), R"(["a", "b"])"));
  ASSERT_TRUE(dict.ok()) << dict.status().ToString();
  auto tags = arrow::large_list(arrow::large_utf8());
  auto batch = Batch({arrow::field("small", arrow::int16()), arrow::field("text", arrow::large_utf8()),
                      arrow::field("ts", arrow::timestamp(arrow::TimeUnit::MILLI)), arrow::field("tags", tags),
                      arrow::field("code", (*dict)->type())},
                     {A(arrow::int16(), "[1, null, -3]"), A(arrow::large_utf8(), R"(["x", "y", null])"),
                      A(arrow::timestamp(arrow::TimeUnit::MILLI), "[1, 2, null]"),
                      A(tags, R"([["a"], null, ["b", null]])"), *dict});
  BatchPtr out = MustConform(*batch, target);
  ASSERT_NE(out, nullptr);
  EXPECT_COLUMN(out, "small", "[1, null, -3]");
  EXPECT_COLUMN(out, "text", R"(["x", "y", null])");
  EXPECT_COLUMN(out, "ts", "[1000, 2000, null]");
  EXPECT_COLUMN(out, "tags", R"([["a"], null, ["b", null]])");
  EXPECT_COLUMN(out, "code", R"(["b", "a", null])");
}

TEST(ConformBatch, ReordersColumnsByName) {
  auto target = Target(R"(
      {"id": 1, "name": "a", "required": false, "type": "int"},
      {"id": 2, "name": "b", "required": false, "type": "string"},
      {"id": 3, "name": "c", "required": false, "type": "long"})");
  auto batch = Batch({arrow::field("c", arrow::int64()), arrow::field("a", arrow::int32()),
                      arrow::field("b", arrow::utf8())},
                     {A(arrow::int64(), "[30]"), A(arrow::int32(), "[10]"), A(arrow::utf8(), R"(["20"])")});
  BatchPtr out = MustConform(*batch, target);
  ASSERT_NE(out, nullptr);
  EXPECT_COLUMN(out, "a", "[10]");
  EXPECT_COLUMN(out, "b", R"(["20"])");
  EXPECT_COLUMN(out, "c", "[30]");
  // The data itself is shared with the input.
  EXPECT_EQ(out->column_data(0)->buffers[1], batch->column_data(1)->buffers[1]);
}

TEST(ConformBatch, MissingColumnsBecomeNulls) {
  auto target = Target(R"(
      {"id": 1, "name": "id", "required": true, "type": "long"},
      {"id": 2, "name": "note", "required": false, "type": "string"},
      {"id": 3, "name": "address", "required": false, "type": {"type": "struct", "fields": [
        {"id": 4, "name": "street", "required": true, "type": "string"}]}})");
  auto batch = Batch({arrow::field("id", arrow::int64(), false)}, {A(arrow::int64(), "[1, 2]")});
  BatchPtr out = MustConform(*batch, target);
  ASSERT_NE(out, nullptr);
  EXPECT_COLUMN(out, "note", "[null, null]");
  EXPECT_COLUMN(out, "address", "[null, null]");
  EXPECT_EQ(out->GetColumnByName("address")->null_count(), 2);
  EXPECT_EQ(out->GetColumnByName("address")->data()->child_data[0]->GetNullCount(), 0)
      << "a required child of an all-null struct holds no nulls (Parquet refuses them)";
}

TEST(ConformBatch, MissingNonNullableColumnIsAnErrorOnlyWhenRowsNeedIt) {
  auto target = Target(R"(
      {"id": 1, "name": "id", "required": true, "type": "long"},
      {"id": 2, "name": "qty", "required": true, "type": "int"})");
  auto batch = Batch({arrow::field("id", arrow::int64(), false)}, {A(arrow::int64(), "[1, 2]")});
  EXPECT_EQ(ErrorOf(*batch, target),
            "column 'qty' (int32) is not nullable in the target schema but missing from the batch, which has 2 "
            "row(s) that need a value");
  auto empty = Batch({arrow::field("id", arrow::int64(), false)}, {A(arrow::int64(), "[]")});
  BatchPtr out = MustConform(*empty, target);
  ASSERT_NE(out, nullptr);
  EXPECT_EQ(out->num_rows(), 0);
  // Inside a struct, only the rows where the struct is valid need it.
  auto nested = Target(R"({"id": 1, "name": "s", "required": false, "type": {"type": "struct", "fields": [
      {"id": 2, "name": "a", "required": false, "type": "int"},
      {"id": 3, "name": "b", "required": true, "type": "int"}]}})");
  auto s = arrow::struct_({arrow::field("a", arrow::int32())});
  EXPECT_TRUE(MustConform(*Batch({arrow::field("s", s)}, {A(s, "[null, null]")}), nested) != nullptr);
  EXPECT_CONTAINS(ErrorOf(*Batch({arrow::field("s", s)}, {A(s, R"([null, {"a": 1}])")}), nested),
                  "column 's.b' (int32) is not nullable in the target schema but missing from the batch, "
                  "which has 1 row");
}

TEST(ConformBatch, NestedStructGainsAFieldAndKeepsItsValidity) {
  auto target = Target(R"({"id": 1, "name": "address", "required": false, "type": {"type": "struct", "fields": [
      {"id": 2, "name": "street", "required": true, "type": "string"},
      {"id": 3, "name": "zip", "required": false, "type": "string"},
      {"id": 4, "name": "no", "required": false, "type": "long"}]}})");
  auto address = arrow::struct_({arrow::field("no", arrow::int32()), arrow::field("street", arrow::utf8(), false)});
  auto batch = Batch({arrow::field("address", address)},
                     {A(address, R"([{"no": 1, "street": "a"}, null, {"no": null, "street": "c"},
                                     {"no": 4, "street": "d"}, null])")});
  BatchPtr out = MustConform(*batch, target);
  ASSERT_NE(out, nullptr);
  EXPECT_COLUMN(out, "address", R"([{"street": "a", "zip": null, "no": 1}, null,
                                    {"street": "c", "zip": null, "no": null},
                                    {"street": "d", "zip": null, "no": 4}, null])");
  // Sliced at an offset that is not a whole byte of the validity bitmap.
  BatchPtr sliced = MustConform(*batch->Slice(1, 3), target);
  ASSERT_NE(sliced, nullptr);
  EXPECT_COLUMN(sliced, "address", R"([null, {"street": "c", "zip": null, "no": null},
                                       {"street": "d", "zip": null, "no": 4}])");
}

TEST(ConformBatch, NullsUnderANullParentDoNotBreakNonNullableChildren) {
  auto target = Target(R"({"id": 1, "name": "s", "required": false, "type": {"type": "struct", "fields": [
      {"id": 2, "name": "a", "required": true, "type": "long"}]}})");
  // A decoder may well append a null to every child of a null struct, non-nullable or not.
  auto validity = A(arrow::boolean(), "[true, false, true]");
  auto made = arrow::StructArray::Make({A(arrow::int32(), "[1, null, 3]")}, {arrow::field("a", arrow::int32(), false)},
                                       validity->data()->buffers[1], /*null_count=*/1);
  ASSERT_TRUE(made.ok()) << made.status().ToString();
  auto batch = Batch({arrow::field("s", (*made)->type())}, {*made});
  ASSERT_EQ(batch->column(0)->data()->child_data[0]->GetNullCount(), 1);
  BatchPtr out = MustConform(*batch, target);
  ASSERT_NE(out, nullptr);
  EXPECT_COLUMN(out, "s", R"([{"a": 1}, null, {"a": 3}])");
  // A null where the struct is valid is an error.
  auto nullable = arrow::struct_({arrow::field("a", arrow::int32())});
  auto bad = Batch({arrow::field("s", nullable)}, {A(nullable, R"([{"a": 1}, {"a": null}])")});
  EXPECT_EQ(ErrorOf(*bad, target), "column 's.a' has 1 null value(s), but the target field is not nullable");
}

TEST(ConformBatch, NullsInTheSegmentOfANullListDoNotCount) {
  auto target = Target(R"({"id": 1, "name": "tags", "required": false, "type": {"type": "list", "element-id": 2,
      "element-required": true, "element": "long"}})");
  // Arrow allows a null list to cover values; here row 1 is null but owns [null, null].
  auto offsets = A(arrow::int32(), "[0, 1, 3, 4]");
  auto values = A(arrow::int32(), "[1, null, null, 4]");
  auto validity = A(arrow::boolean(), "[true, false, true]");
  auto list = arrow::ListArray::FromArrays(*offsets, *values, arrow::default_memory_pool(),
                                           validity->data()->buffers[1], /*null_count=*/1);
  ASSERT_TRUE(list.ok()) << list.status().ToString();
  auto batch = Batch({arrow::field("tags", (*list)->type())}, {*list});
  BatchPtr out = MustConform(*batch, target);
  ASSERT_NE(out, nullptr);
  EXPECT_COLUMN(out, "tags", "[[1], null, [4]]");
}

TEST(ConformBatch, ByteAlignedSlicesShareTheValidityBitmap) {
  auto target = Target(R"({"id": 1, "name": "s", "required": false, "type": {"type": "struct", "fields": [
      {"id": 2, "name": "a", "required": false, "type": "long"}]}})");
  auto s = arrow::struct_({arrow::field("a", arrow::int32())});
  std::string json = "[";
  for (int i = 0; i < 20; ++i) {
    json += std::string(i ? ", " : "") + (i % 3 == 0 ? "null" : R"({"a": )" + std::to_string(i) + "}");
  }
  json += "]";
  auto batch = Batch({arrow::field("s", s)}, {A(s, json)});
  BatchPtr out = MustConform(*batch->Slice(8, 12), target);
  ASSERT_NE(out, nullptr);
  EXPECT_TRUE(out->column(0)->Equals(*A(out->column(0)->type(), json)->Slice(8, 12)));
  EXPECT_EQ(out->column(0)->null_count(), 4);
  EXPECT_EQ(out->column_data(0)->buffers[0]->data(), batch->column_data(0)->buffers[0]->data() + 1);
}

TEST(ConformBatch, UuidExtensionColumnsAreWrittenAsTheirStorage) {
  auto target = Target(R"({"id": 1, "name": "u", "required": false, "type": "uuid"})");
  auto storage = A(arrow::fixed_size_binary(16), R"(["0123456789abcdef", null])");
  auto uuids = arrow::ExtensionType::WrapArray(arrow::extension::uuid(), storage);
  auto batch = Batch({arrow::field("u", arrow::extension::uuid())}, {uuids});
  BatchPtr out = MustConform(*batch, target);
  ASSERT_NE(out, nullptr);
  EXPECT_COLUMN(out, "u", R"(["0123456789abcdef", null])");
}

TEST(ConformBatch, NullsUnderANullParentLeaveAnEqualSchemaWritable) {
  // The batch already has the target's types, but a non-nullable child holds nulls under
  // a null parent: the fast path must not keep them, Parquet would refuse the batch.
  auto target = Target(R"({"id": 1, "name": "s", "required": false, "type": {"type": "struct", "fields": [
      {"id": 2, "name": "a", "required": true, "type": "int"}]}})");
  auto validity = A(arrow::boolean(), "[true, false]");
  auto made = arrow::StructArray::Make({A(arrow::int32(), "[1, null]")}, {arrow::field("a", arrow::int32(), false)},
                                       validity->data()->buffers[1], /*null_count=*/1);
  ASSERT_TRUE(made.ok()) << made.status().ToString();
  auto batch = Batch({arrow::field("s", (*made)->type())}, {*made});
  BatchPtr out = MustConform(*batch, target);
  ASSERT_NE(out, nullptr);
  EXPECT_EQ(out->column(0)->null_count(), 1);
  EXPECT_EQ(out->column_data(0)->child_data[0]->GetNullCount(), 0);
  // Without such nulls the same batch takes the fast path and shares everything.
  auto clean = Batch({arrow::field("s", (*made)->type())}, {A((*made)->type(), R"([{"a": 1}, null])")});
  BatchPtr relabelled = MustConform(*clean, target);
  ASSERT_NE(relabelled, nullptr);
  EXPECT_EQ(relabelled->column_data(0)->buffers, clean->column_data(0)->buffers);
}

TEST(ConformBatch, ListOfStructsGainsAMember) {
  auto target = Target(R"({"id": 1, "name": "points", "required": false, "type": {"type": "list", "element-id": 2,
      "element-required": true, "element": {"type": "struct", "fields": [
        {"id": 3, "name": "x", "required": true, "type": "long"},
        {"id": 4, "name": "z", "required": false, "type": "string"}]}}})");
  auto points = arrow::list(arrow::field("item", arrow::struct_({arrow::field("x", arrow::int32(), false)}), false));
  auto batch = Batch({arrow::field("points", points)},
                     {A(points, R"([[{"x": 1}], null, [{"x": 2}, {"x": 3}], [], [{"x": 4}]])")});
  BatchPtr out = MustConform(*batch, target);
  ASSERT_NE(out, nullptr);
  EXPECT_COLUMN(out, "points", R"([[{"x": 1, "z": null}], null, [{"x": 2, "z": null}, {"x": 3, "z": null}], [],
                                   [{"x": 4, "z": null}]])");
  // A slice starts in the middle of the values: the offsets are rebased.
  BatchPtr sliced = MustConform(*batch->Slice(2, 3), target);
  ASSERT_NE(sliced, nullptr);
  EXPECT_COLUMN(sliced, "points", R"([[{"x": 2, "z": null}, {"x": 3, "z": null}], [], [{"x": 4, "z": null}]])");
  EXPECT_EQ(sliced->column(0)->data()->child_data[0]->length, 3);
  BatchPtr none = MustConform(*batch->Slice(5, 0), target);
  ASSERT_NE(none, nullptr);
  EXPECT_EQ(none->num_rows(), 0);
}

TEST(ConformBatch, MapValuesArePromoted) {
  auto target = Target(R"({"id": 1, "name": "props", "required": false, "type": {"type": "map", "key-id": 2,
      "key": "string", "value-id": 3, "value-required": false, "value": "long"}})");
  auto props = arrow::map(arrow::utf8(), arrow::int32());
  auto batch = Batch({arrow::field("props", props)},
                     {A(props, R"([[["a", 1], ["b", null]], null, [["c", 3]], [["d", 4], ["e", 5]]])")});
  BatchPtr out = MustConform(*batch, target);
  ASSERT_NE(out, nullptr);
  EXPECT_COLUMN(out, "props", R"([[["a", 1], ["b", null]], null, [["c", 3]], [["d", 4], ["e", 5]]])");
  BatchPtr sliced = MustConform(*batch->Slice(1, 3), target);
  ASSERT_NE(sliced, nullptr);
  EXPECT_COLUMN(sliced, "props", R"([null, [["c", 3]], [["d", 4], ["e", 5]]])");
}

TEST(ConformBatch, MapValueStructsGainFields) {
  auto target = Target(R"({"id": 1, "name": "m", "required": false, "type": {"type": "map", "key-id": 2,
      "key": "string", "value-id": 3, "value-required": false, "value": {"type": "struct", "fields": [
        {"id": 4, "name": "a", "required": false, "type": "int"},
        {"id": 5, "name": "b", "required": false, "type": "string"}]}}})");
  auto value = arrow::struct_({arrow::field("a", arrow::int32())});
  auto m = arrow::map(arrow::utf8(), value);
  auto batch = Batch({arrow::field("m", m)}, {A(m, R"([[["k", {"a": 1}], ["l", null]]])")});
  BatchPtr out = MustConform(*batch, target);
  ASSERT_NE(out, nullptr);
  EXPECT_COLUMN(out, "m", R"([[["k", {"a": 1, "b": null}], ["l", null]]])");
}

// What the pipeline does next: Parquet takes the conformed batch as it is, nulls under null
// parents of required fields and field ids included.
TEST(ConformBatch, OutputIsWritableAsParquetWithFieldIds) {
  auto target = Target(R"({"id": 1, "name": "s", "required": false, "type": {"type": "struct", "fields": [
      {"id": 2, "name": "a", "required": true, "type": "long"},
      {"id": 3, "name": "added", "required": false, "type": "string"}]}},
      {"id": 4, "name": "props", "required": false, "type": {"type": "map", "key-id": 5, "key": "string",
        "value-id": 6, "value-required": false, "value": "long"}},
      {"id": 7, "name": "missing", "required": false, "type": {"type": "struct", "fields": [
        {"id": 8, "name": "street", "required": true, "type": "string"}]}})");
  auto validity = A(arrow::boolean(), "[true, false, true]");
  auto s = arrow::StructArray::Make({A(arrow::int32(), "[1, null, 3]")}, {arrow::field("a", arrow::int32(), false)},
                                    validity->data()->buffers[1], /*null_count=*/1);
  ASSERT_TRUE(s.ok()) << s.status().ToString();
  auto props = arrow::map(arrow::utf8(), arrow::int32());
  auto batch = Batch({arrow::field("props", props), arrow::field("s", (*s)->type())},
                     {A(props, R"([[["k", 1]], null, []])"), *s});
  BatchPtr out = MustConform(*batch->Slice(1, 2), target);
  ASSERT_NE(out, nullptr);
  auto sink = arrow::io::BufferOutputStream::Create();
  ASSERT_TRUE(sink.ok());
  auto table = arrow::Table::FromRecordBatches({out});
  ASSERT_TRUE(table.ok()) << table.status().ToString();
  arrow::Status written = parquet::arrow::WriteTable(**table, arrow::default_memory_pool(), *sink, 1024);
  ASSERT_TRUE(written.ok()) << written.ToString();
  auto buffer = (*sink)->Finish();
  ASSERT_TRUE(buffer.ok());
  auto reader = parquet::ParquetFileReader::Open(std::make_shared<arrow::io::BufferReader>(*buffer));
  const parquet::SchemaDescriptor& schema = *reader->metadata()->schema();
  std::vector<int> ids;
  for (int i = 0; i < schema.num_columns(); ++i) ids.push_back(schema.Column(i)->schema_node()->field_id());
  EXPECT_EQ(ids, (std::vector<int>{2, 3, 5, 6, 8}));
  EXPECT_EQ(reader->metadata()->num_rows(), 2);
}

TEST(ConformBatch, ZeroRowBatches) {
  auto target = Target(kNested);
  auto batch = Batch({arrow::field("id", arrow::int32(), false)}, {A(arrow::int32(), "[]")});
  BatchPtr out = MustConform(*batch, target);
  ASSERT_NE(out, nullptr);
  EXPECT_EQ(out->num_rows(), 0);
  EXPECT_EQ(out->num_columns(), 3);
}

TEST(ConformBatch, RejectsColumnsTheTargetDoesNotHave) {
  auto target = Target(R"({"id": 1, "name": "a", "required": false, "type": "int"})");
  auto batch = Batch({arrow::field("a", arrow::int32()), arrow::field("extra", arrow::utf8())},
                     {A(arrow::int32(), "[1]"), A(arrow::utf8(), R"(["x"])")});
  EXPECT_EQ(ErrorOf(*batch, target), "column 'extra' (string) is not in the target schema");
  auto nested_target = Target(R"({"id": 1, "name": "s", "required": false, "type": {"type": "struct", "fields": [
      {"id": 2, "name": "a", "required": false, "type": "int"}]}})");
  auto s = arrow::struct_({arrow::field("a", arrow::int32()), arrow::field("b", arrow::int32())});
  EXPECT_EQ(ErrorOf(*Batch({arrow::field("s", s)}, {A(s, R"([{"a": 1, "b": 2}])")}), nested_target),
            "column 's.b' (int32) is not in the target schema");
  auto twice = Batch({arrow::field("a", arrow::int32()), arrow::field("a", arrow::int32())},
                     {A(arrow::int32(), "[1]"), A(arrow::int32(), "[2]")});
  EXPECT_EQ(ErrorOf(*twice, target), "column 'a' appears more than once in the batch");
}

TEST(ConformBatch, RejectsTypesThatCannotBeConverted) {
  auto target = Target(kNested);
  auto one = [](const std::string& name, const std::shared_ptr<arrow::DataType>& type, const std::string& json) {
    return Batch({arrow::field("id", arrow::int64(), false), arrow::field(name, type)},
                 {A(arrow::int64(), "[1]"), A(type, json)});
  };
  EXPECT_EQ(ErrorOf(*Batch({arrow::field("id", arrow::utf8(), false)}, {A(arrow::utf8(), R"(["1"])")}), target),
            "column 'id': cannot convert string to int64: only int -> long, float -> double, decimal precision "
            "widening, fixed/uuid -> binary and other Arrow encodings of the same Iceberg type are converted");
  auto wide_x = arrow::list(arrow::struct_({arrow::field("x", arrow::int64(), false)}));
  EXPECT_CONTAINS(ErrorOf(*one("points", wide_x, R"([[{"x": 1}]])"), target),
                  "column 'points.element.x': cannot convert int64 to int32");
  EXPECT_CONTAINS(ErrorOf(*one("points", arrow::int32(), "[1]"), target),
                  "column 'points': cannot convert int32 to list<element: struct<x: int32 not null> not null>");
  EXPECT_CONTAINS(ErrorOf(*one("props", arrow::list(arrow::utf8()), R"([["a"]])"), target),
                  "column 'props': cannot convert list<item: string> to map<string, int32>");
  EXPECT_CONTAINS(ErrorOf(*one("props", arrow::map(arrow::utf8(), arrow::utf8()), R"([[["a", "b"]]])"), target),
                  "column 'props.value': cannot convert string to int32");
  auto decimals = Target(R"j({"id": 1, "name": "price", "required": false, "type": "decimal(10,2)"})j");
  EXPECT_CONTAINS(ErrorOf(*Batch({arrow::field("price", arrow::decimal128(10, 3))},
                                 {A(arrow::decimal128(10, 3), R"(["1.000"])")}),
                          decimals),
                  "column 'price': cannot convert decimal128(10, 3) to decimal128(10, 2)");
}

TEST(ConformBatch, RejectsNullsInNonNullableColumns) {
  auto target = Target(R"({"id": 1, "name": "id", "required": true, "type": "long"})");
  auto batch = Batch({arrow::field("id", arrow::int32())}, {A(arrow::int32(), "[1, null, null]")});
  EXPECT_EQ(ErrorOf(*batch, target), "column 'id' has 2 null value(s), but the target field is not nullable");
  // Not in the rows of a slice without them.
  EXPECT_TRUE(MustConform(*batch->Slice(0, 1), target) != nullptr);
  auto list_target = Target(R"({"id": 1, "name": "tags", "required": false, "type": {"type": "list",
      "element-id": 2, "element-required": true, "element": "string"}})");
  auto tags = arrow::list(arrow::utf8());
  EXPECT_EQ(ErrorOf(*Batch({arrow::field("tags", tags)}, {A(tags, R"([["a"], ["b", null]])")}), list_target),
            "column 'tags.element' has 1 null value(s), but the target field is not nullable");
}

TEST(ConformBatch, FixedBecomesBinaryForFormatsWithoutFixed) {
  // Delta has no fixed type: its table schema says binary, the decoder built fixed[4].
  auto batch = Batch({arrow::field("fx", arrow::fixed_size_binary(4))},
                     {A(arrow::fixed_size_binary(4), R"(["abcd", null])")});
  auto target = arrow::schema({arrow::field("fx", arrow::binary())});
  auto out = MustConform(*batch, target);
  ASSERT_NE(out, nullptr);
  EXPECT_COLUMN(out, "fx", R"(["abcd", null])");
  // Not the other way: binary of any length cannot become fixed[4].
  auto back = Batch({arrow::field("fx", arrow::binary())}, {A(arrow::binary(), R"(["abcd"])")});
  EXPECT_CONTAINS(ErrorOf(*back, arrow::schema({arrow::field("fx", arrow::fixed_size_binary(4))})), "fx");
}

}  // namespace
}  // namespace floe::columnar
