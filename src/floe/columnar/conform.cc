#include "floe/columnar/conform.h"

#include <arrow/api.h>
#include <arrow/array/util.h>
#include <arrow/compute/cast.h>
#include <arrow/compute/initialize.h>
#include <arrow/util/bit_util.h>
#include <arrow/util/bitmap_ops.h>

#include <algorithm>
#include <functional>
#include <mutex>
#include <string>

#include "floe/core/arrow_interop.h"
#include "floe/schema/arrow_schema.h"

namespace floe::columnar {
namespace {

using ArrayPtr = std::shared_ptr<arrow::Array>;
using BufferPtr = std::shared_ptr<arrow::Buffer>;
using TypePtr = std::shared_ptr<arrow::DataType>;

// Which rows of an array must satisfy its field's non-nullable declaration: nullptr when
// all of them do, else a bitmap (bit offset 0, the array's length) of the rows whose
// ancestors are all valid. A null struct or list parent makes its children's values moot,
// and a decoder may append nulls to non-nullable children under a null parent (Arrow's own
// StructBuilder appends empty values there, but nothing in Arrow requires that).
using RowMask = BufferPtr;

std::string Join(const std::string& parent, const std::string& name) {
  return parent.empty() ? name : parent + "." + name;
}

std::string Quoted(const std::string& path) { return "'" + path + "'"; }

// Since Arrow 21 the compute kernels (Cast among them) live in libarrow_compute and are
// only registered once it is initialized.
Status EnsureComputeInitialized() {
  static std::once_flag once;
  static arrow::Status status;
  std::call_once(once, [] { status = arrow::compute::Initialize(); });
  return FromArrow(status);
}

Status CannotConvert(const std::string& path, const arrow::DataType& from, const arrow::DataType& to,
                     const std::string& why) {
  return Status::InvalidArgument("column " + Quoted(path) + ": cannot convert " + from.ToString() + " to " +
                                 to.ToString() + ": " + why);
}

// --- Null checks -----------------------------------------------------------------------------

int64_t CountedRows(const RowMask& mask, int64_t length) {
  return mask ? arrow::internal::CountSetBits(mask->data(), 0, length) : length;
}

// Nulls of `array` in the rows that `mask` counts.
int64_t CountedNulls(const arrow::Array& array, const RowMask& mask) {
  if (array.null_count() == 0) return 0;
  if (!mask) return array.null_count();
  const int64_t counted = CountedRows(mask, array.length());
  const uint8_t* validity = array.null_bitmap_data();
  if (!validity) return counted;  // the null type: every row is null
  return counted - arrow::internal::CountAndSetBits(mask->data(), 0, validity, array.offset(), array.length());
}

Status CheckNoNulls(const arrow::Array& array, const arrow::Field& target, const std::string& path,
                    const RowMask& mask) {
  if (target.nullable()) return Status::OK();
  const int64_t nulls = CountedNulls(array, mask);
  if (nulls == 0) return Status::OK();
  return Status::InvalidArgument("column " + Quoted(path) + " has " + std::to_string(nulls) +
                                 " null value(s), but the target field is not nullable");
}

// Parquet's writer refuses any null in a non-nullable leaf, even under a null parent where
// the value is never read. Such nulls (the only ones CheckNoNulls lets through) lose their
// validity bitmap: the slots keep their meaningless values, now as valid ones. `recursive`
// also handles the children (for arrays built here whole, such as all-null columns).
std::shared_ptr<arrow::ArrayData> DropMootNulls(const std::shared_ptr<arrow::ArrayData>& data,
                                                const arrow::Field& field, bool recursive) {
  std::shared_ptr<arrow::ArrayData> out = data;
  if (!field.nullable() && data->GetNullCount() > 0) {
    out = data->Copy();
    out->buffers[0] = nullptr;
    out->null_count = 0;
  }
  if (!recursive) return out;
  for (std::size_t i = 0; i < out->child_data.size(); ++i) {
    const auto& child_field = *field.type()->field(static_cast<int>(i));
    auto child = DropMootNulls(out->child_data[i], child_field, true);
    if (child == out->child_data[i]) continue;
    if (out == data) out = data->Copy();
    out->child_data[i] = std::move(child);
  }
  return out;
}

// Whether anything under `type` is non-nullable: only then are child masks worth computing.
bool HasNonNullableChild(const arrow::DataType& type) {
  for (const auto& f : type.fields()) {
    if (!f->nullable() || HasNonNullableChild(*f->type())) return true;
  }
  return false;
}

// The mask of a struct's children: the struct's own counted rows that are also valid.
Result<RowMask> StructChildMask(const arrow::Array& parent, const RowMask& mask) {
  if (parent.null_count() == 0) return mask;
  auto* pool = arrow::default_memory_pool();
  const uint8_t* validity = parent.null_bitmap_data();
  if (!validity) return FromArrow(arrow::AllocateEmptyBitmap(parent.length(), pool));  // all null
  if (!mask) return FromArrow(arrow::internal::CopyBitmap(pool, validity, parent.offset(), parent.length()));
  return FromArrow(
      arrow::internal::BitmapAnd(pool, mask->data(), 0, validity, parent.offset(), parent.length(), /*out_offset=*/0));
}

// The mask of a list's values [base, base + count): the elements of counted, valid lists.
Result<RowMask> ElementMask(const arrow::ListArray& list, const RowMask& mask, int32_t base, int64_t count) {
  if (list.null_count() == 0 && !mask) return RowMask();
  FLOE_ASSIGN_OR_RETURN_ARROW(BufferPtr bits, arrow::AllocateEmptyBitmap(count));
  for (int64_t i = 0; i < list.length(); ++i) {
    if (list.IsNull(i) || (mask && !arrow::bit_util::GetBit(mask->data(), i))) continue;
    arrow::bit_util::SetBitsTo(bits->mutable_data(), list.value_offset(i) - base, list.value_length(i), true);
  }
  return bits;
}

// --- Re-assembling arrays at offset 0 ---------------------------------------------------------

// The validity bitmap of `array` starting at bit 0: shared when the offset allows it.
Result<BufferPtr> ValidityAtZero(const arrow::Array& array) {
  if (array.null_count() == 0 || !array.null_bitmap_data()) return BufferPtr();
  const BufferPtr& buffer = array.data()->buffers[0];
  if (array.offset() == 0) return buffer;
  if (array.offset() % 8 == 0) {
    return arrow::SliceBuffer(buffer, array.offset() / 8, arrow::bit_util::BytesForBits(array.length()));
  }
  return FromArrow(arrow::internal::CopyBitmap(arrow::default_memory_pool(), array.null_bitmap_data(),
                                               array.offset(), array.length()));
}

// The offsets of `list` rebased to start at its first value, `base`: shared when possible.
Result<BufferPtr> OffsetsFrom(const arrow::ListArray& list, int32_t base) {
  const int64_t bytes = (list.length() + 1) * static_cast<int64_t>(sizeof(int32_t));
  if (list.length() > 0 && base == 0) {
    return arrow::SliceBuffer(list.value_offsets(), list.offset() * static_cast<int64_t>(sizeof(int32_t)), bytes);
  }
  FLOE_ASSIGN_OR_RETURN_ARROW(std::shared_ptr<arrow::Buffer> out, arrow::AllocateBuffer(bytes));
  auto* offsets = reinterpret_cast<int32_t*>(out->mutable_data());
  if (list.length() == 0) {
    offsets[0] = 0;  // a zero-length input may have no offsets buffer at all
    return out;
  }
  const int32_t* in = list.raw_value_offsets();  // already at the list's offset
  for (int64_t i = 0; i <= list.length(); ++i) offsets[i] = in[i] - base;
  return out;
}

// --- Conforming ----------------------------------------------------------------------------

Result<ArrayPtr> Conform(ArrayPtr array, const arrow::Field& target, const std::string& path, const RowMask& mask);

Result<ArrayPtr> NullColumn(const arrow::Field& target, int64_t length, const std::string& path,
                            const RowMask& mask) {
  if (!target.nullable()) {
    const int64_t rows = CountedRows(mask, length);
    if (rows > 0) {
      return Status::InvalidArgument("column " + Quoted(path) + " (" + target.type()->ToString() +
                                     ") is not nullable in the target schema but missing from the batch, which has " +
                                     std::to_string(rows) + " row(s) that need a value");
    }
  }
  FLOE_ASSIGN_OR_RETURN_ARROW(ArrayPtr nulls, arrow::MakeArrayOfNull(target.type(), length));
  // The top level stays null when it may; only the non-nullable fields below lose theirs.
  return arrow::MakeArray(DropMootNulls(nulls->data(), target, /*recursive=*/true));
}

// The index of the source field named `name`, -1 when there is none.
Result<int> FindSource(const arrow::FieldVector& fields, const std::string& name, const std::string& path) {
  int found = -1;
  for (int i = 0; i < static_cast<int>(fields.size()); ++i) {
    if (fields[static_cast<std::size_t>(i)]->name() != name) continue;
    if (found >= 0) return Status::InvalidArgument("column " + Quoted(path) + " appears more than once in the batch");
    found = i;
  }
  return found;
}

// The target's fields, each from the source field of the same name or all null. Shared by
// the batch's columns and struct children.
Result<arrow::ArrayVector> ConformByName(const arrow::FieldVector& source_fields, const arrow::ArrayVector& source,
                                         const arrow::FieldVector& target_fields, int64_t length,
                                         const std::string& parent, const RowMask& mask) {
  for (const auto& f : source_fields) {
    const bool known = std::any_of(target_fields.begin(), target_fields.end(),
                                   [&](const auto& t) { return t->name() == f->name(); });
    if (!known) {
      return Status::InvalidArgument("column " + Quoted(Join(parent, f->name())) + " (" + f->type()->ToString() +
                                     ") is not in the target schema");
    }
  }
  arrow::ArrayVector out;
  out.reserve(target_fields.size());
  for (const auto& t : target_fields) {
    const std::string path = Join(parent, t->name());
    FLOE_ASSIGN_OR_RETURN(int index, FindSource(source_fields, t->name(), path));
    if (index < 0) {
      FLOE_ASSIGN_OR_RETURN(ArrayPtr nulls, NullColumn(*t, length, path, mask));
      out.push_back(std::move(nulls));
    } else {
      FLOE_ASSIGN_OR_RETURN(ArrayPtr conformed, Conform(source[static_cast<std::size_t>(index)], *t, path, mask));
      out.push_back(std::move(conformed));
    }
  }
  return out;
}

ArrayPtr StructOf(const TypePtr& type, const arrow::Array& source, BufferPtr validity, arrow::ArrayVector children) {
  auto data = arrow::ArrayData::Make(type, source.length(), {std::move(validity)}, source.null_count(), 0);
  for (const auto& child : children) data->child_data.push_back(child->data());
  return arrow::MakeArray(data);
}

Result<ArrayPtr> ConformStruct(const ArrayPtr& array, const TypePtr& target, const std::string& path,
                               const RowMask& mask) {
  if (array->type_id() != arrow::Type::STRUCT) {
    return CannotConvert(path, *array->type(), *target, "a struct needs a struct column");
  }
  const auto& s = static_cast<const arrow::StructArray&>(*array);
  RowMask child_mask;
  if (HasNonNullableChild(*target)) {
    FLOE_ASSIGN_OR_RETURN(child_mask, StructChildMask(s, mask));
  }
  // fields() are the children sliced to the struct's offset and length.
  FLOE_ASSIGN_OR_RETURN(arrow::ArrayVector children,
                        ConformByName(s.type()->fields(), s.fields(), target->fields(), s.length(), path, child_mask));
  FLOE_ASSIGN_OR_RETURN(BufferPtr validity, ValidityAtZero(s));
  return StructOf(target, s, std::move(validity), std::move(children));
}

// A map's entries: key and value by position (Arrow lets them have any names).
Result<ArrayPtr> ConformEntries(const ArrayPtr& array, const arrow::Field& target, const std::string& path,
                                const RowMask& mask) {
  const auto& entries = static_cast<const arrow::StructArray&>(*array);
  FLOE_ASSIGN_OR_RETURN(RowMask child_mask, StructChildMask(entries, mask));
  arrow::ArrayVector children;
  for (int i = 0; i < 2; ++i) {
    const auto& field = target.type()->field(i);
    FLOE_ASSIGN_OR_RETURN(ArrayPtr child, Conform(entries.field(i), *field, Join(path, field->name()), child_mask));
    children.push_back(std::move(child));
  }
  FLOE_ASSIGN_OR_RETURN(BufferPtr validity, ValidityAtZero(entries));
  return StructOf(target.type(), entries, std::move(validity), std::move(children));
}

using ValuesConformer = std::function<Result<ArrayPtr>(const ArrayPtr& values, const RowMask& mask)>;

// A list (or map) of `target` type over the conformed values of `list`'s own range.
Result<ArrayPtr> RebuildList(const arrow::ListArray& list, const TypePtr& target, const RowMask& mask,
                             const ValuesConformer& conform_values) {
  const int64_t n = list.length();
  const int32_t base = n == 0 ? 0 : list.value_offset(0);
  const int64_t count = n == 0 ? 0 : list.value_offset(n) - base;
  RowMask element_mask;
  if (HasNonNullableChild(*target)) {
    FLOE_ASSIGN_OR_RETURN(element_mask, ElementMask(list, mask, base, count));
  }
  FLOE_ASSIGN_OR_RETURN(ArrayPtr values, conform_values(list.values()->Slice(base, count), element_mask));
  FLOE_ASSIGN_OR_RETURN(BufferPtr offsets, OffsetsFrom(list, base));
  FLOE_ASSIGN_OR_RETURN(BufferPtr validity, ValidityAtZero(list));
  auto data = arrow::ArrayData::Make(target, n, {std::move(validity), std::move(offsets)}, {values->data()},
                                     list.null_count(), 0);
  return arrow::MakeArray(data);
}

bool IsOtherListLayout(arrow::Type::type id) {
  return id == arrow::Type::LARGE_LIST || id == arrow::Type::FIXED_SIZE_LIST || id == arrow::Type::LIST_VIEW ||
         id == arrow::Type::LARGE_LIST_VIEW;
}

Result<ArrayPtr> ConformList(ArrayPtr array, const TypePtr& target, const std::string& path, const RowMask& mask) {
  if (IsOtherListLayout(array->type_id())) {
    // Cast only the layout to a plain list; the elements are conformed below like any list's.
    FLOE_RETURN_IF_ERROR(EnsureComputeInitialized());
    auto as_list = arrow::list(array->type()->field(0));
    auto cast = arrow::compute::Cast(*array, as_list, arrow::compute::CastOptions::Safe());
    if (!cast.ok()) return CannotConvert(path, *array->type(), *target, cast.status().message());
    array = *cast;
  }
  if (array->type_id() != arrow::Type::LIST) {
    return CannotConvert(path, *array->type(), *target, "a list needs a list column");
  }
  const auto& element = *target->field(0);
  const std::string element_path = Join(path, element.name());
  return RebuildList(static_cast<const arrow::ListArray&>(*array), target, mask,
                     [&](const ArrayPtr& values, const RowMask& element_mask) {
                       return Conform(values, element, element_path, element_mask);
                     });
}

Result<ArrayPtr> ConformMap(const ArrayPtr& array, const TypePtr& target, const std::string& path,
                            const RowMask& mask) {
  if (array->type_id() != arrow::Type::MAP) {
    return CannotConvert(path, *array->type(), *target, "a map needs a map column");
  }
  const auto& entries = *target->field(0);
  return RebuildList(static_cast<const arrow::ListArray&>(*array), target, mask,
                     [&](const ArrayPtr& values, const RowMask& entry_mask) -> Result<ArrayPtr> {
                       FLOE_ASSIGN_OR_RETURN(ArrayPtr conformed, ConformEntries(values, entries, path, entry_mask));
                       FLOE_RETURN_IF_ERROR(CheckNoNulls(*conformed, entries, path, entry_mask));
                       return conformed;
                     });
}

// The Iceberg type an Arrow type stands for, by the same rules as the table's schema.
Result<schema::TypePtr> IcebergTypeOf(const TypePtr& type) {
  FLOE_ASSIGN_OR_RETURN(schema::Schema s, schema::FromArrowSchema(*arrow::schema({arrow::field("c", type)})));
  return s.fields.at(0).type;
}

// The conversions schema evolution can require: the same Iceberg type in another Arrow
// encoding, or one of Iceberg's promotions. Never a narrowing or a change of meaning.
bool IsAllowedConversion(const schema::Type& from, const schema::Type& to) {
  using schema::TypeId;
  if (!from.is_primitive() || !to.is_primitive()) return false;
  if (from.Equals(to)) return true;
  if (from.id() == TypeId::kInt && to.id() == TypeId::kLong) return true;
  if (from.id() == TypeId::kFloat && to.id() == TypeId::kDouble) return true;
  // The same bytes in a table format without fixed or uuid types (Delta stores them as binary).
  if ((from.id() == TypeId::kFixed || from.id() == TypeId::kUuid) && to.id() == TypeId::kBinary) return true;
  return from.id() == TypeId::kDecimal && to.id() == TypeId::kDecimal && from.scale() == to.scale() &&
         from.precision() < to.precision();
}

Result<ArrayPtr> ConformPrimitive(const ArrayPtr& array, const TypePtr& target, const std::string& path) {
  if (array->type()->Equals(*target)) return array;
  constexpr const char* kAllowed =
      "only int -> long, float -> double, decimal precision widening, fixed/uuid -> binary and other Arrow "
      "encodings of the same Iceberg type are converted";
  Result<schema::TypePtr> from = IcebergTypeOf(array->type());
  Result<schema::TypePtr> to = IcebergTypeOf(target);
  if (!from.ok() || !to.ok() || !IsAllowedConversion(**from, **to)) {
    return CannotConvert(path, *array->type(), *target, kAllowed);
  }
  FLOE_RETURN_IF_ERROR(EnsureComputeInitialized());
  auto cast = arrow::compute::Cast(*array, target, arrow::compute::CastOptions::Safe());
  if (!cast.ok()) return CannotConvert(path, *array->type(), *target, cast.status().message());
  return *cast;
}

Result<ArrayPtr> ConformType(const ArrayPtr& array, const TypePtr& target, const std::string& path,
                             const RowMask& mask) {
  switch (target->id()) {
    case arrow::Type::STRUCT: return ConformStruct(array, target, path, mask);
    case arrow::Type::LIST: return ConformList(array, target, path, mask);
    case arrow::Type::MAP: return ConformMap(array, target, path, mask);
    default: return ConformPrimitive(array, target, path);
  }
}

Result<ArrayPtr> Conform(ArrayPtr array, const arrow::Field& target, const std::string& path, const RowMask& mask) {
  // Extension types (arrow.uuid, …) are conformed as their storage: the target has none.
  if (array->type_id() == arrow::Type::EXTENSION) array = static_cast<const arrow::ExtensionArray&>(*array).storage();
  FLOE_ASSIGN_OR_RETURN(ArrayPtr out, ConformType(array, target.type(), path, mask));
  // Checked on the result: a dictionary's nulls, say, are only visible once decoded.
  FLOE_RETURN_IF_ERROR(CheckNoNulls(*out, target, path, mask));
  if (target.nullable() || out->null_count() == 0) return out;
  return arrow::MakeArray(DropMootNulls(out->data(), target, /*recursive=*/false));  // children did their own
}

// --- Fast path -----------------------------------------------------------------------------

// Whether some non-nullable field of `data` (of `type`, a field that is `nullable` or not)
// has nulls anywhere, even where they are moot: the fast path must leave those to the
// general one, which checks and removes them. Conservative for sliced lists (the whole
// child counts), which only costs the fast path.
bool HasNullsWhereNotNullable(const arrow::ArrayData& data, const arrow::DataType& type, bool nullable) {
  if (!nullable && data.GetNullCount() > 0) return true;
  for (std::size_t i = 0; i < data.child_data.size(); ++i) {
    const auto& field = type.field(static_cast<int>(i));
    if (HasNullsWhereNotNullable(*data.child_data[i], *field->type(), field->nullable())) return true;
  }
  return false;
}

bool FastPathApplies(const arrow::RecordBatch& batch, const arrow::Schema& target) {
  if (!batch.schema()->Equals(target, /*check_metadata=*/false)) return false;
  for (int i = 0; i < batch.num_columns(); ++i) {
    const auto& field = *target.field(i);
    if (HasNullsWhereNotNullable(*batch.column_data(i), *field.type(), field.nullable())) return false;
  }
  return true;
}

// `data` with `type` (equal to its own type but for metadata and child names) all the way
// down: new array headers, the same buffers.
std::shared_ptr<arrow::ArrayData> Relabel(const std::shared_ptr<arrow::ArrayData>& data, const TypePtr& type) {
  if (data->type == type) return data;
  auto out = data->Copy();
  out->type = type;
  for (std::size_t i = 0; i < out->child_data.size(); ++i) {
    out->child_data[i] = Relabel(out->child_data[i], type->field(static_cast<int>(i))->type());
  }
  return out;
}

}  // namespace

Result<std::shared_ptr<arrow::RecordBatch>> ConformBatch(const arrow::RecordBatch& batch,
                                                         const std::shared_ptr<arrow::Schema>& target) {
  if (!target) return Status::InvalidArgument("ConformBatch: no target schema");
  arrow::ArrayVector columns;
  if (FastPathApplies(batch, *target)) {
    columns.reserve(batch.columns().size());
    for (int i = 0; i < batch.num_columns(); ++i) {
      columns.push_back(arrow::MakeArray(Relabel(batch.column_data(i), target->field(i)->type())));
    }
  } else {
    FLOE_ASSIGN_OR_RETURN(columns, ConformByName(batch.schema()->fields(), batch.columns(), target->fields(),
                                                 batch.num_rows(), "", RowMask()));
  }
  return arrow::RecordBatch::Make(target, batch.num_rows(), std::move(columns));
}

}  // namespace floe::columnar
