#include "fuzz_check.h"

#include <arrow/api.h>

#include <cstdio>
#include <cstdlib>

namespace floe::fuzz {

namespace {
constexpr std::string_view kNext = "\n#\n";
constexpr std::string_view kFlushNext = "\n#!\n";
}  // namespace

std::vector<Record> SplitRecords(const std::uint8_t* data, std::size_t size) {
  const std::string_view input(reinterpret_cast<const char*>(data), size);
  std::vector<Record> records;
  bool flush_before = false;
  std::size_t start = 0;
  for (std::size_t at = input.find("\n#", start); at != std::string_view::npos; at = input.find("\n#", at + 1)) {
    const std::string_view rest = input.substr(at);
    const bool next = rest.starts_with(kNext);
    if (!next && !rest.starts_with(kFlushNext)) continue;
    records.push_back({input.substr(start, at - start), flush_before});
    flush_before = !next;
    start = at + (next ? kNext.size() : kFlushNext.size());
    at = start - 1;
  }
  records.push_back({input.substr(start), flush_before});
  return records;
}

void Fail(std::string_view what) {
  std::fprintf(stderr, "\nfuzz invariant broken: %.*s\n", static_cast<int>(what.size()), what.data());
  std::fflush(stderr);
  std::abort();
}

void Check(bool ok, std::string_view what) {
  if (!ok) Fail(what);
}

void CheckOk(const Status& status, std::string_view what) {
  if (!status.ok()) Fail(std::string(what) + ": " + status.ToString());
}

void CheckOk(const arrow::Status& status, std::string_view what) {
  if (!status.ok()) Fail(std::string(what) + ": " + status.ToString());
}

std::unique_ptr<DecoderCheck> DecoderCheck::Make(const columnar::PayloadSchema& schema, bool light) {
  std::unique_ptr<DecoderCheck> check(new DecoderCheck());
  check->schema_ = schema.columns();
  std::vector<std::unique_ptr<columnar::ValueDecoder>*> slots = {&check->primary_};
  if (!light) slots.insert(slots.end(), {&check->reference_, &check->single_});
  for (auto* slot : slots) {
    auto decoder = schema.NewDecoder();
    CheckOk(decoder.status(), "PayloadSchema::NewDecoder");
    *slot = std::move(*decoder);
    Check((*slot)->schema()->Equals(*check->schema_), "a decoder's schema is the PayloadSchema's columns");
    Check((*slot)->num_rows() == 0, "a new decoder has no rows");
  }
  return check;
}

// Checks one primary Append/AppendNull against its Validate and num_rows.
bool DecoderCheck::Track(const Status& validated, const Status& appended, std::int64_t before, std::string_view what) {
  // Avro's record decoder has no Validate (it answers kUnsupported): only Append is checked.
  const bool has_validate = validated.code() != StatusCode::kUnsupported;
  Check(!has_validate || validated.ok() == appended.ok(), std::string(what) + ": Validate and Append disagree: " + validated.ToString() +
                                             " vs " + appended.ToString());
  if (!appended.ok()) {
    Check(!has_validate || validated.ToString() == appended.ToString(),
          std::string(what) + ": Validate and Append refuse with different errors: " + validated.ToString() + " vs " +
              appended.ToString());
    Check(appended.code() == StatusCode::kInvalidArgument,
          std::string(what) + ": a refused record is kInvalidArgument (a bad record), got " + appended.ToString());
    Check(primary_->num_rows() == before, std::string(what) + ": a refused record changed num_rows");
    return false;
  }
  Check(primary_->num_rows() == before + 1, std::string(what) + ": an accepted record did not add exactly one row");
  return true;
}

bool DecoderCheck::Append(std::string_view payload) {
  const std::int64_t before = primary_->num_rows();
  const Status validated = primary_->Validate(payload);
  const Status appended = primary_->Append(payload);
  const bool ok = Track(validated, appended, before, "Append");
  if (ok) ++accepted_;
  if (!reference_) return ok;
  if (ok) CheckOk(reference_->Append(payload), "the reference decoder refused a record the primary accepted");
  const Status single = single_->Append(payload);
  Check(single.ok() == ok, "an empty decoder and one with rows disagree on a record: " + single.ToString() + " vs " +
                               appended.ToString());
  auto batch = FlushValid(*single_, ok ? 1 : 0, "single-row decoder");
  last_row_ = ok ? batch : nullptr;
  if (ok) single_batches_.push_back(std::move(batch));
  return ok;
}

bool DecoderCheck::AppendNull() {
  const std::int64_t before = primary_->num_rows();
  const Status appended = primary_->AppendNull();
  if (!appended.ok()) {
    Check(appended.code() == StatusCode::kUnsupported, "AppendNull: refused with " + appended.ToString());
    Check(primary_->num_rows() == before, "AppendNull: a refused null row changed num_rows");
    return false;
  }
  Check(primary_->num_rows() == before + 1, "AppendNull: did not add exactly one row");
  ++accepted_;
  if (!reference_) return true;
  CheckOk(reference_->AppendNull(), "AppendNull on the reference decoder");
  CheckOk(single_->AppendNull(), "AppendNull on the single-row decoder");
  last_row_ = FlushValid(*single_, 1, "single-row decoder");
  single_batches_.push_back(last_row_);
  return true;
}

std::shared_ptr<arrow::RecordBatch> DecoderCheck::FlushValid(columnar::ValueDecoder& decoder, std::int64_t rows,
                                                             std::string_view which) {
  Check(decoder.num_rows() == rows, std::string(which) + ": num_rows before Flush is not the rows accepted");
  auto batch = decoder.Flush();
  CheckOk(batch.status(), std::string(which) + ": Flush");
  const auto& b = *batch;
  Check(b != nullptr, std::string(which) + ": Flush returned no batch");
  CheckOk(b->ValidateFull(), std::string(which) + ": the flushed batch is not valid (ValidateFull)");
  Check(b->num_rows() == rows, std::string(which) + ": the batch has " + std::to_string(b->num_rows()) +
                                   " rows, the decoder accepted " + std::to_string(rows));
  Check(b->schema()->Equals(*schema_), std::string(which) + ": the batch's schema is not the decoder's columns");
  for (const auto& column : b->columns()) {
    CheckOk(column->ValidateFull(), std::string(which) + ": a column is not valid (ValidateFull)");
  }
  Check(decoder.num_rows() == 0, std::string(which) + ": Flush did not start over");
  return b;
}

void DecoderCheck::Flush() { primary_batches_.push_back(FlushValid(*primary_, primary_->num_rows(), "primary decoder")); }

namespace {
// Whether `batches`, one after the other, hold the rows of `whole`.
bool SameRows(const std::vector<std::shared_ptr<arrow::RecordBatch>>& batches, const arrow::RecordBatch& whole) {
  const auto options = arrow::EqualOptions::Defaults().nans_equal(true);
  std::int64_t offset = 0;
  for (const auto& batch : batches) {
    if (offset + batch->num_rows() > whole.num_rows()) return false;
    for (int c = 0; c < whole.num_columns(); ++c) {
      if (!whole.column(c)->Slice(offset, batch->num_rows())->Equals(*batch->column(c), options)) return false;
    }
    offset += batch->num_rows();
  }
  return offset == whole.num_rows();
}
}  // namespace

void DecoderCheck::Finish() {
  if (finished_) return;
  finished_ = true;
  Flush();
  if (!reference_) return;
  const auto whole = FlushValid(*reference_, accepted_, "reference decoder");
  Check(SameRows(primary_batches_, *whole),
        "the primary decoder's rows differ from the reference's (a rollback left a trace, or a flush lost rows)");
  Check(SameRows(single_batches_, *whole), "the single-row decoder's rows differ from the reference's");
}

}  // namespace floe::fuzz
