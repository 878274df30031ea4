// The decode stage (pipeline/decode_stage.h) on real partition buffers of a `value: string`
// topic: each partition's records are appended in the order given, whatever thread runs them;
// a refused record stops only its own partition, and comes back first with the ones after it.
// Also the buffer's memory accounting: a flushed segment counts what its columns take.
#include "floe/pipeline/decode_stage.h"

#include <arrow/api.h>
#include <arrow/util/byte_size.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <string>

#include "floe/pipeline/topic_state.h"

namespace floe::pipeline {
namespace {

TopicConfig StringTopic() {
  TopicConfig topic;
  topic.name = "orders";
  topic.table = "kafka.orders";
  topic.value = PayloadFormat::kString;
  topic.key = PayloadFormat::kBytes;
  return topic;
}

std::string Value(std::int32_t p, std::int64_t o) { return "p" + std::to_string(p) + "-o" + std::to_string(o); }

kafka::Record MakeRecord(std::int32_t p, std::int64_t o, std::string value) {
  kafka::RecordData r;
  r.topic = "orders";
  r.partition = p;
  r.offset = o;
  r.timestamp_ms = 1'700'000'000'000 + o;
  r.value = std::move(value);
  return kafka::Record(std::move(r));
}

// The `value` column of everything a buffer holds, flushed in order.
std::vector<std::string> Values(PartitionBuffer& buffer) {
  std::vector<std::string> out;
  auto flush = buffer.BeginFlush();
  EXPECT_TRUE(flush.ok()) << flush.status().ToString();
  if (!flush.ok()) return out;
  for (const auto& batch : (*flush)->batches) {
    auto column = std::static_pointer_cast<arrow::StringArray>(batch->GetColumnByName("value"));
    EXPECT_NE(column, nullptr) << batch->schema()->ToString();
    if (column == nullptr) continue;
    for (std::int64_t i = 0; i < column->length(); ++i) out.push_back(column->GetString(i));
  }
  return out;
}

class DecodeStageTest : public ::testing::Test {
 protected:
  void SetUp() override {
    topic_.config = StringTopic();
    topic_.schemas = std::make_unique<WriterSchemas>(topic_.config, nullptr, nullptr);
    for (std::int32_t p = 0; p < 3; ++p) {
      auto buffer = PartitionBuffer::Make(topic_.config, *topic_.schemas, p, std::nullopt);
      ASSERT_TRUE(buffer.ok()) << buffer.status().ToString();
      topic_.partitions[p].phase = PartitionPhase::kReading;
      topic_.partitions[p].buffer = std::move(*buffer);
    }
  }

  DecodeStage::Item ItemFor(std::int32_t p, std::int64_t o, std::string value) {
    auto resolved = topic_.schemas->Resolve(value);
    EXPECT_TRUE(resolved.ok()) << resolved.status().ToString();
    DecodeStage::Item item{MakeRecord(p, o, std::move(value)), resolved->schema, {}, std::nullopt, &topic_,
                           &topic_.partitions[p], 0};
    item.payload = *item.record.value();  // a view into the record's own bytes
    return item;
  }

