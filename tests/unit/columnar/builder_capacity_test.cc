// Builders sized from their last batch (columnar/builder_capacity.h): what is learned from a
// finished batch is reserved in the same builders, child by child, and a batch longer or
// shorter than the one before still comes out exactly as appended.
#include "floe/columnar/builder_capacity.h"

#include <arrow/api.h>
#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <vector>

namespace floe::columnar {
namespace {

// event: struct<name: string, tags: list<int64>>, attrs: map<string, string>, payload: binary
std::vector<std::unique_ptr<arrow::ArrayBuilder>> MakeColumns() {
  const auto event = arrow::struct_({arrow::field("name", arrow::utf8()), arrow::field("tags", arrow::list(arrow::int64()))});
  std::vector<std::unique_ptr<arrow::ArrayBuilder>> columns;
  for (const auto& type : {event, arrow::map(arrow::utf8(), arrow::utf8()), arrow::binary()}) {
    columns.push_back(arrow::MakeBuilder(type).ValueOrDie());
  }
  return columns;
}

// Row i: name "event-i", i % 3 tags, one attribute, a payload of i % 50 bytes.
void AppendRows(std::vector<std::unique_ptr<arrow::ArrayBuilder>>& columns, int from, int to) {
  auto& event = static_cast<arrow::StructBuilder&>(*columns[0]);
  auto& name = static_cast<arrow::StringBuilder&>(*event.field_builder(0));
  auto& tags = static_cast<arrow::ListBuilder&>(*event.field_builder(1));
  auto& tag = static_cast<arrow::Int64Builder&>(*tags.value_builder());
  auto& attrs = static_cast<arrow::MapBuilder&>(*columns[1]);
  auto& payload = static_cast<arrow::BinaryBuilder&>(*columns[2]);
  for (int i = from; i < to; ++i) {
    ASSERT_TRUE(event.Append().ok());
    ASSERT_TRUE(name.Append("event-" + std::to_string(i)).ok());
    ASSERT_TRUE(tags.Append().ok());
    for (int t = 0; t < i % 3; ++t) ASSERT_TRUE(tag.Append(t).ok());
    ASSERT_TRUE(attrs.Append().ok());
    ASSERT_TRUE(static_cast<arrow::StringBuilder&>(*attrs.key_builder()).Append("k").ok());
    ASSERT_TRUE(static_cast<arrow::StringBuilder&>(*attrs.item_builder()).Append(std::to_string(i)).ok());
    ASSERT_TRUE(payload.Append(std::string(static_cast<std::size_t>(i % 50), 'x')).ok());
  }
}

arrow::ArrayVector Finish(std::vector<std::unique_ptr<arrow::ArrayBuilder>>& columns) {
  arrow::ArrayVector out;
  for (auto& c : columns) out.push_back(c->Finish().ValueOrDie());
  return out;
}

TEST(BuilderCapacity, ReservesWhatTheLastBatchHeldChildByChild) {
  auto columns = MakeColumns();
  BuilderCapacity capacity;
  ASSERT_TRUE(capacity.Reserve(columns).ok());  // nothing learned yet: nothing reserved
  EXPECT_EQ(columns[0]->capacity(), 0);

  AppendRows(columns, 0, 1000);
  const auto first = Finish(columns);
  capacity.Learn(first);
  ASSERT_EQ(capacity.learned().size(), 3u);
  // event, name, tags, tag | attrs, key, item | payload
  EXPECT_EQ(capacity.learned()[0].size(), 4u);
  EXPECT_EQ(capacity.learned()[1].size(), 3u);
  EXPECT_EQ(capacity.learned()[2].size(), 1u);
  EXPECT_EQ(capacity.learned()[0][3].length, 999);  // 0+1+2 tags per three rows
  EXPECT_EQ(capacity.learned()[2][0].value_bytes, 20 * (49 * 50 / 2));

  ASSERT_TRUE(capacity.Reserve(columns).ok());
  auto& event = static_cast<arrow::StructBuilder&>(*columns[0]);
  auto& name = static_cast<arrow::StringBuilder&>(*event.field_builder(0));
  auto& tags = static_cast<arrow::ListBuilder&>(*event.field_builder(1));
  auto& attrs = static_cast<arrow::MapBuilder&>(*columns[1]);
  auto& payload = static_cast<arrow::BinaryBuilder&>(*columns[2]);
  EXPECT_GE(event.capacity(), 1000);
  EXPECT_GE(name.capacity(), 1000);
  const auto& names = static_cast<const arrow::StructArray&>(*first[0]).field(0);
  EXPECT_EQ(capacity.learned()[0][1].value_bytes, static_cast<const arrow::StringArray&>(*names).total_values_length());
  EXPECT_GE(name.value_data_capacity(), capacity.learned()[0][1].value_bytes);
  EXPECT_GE(tags.value_builder()->capacity(), 999);
  EXPECT_GE(attrs.key_builder()->capacity(), 1000);
  EXPECT_GE(attrs.item_builder()->capacity(), 1000);
  EXPECT_GE(payload.value_data_capacity(), capacity.learned()[2][0].value_bytes);
  EXPECT_EQ(event.length(), 0);  // reserved, not appended
}

TEST(BuilderCapacity, BatchesLongerAndShorterThanTheReservationComeOutAsAppended) {
  auto columns = MakeColumns();
  BuilderCapacity capacity;
  for (const auto& [from, to] : std::vector<std::pair<int, int>>{{0, 300}, {300, 1500}, {1500, 1510}, {1510, 1511}}) {
    ASSERT_TRUE(capacity.Reserve(columns).ok());
    AppendRows(columns, from, to);
    const auto got = Finish(columns);
    capacity.Learn(got);

    auto expected_columns = MakeColumns();  // the same rows into builders never reserved
    AppendRows(expected_columns, from, to);
    const auto expected = Finish(expected_columns);
    for (std::size_t c = 0; c < got.size(); ++c) {
      ASSERT_TRUE(got[c]->ValidateFull().ok());
      EXPECT_TRUE(got[c]->Equals(*expected[c])) << "rows " << from << ".." << to << ", column " << c;
    }
  }
}

}  // namespace
}  // namespace floe::columnar
