#pragma once
// DecodePlan: an Avro schema compiled, once per (schema, builders), into a flat vector of
// steps that decode binary datums straight into Arrow builders. Internal to the avro
// module: callers use DatumDecoder / RecordBatchDecoder (datum_decoder.h).
//
// Why a plan: this is Floe's hottest loop. Everything that does not depend on the bytes
// (which builder, of which concrete class; which union branch is null; enum symbols;
// decimal widths; timestamp scaling) is decided at compile time, so decoding a value is a
// switch on a small opcode plus the read and the append. Builders are type-checked with
// dynamic_cast once, here, and static_cast per value afterwards.
//
// Writer -> reader resolution (a later issue) belongs in Compile: a plan is built from the
// writer schema (how the bytes are laid out) and the reader schema (what the builders
// hold). Resolution will add steps (skip a writer-only field, fill a reader-only field
// with its default, widen int -> long, ...); Run already reads by the writer's layout and
// appends by the reader's. Today writer and reader must be the same node.
#include <arrow/type_fwd.h>

#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "floe/avro/arrow_mapping.h"
#include "floe/avro/binary_reader.h"
#include "floe/avro/schema.h"
#include "floe/core/result.h"

namespace floe::avro {

class DecodePlan {
 public:
  // A plan that appends one value per datum to `builder`, whose type must be
  // ToArrowType(*reader, options).
  static Result<DecodePlan> Compile(const NodePtr& writer, const NodePtr& reader, arrow::ArrayBuilder* builder,
                                    const MappingOptions& options = {});
  // A plan for a top-level record whose fields go to separate column builders, one per
  // field, of the types of ToArrowSchema(*reader, options).
  //
  // With options.allow_empty_records, an array block of empty records (zero bytes per
  // item) may still not claim more items than there are bytes left: the count check that
  // stops hostile counts applies to every array (Iceberg metadata has no such arrays).
  static Result<DecodePlan> CompileColumns(const NodePtr& writer, const NodePtr& reader,
                                           std::span<arrow::ArrayBuilder* const> columns,
                                           const MappingOptions& options = {});

  // Reads one datum and appends it. On error the builders may hold part of the datum
  // (RecordBatchDecoder knows how to undo that); the error names the field and the byte.
  Status Decode(BinaryReader& in) const;
  // Reads and checks one datum exactly as Decode does (the same code, instantiated
  // without the appends) but touches no builder.
  Status Validate(BinaryReader& in) const;

  enum class Op : std::uint8_t {
    kBoolean,
    kInt,
    kLong,
    kFloat,
    kDouble,
    kBytes,
    kString,           // UTF-8 checked
    kFixed,            // also duration and uuid on fixed(16)
    kEnum,             // index -> symbol
    kDecimal128,       // bytes or fixed (fixed_size > 0), big-endian two's complement
    kDecimal256,
    kDate,             // int -> date32
    kTimeMillis,       // int millis -> time64[us], x1000 (cannot overflow)
    kTimeMicros,       // long -> time64[us]
    kTimestamp,        // long -> timestamp, same unit
    kTimestampMillis,  // long millis -> timestamp[us], x1000 with overflow check
    kRecord,           // struct builder, then each field
    kColumns,          // a top-level record spread over column builders
    kArray,
    kMap,
    kOptional,         // union [null, X] in either order, stored as nullable X
    kUnionStruct,      // any other union, stored as struct<member0, member1, ...>
  };

  struct Step {
    Op op = Op::kBoolean;
    std::int32_t null_branch = -1;   // kOptional, kUnionStruct
    std::int32_t branch_count = 0;   // kOptional, kUnionStruct
    std::int32_t fixed_size = 0;     // kFixed; kDecimal* when the decimal is a fixed (0: bytes)
    std::int32_t precision = 0;      // kDecimal*
    std::uint32_t first_child = 0;   // into children_: fields, items, key/values, members
    std::uint32_t child_count = 0;
    arrow::ArrayBuilder* builder = nullptr;           // of the class the op needs; null for kColumns
    const std::vector<std::string>* symbols = nullptr;  // kEnum: owned by the schema the plan holds
    std::uint32_t path = 0;                           // into paths_, for error messages
  };

 private:
  class Compiler;
  template <bool kAppend>
  Status Run(std::uint32_t step, BinaryReader& in) const;
  Status Annotate(const Step& step, const Status& error) const;

  NodePtr writer_;
  NodePtr reader_;
  std::vector<Step> steps_;  // children before parents, so the root is the last
  std::uint32_t root_ = 0;
  std::vector<std::uint32_t> children_;
  std::vector<std::string> paths_;
};

}  // namespace floe::avro