  TopicState topic_;
};

// Records of three partitions interleaved in runs, as fetches deliver them, on two threads:
// every partition's column holds its records in offset order, none lost or repeated.
TEST_F(DecodeStageTest, EachPartitionsRecordsAreAppendedInOrder) {
  DecodeStage stage(2);
  std::vector<DecodeStage::Item> batch;
  std::map<std::int32_t, std::int64_t> next;
  for (int run = 0; run < 30; ++run) {
    const std::int32_t p = run % 3;
    for (int i = 0; i < 100 + run; ++i) {
      const std::int64_t o = next[p]++;
      batch.push_back(ItemFor(p, o, Value(p, o)));
    }
  }
  stage.Submit(batch);
  EXPECT_TRUE(batch.empty());
  EXPECT_TRUE(stage.in_flight());
  EXPECT_TRUE(stage.Join().empty());
  EXPECT_FALSE(stage.in_flight());
  for (std::int32_t p = 0; p < 3; ++p) {
    SCOPED_TRACE(p);
    auto& buffer = *topic_.partitions[p].buffer;
    EXPECT_EQ(buffer.next_offset(), next[p]);
    const auto values = Values(buffer);
    ASSERT_EQ(values.size(), static_cast<std::size_t>(next[p]));
    for (std::int64_t o = 0; o < next[p]; ++o) EXPECT_EQ(values[o], Value(p, o));
  }
}

// Batch after batch through the same stage: each comes back empty with the capacity of the one
// before it, and a partition's records of consecutive batches go in in order.
TEST_F(DecodeStageTest, ConsecutiveBatchesReuseStorageAndKeepOrder) {
  DecodeStage stage(2);
  std::vector<DecodeStage::Item> batch;
  std::map<std::int32_t, std::int64_t> next;
  std::size_t largest = 0;
  for (int round = 0; round < 4; ++round) {
    EXPECT_GE(batch.capacity(), round < 2 ? 0 : largest) << round;
    for (int i = 0; i < 200; ++i) {
      const std::int32_t p = (i / 25) % 3;
      const std::int64_t o = next[p]++;
      batch.push_back(ItemFor(p, o, Value(p, o)));
    }
    largest = std::max(largest, batch.size());
    stage.Submit(batch);
    EXPECT_TRUE(batch.empty());
    EXPECT_TRUE(stage.Join().empty());
  }
  for (std::int32_t p = 0; p < 3; ++p) {
    SCOPED_TRACE(p);
    const auto values = Values(*topic_.partitions[p].buffer);
    ASSERT_EQ(values.size(), static_cast<std::size_t>(next[p]));
    for (std::int64_t o = 0; o < next[p]; ++o) EXPECT_EQ(values[o], Value(p, o));
  }
}

// A record its buffer refuses (not UTF-8 under `value: string`) stops its partition there: the
// records before it are appended, it and those after it come back in order; the other
// partitions are appended whole.
TEST_F(DecodeStageTest, RefusedRecordStopsOnlyItsPartition) {
  DecodeStage stage(2);
  std::vector<DecodeStage::Item> batch;
  for (std::int64_t o = 0; o < 50; ++o) {
    batch.push_back(ItemFor(0, o, o == 20 ? std::string("\xff\xfe") : Value(0, o)));
    batch.push_back(ItemFor(1, o, Value(1, o)));
  }
  stage.Submit(batch);
  auto refused = stage.Join();
  ASSERT_EQ(refused.size(), 1u);
  EXPECT_NE(refused[0].why.message().find("UTF-8"), std::string::npos) << refused[0].why.ToString();
  ASSERT_EQ(refused[0].items.size(), 30u);
  for (std::size_t i = 0; i < refused[0].items.size(); ++i) {
    EXPECT_EQ(refused[0].items[i].record.partition(), 0);
    EXPECT_EQ(refused[0].items[i].record.offset(), static_cast<std::int64_t>(20 + i));
  }
  EXPECT_EQ(topic_.partitions[0].buffer->next_offset(), 20);
  EXPECT_EQ(Values(*topic_.partitions[0].buffer).size(), 20u);
  EXPECT_EQ(topic_.partitions[1].buffer->next_offset(), 50);
  EXPECT_EQ(Values(*topic_.partitions[1].buffer).size(), 50u);
}

// buffer_memory counts a closed segment by what its Arrow columns take, not by the per-record
// guess; the next segment's guess is scaled by what the last one cost.
TEST_F(DecodeStageTest, FlushedBytesAreWhatTheColumnsTake) {
  auto& buffer = *topic_.partitions[2].buffer;
  for (std::int64_t o = 0; o < 5000; ++o) {
    auto item = ItemFor(2, o, std::string(40, 'x') + std::to_string(o));
    ASSERT_TRUE(buffer.Append(item.record, *item.schema, item.payload, item.key_payload).ok());
  }
  auto flush = buffer.BeginFlush();
  ASSERT_TRUE(flush.ok()) << flush.status().ToString();
  std::int64_t actual = 0;
  for (const auto& batch : (*flush)->batches) actual += arrow::util::TotalBufferSize(*batch);
  EXPECT_EQ((*flush)->bytes, actual);
  EXPECT_EQ(buffer.buffered_bytes(), actual);
  buffer.EndFlush(/*committed=*/true);
  EXPECT_EQ(buffer.buffered_bytes(), 0);
  // The next records are guessed at what the flushed ones cost per row, within a few percent.
  for (std::int64_t o = 5000; o < 10000; ++o) {
    auto item = ItemFor(2, o, std::string(40, 'x') + std::to_string(o));
    ASSERT_TRUE(buffer.Append(item.record, *item.schema, item.payload, item.key_payload).ok());
  }
  const double guessed = static_cast<double>(buffer.buffered_bytes());
  EXPECT_NEAR(guessed / static_cast<double>(actual), 1.0, 0.05) << guessed << " vs " << actual;
}

}  // namespace
}  // namespace floe::pipeline
