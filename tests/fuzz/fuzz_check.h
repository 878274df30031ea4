#pragma once
// What every fuzz target shares: how one fuzz input is cut into records, and the invariants
// a ValueDecoder must keep whatever the bytes (docs/development.md, "Fuzzing").
//
// An input is a sequence of records: payloads separated by the line "\n#\n", or by "\n#!\n",
// which also flushes the decoders before the next record. The separator is text so that JSON
// seeds stay readable; the seed generator checks that no binary seed record contains it.
//
// A violated invariant prints what broke and aborts, which both libFuzzer and the replay
// driver report as a crash with the input that caused it.
#include <arrow/type_fwd.h>

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "floe/columnar/value_decoder.h"
#include "floe/core/result.h"

namespace floe::fuzz {

struct Record {
  std::string_view payload;
  bool flush_before = false;  // the separator before it was "\n#!\n"
};

std::vector<Record> SplitRecords(const std::uint8_t* data, std::size_t size);

// Aborts with `what` (and the status, if any) when `ok` is false.
void Check(bool ok, std::string_view what);
void CheckOk(const Status& status, std::string_view what);
void CheckOk(const arrow::Status& status, std::string_view what);
[[noreturn]] void Fail(std::string_view what);

// Drives one PayloadSchema's decoders through a sequence of records and checks, for every
// record: Validate and Append agree (same status; skipped for Avro records, which have no
// Validate), a refused record is kInvalidArgument and
// leaves num_rows unchanged, an accepted one adds exactly one row; and for every flush: the
// batch passes arrow::Array::ValidateFull, has the decoder's schema and as many rows as were
// accepted. Behind the primary decoder run two more, so that a rollback that leaves any
// builder a value too long or too short (which num_rows cannot show) is caught:
//  - `reference` gets only the records the primary accepted: each must be accepted again, and
//    at the end the primary's batches, concatenated, must equal the reference's one batch;
//  - `single` is flushed after every record, accepted or not: it holds 0 or 1 rows, and its
//    rows must equal the reference's too (rollback from an empty decoder, and Flush's reset).
class DecoderCheck {
 public:
  // `light`: the primary decoder alone (no reference or single-row decoder), for a second
  // layout of the same plan whose rollback the first one already covers: half the cost.
  static std::unique_ptr<DecoderCheck> Make(const columnar::PayloadSchema& schema, bool light = false);

  // Appends `payload` to every decoder and checks the invariants above; true if accepted.
  bool Append(std::string_view payload);
  // A null row (key forms): accepted or kUnsupported, like Append otherwise.
  bool AppendNull();
  // Flushes the primary decoder (a batch boundary inside the input).
  void Flush();
  // Flushes everything and compares the primary and single-row batches with the reference.
  void Finish();

  std::int64_t accepted() const { return accepted_; }
  // The last accepted record alone, as a one-row batch (from the single-row decoder), for
  // comparing values with an oracle; null after a refused record.
  const std::shared_ptr<arrow::RecordBatch>& last_row() const { return last_row_; }

 private:
  DecoderCheck() = default;
  bool Track(const Status& validated, const Status& appended, std::int64_t before, std::string_view what);
  std::shared_ptr<arrow::RecordBatch> FlushValid(columnar::ValueDecoder& decoder, std::int64_t rows,
                                                 std::string_view which);

  std::shared_ptr<arrow::Schema> schema_;
  std::unique_ptr<columnar::ValueDecoder> primary_, reference_, single_;
  std::vector<std::shared_ptr<arrow::RecordBatch>> primary_batches_, single_batches_;
  std::shared_ptr<arrow::RecordBatch> last_row_;
  std::int64_t accepted_ = 0;
  bool finished_ = false;
};

}  // namespace floe::fuzz
