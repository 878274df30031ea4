#include "floe/columnar/system_columns.h"

#include <arrow/api.h>
#include <gtest/gtest.h>

namespace floe::columnar {
namespace {

TEST(SystemColumns, NestedLayoutHoldsEveryField) {
  auto builder = SystemColumnsBuilder::Make(SystemColumnsLayout::kNested);
  ASSERT_TRUE(builder.ok());
  std::vector<HeaderView> headers{{"trace", std::string_view("abc")}, {"empty", std::nullopt}};
  RecordMetadata r;
  r.topic = "orders";
  r.partition = 3;
  r.offset = 42;
  r.timestamp_ms = 1'700'000'000'123;
  r.timestamp_type = "CreateTime";
  r.key = std::string_view("k\0y", 3);
  r.headers = headers;
  ASSERT_TRUE((*builder)->Append(r).ok());
  RecordMetadata none;
  none.topic = "orders";
  none.timestamp_type = "CreateTime";
  ASSERT_TRUE((*builder)->Append(none).ok());
  EXPECT_EQ((*builder)->num_rows(), 2);

  auto arrays = (*builder)->Finish();
  ASSERT_TRUE(arrays.ok());
  ASSERT_EQ(arrays->size(), 1u);
  const auto fields = SystemColumnsBuilder::Fields(SystemColumnsLayout::kNested);
  ASSERT_TRUE((*arrays)[0]->type()->Equals(*fields[0]->type()));
  ASSERT_TRUE((*arrays)[0]->ValidateFull().ok());
  auto kafka = std::static_pointer_cast<arrow::StructArray>((*arrays)[0]);
  auto ts = std::static_pointer_cast<arrow::TimestampArray>(kafka->GetFieldByName("timestamp"));
  EXPECT_EQ(ts->Value(0), 1'700'000'000'123'000);  // micros
  EXPECT_TRUE(ts->IsNull(1));
  auto key = std::static_pointer_cast<arrow::BinaryArray>(kafka->GetFieldByName("key"));
  EXPECT_EQ(key->GetView(0), std::string_view("k\0y", 3));
  EXPECT_TRUE(key->IsNull(1));
  auto offset = std::static_pointer_cast<arrow::Int64Array>(kafka->GetFieldByName("offset"));
  EXPECT_EQ(offset->Value(0), 42);
  auto list = std::static_pointer_cast<arrow::ListArray>(kafka->GetFieldByName("headers"));
  EXPECT_EQ(list->value_length(0), 2);
  EXPECT_EQ(list->value_length(1), 0);
  auto header = std::static_pointer_cast<arrow::StructArray>(list->values());
  auto value = std::static_pointer_cast<arrow::BinaryArray>(header->GetFieldByName("value"));
  EXPECT_EQ(value->GetView(0), "abc");
  EXPECT_TRUE(value->IsNull(1));
  EXPECT_TRUE(kafka->GetFieldByName("leader_epoch")->IsNull(0));

  // The builder starts over after Finish.
  EXPECT_EQ((*builder)->num_rows(), 0);
  auto empty = (*builder)->Finish();
  ASSERT_TRUE(empty.ok());
  EXPECT_EQ((*empty)[0]->length(), 0);
}

TEST(SystemColumns, TableflowLayoutIsFlat) {
  const auto fields = SystemColumnsBuilder::Fields(SystemColumnsLayout::kTableflow);
  std::vector<std::string> names;
  for (const auto& f : fields) names.push_back(f->name());
  EXPECT_EQ(names, (std::vector<std::string>{"$$topic", "$$partition", "$$offset", "$$timestamp", "$$headers",
                                             "$$leader-epoch"}));
  auto builder = SystemColumnsBuilder::Make(SystemColumnsLayout::kTableflow);
  ASSERT_TRUE(builder.ok());
  RecordMetadata r;
  r.topic = "t";
  r.offset = 9;
  r.leader_epoch = 4;
  r.timestamp_type = "LogAppendTime";
  ASSERT_TRUE((*builder)->Append(r).ok());
  auto arrays = (*builder)->Finish();
  ASSERT_TRUE(arrays.ok());
  ASSERT_EQ(arrays->size(), fields.size());
  for (std::size_t i = 0; i < fields.size(); ++i) {
    EXPECT_TRUE((*arrays)[i]->type()->Equals(*fields[i]->type())) << fields[i]->name();
    EXPECT_EQ((*arrays)[i]->length(), 1);
  }
  EXPECT_EQ(std::static_pointer_cast<arrow::Int64Array>((*arrays)[2])->Value(0), 9);
  EXPECT_EQ(std::static_pointer_cast<arrow::Int32Array>((*arrays)[5])->Value(0), 4);
}

}  // namespace
}  // namespace floe::columnar
