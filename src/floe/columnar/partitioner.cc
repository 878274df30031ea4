#include "floe/columnar/partitioner.h"

#include <arrow/api.h>
#include <arrow/compute/api.h>
#include <arrow/compute/initialize.h>

#include <cctype>
#include <cstdio>
#include <map>

#include "floe/core/arrow_interop.h"
#include "floe/schema/arrow_schema.h"

namespace floe::columnar {
namespace {

using schema::Literal;
using schema::PartitionValue;
using schema::TransformKind;
using schema::TypeId;

int FieldIdOf(const arrow::Field& f) {
  if (!f.metadata()) return -1;
  auto v = f.metadata()->Get(schema::kParquetFieldIdKey);
  return v.ok() ? std::atoi(v->c_str()) : -1;
}

// Finds the column path (struct child indexes) to the Arrow field carrying `field_id`.
bool FindPath(const arrow::FieldVector& fields, int field_id, std::vector<int>& path) {
  for (int i = 0; i < static_cast<int>(fields.size()); ++i) {
    path.push_back(i);
    if (FieldIdOf(*fields[i]) == field_id) return true;
    if (fields[i]->type()->id() == arrow::Type::STRUCT && FindPath(fields[i]->type()->fields(), field_id, path)) {
      return true;
    }
    path.pop_back();
  }
  return false;
}

// The source value of one row as an Iceberg literal (nullopt for null, including a null parent struct).
PartitionValue SourceValue(const arrow::Array& array, std::int64_t row) {
  if (array.IsNull(row)) return std::nullopt;
  switch (array.type_id()) {
    case arrow::Type::BOOL: return Literal(static_cast<const arrow::BooleanArray&>(array).Value(row));
    case arrow::Type::INT32: return Literal(static_cast<const arrow::Int32Array&>(array).Value(row));
    case arrow::Type::DATE32: return Literal(static_cast<const arrow::Date32Array&>(array).Value(row));
    case arrow::Type::INT64: return Literal(static_cast<const arrow::Int64Array&>(array).Value(row));
    case arrow::Type::TIME64: return Literal(static_cast<const arrow::Time64Array&>(array).Value(row));
    case arrow::Type::TIMESTAMP: return Literal(static_cast<const arrow::TimestampArray&>(array).Value(row));
    case arrow::Type::FLOAT: return Literal(static_cast<const arrow::FloatArray&>(array).Value(row));
    case arrow::Type::DOUBLE: return Literal(static_cast<const arrow::DoubleArray&>(array).Value(row));
    case arrow::Type::STRING: return Literal(std::string(static_cast<const arrow::StringArray&>(array).GetView(row)));
    case arrow::Type::BINARY: return Literal(std::string(static_cast<const arrow::BinaryArray&>(array).GetView(row)));
    case arrow::Type::FIXED_SIZE_BINARY:
      return Literal(std::string(static_cast<const arrow::FixedSizeBinaryArray&>(array).GetView(row)));
    case arrow::Type::DECIMAL128: {
      // Unscaled value as minimal big-endian two's complement.
      const auto* le = static_cast<const arrow::Decimal128Array&>(array).GetValue(row);
      std::string be(16, '\0');
      for (int i = 0; i < 16; ++i) be[i] = static_cast<char>(le[15 - i]);
      std::size_t start = 0;
      while (start + 1 < be.size()) {
        const auto b = static_cast<unsigned char>(be[start]);
        const auto next = static_cast<unsigned char>(be[start + 1]);
        if (!((b == 0x00 && !(next & 0x80)) || (b == 0xFF && (next & 0x80)))) break;
        ++start;
      }
      return Literal(be.substr(start));
    }
    default: return std::nullopt;
  }
}

Result<PartitionValue> Apply(const schema::Transform& t, const schema::Type& source, const PartitionValue& v) {
  if (!v || t.kind == TransformKind::kVoid) return PartitionValue();
  const Literal& x = *v;
  const bool nanos = source.id() == TypeId::kTimestampNs || source.id() == TypeId::kTimestampTzNs;
  auto micros = [&]() { return nanos ? schema::MicrosFromNanos(std::get<std::int64_t>(x)) : std::get<std::int64_t>(x); };
  switch (t.kind) {
    case TransformKind::kIdentity: return v;
    case TransformKind::kVoid: return PartitionValue();
    case TransformKind::kBucket: {
      std::int32_t hash = 0;
      if (auto* i32 = std::get_if<std::int32_t>(&x)) hash = schema::BucketHash(*i32);
      else if (auto* i64 = std::get_if<std::int64_t>(&x)) hash = schema::BucketHash(*i64);
      else if (auto* s = std::get_if<std::string>(&x)) hash = schema::BucketHashBytes(*s);
      else return Status::InvalidArgument("bucket does not apply to " + source.ToString());
      return PartitionValue(Literal(schema::ApplyBucket(hash, t.param)));
    }
    case TransformKind::kTruncate: {
      if (auto* i32 = std::get_if<std::int32_t>(&x)) {
        return PartitionValue(Literal(static_cast<std::int32_t>(schema::TruncateInteger(*i32, t.param))));
      }
      if (auto* i64 = std::get_if<std::int64_t>(&x)) return PartitionValue(Literal(schema::TruncateInteger(*i64, t.param)));
      if (auto* s = std::get_if<std::string>(&x)) {
        if (source.id() == TypeId::kString) return PartitionValue(Literal(schema::TruncateUtf8(*s, t.param)));
        if (source.id() == TypeId::kDecimal) {
          FLOE_ASSIGN_OR_RETURN(auto d, schema::TruncateDecimal(*s, t.param));
          return PartitionValue(Literal(d));
        }
        return PartitionValue(Literal(s->substr(0, std::min<std::size_t>(s->size(), t.param))));
      }
      return Status::InvalidArgument("truncate does not apply to " + source.ToString());
    }
    case TransformKind::kYear:
    case TransformKind::kMonth:
    case TransformKind::kDay:
    case TransformKind::kHour: {
      const bool is_date = source.id() == TypeId::kDate;
      if (is_date) {
        const std::int32_t days = std::get<std::int32_t>(x);
        if (t.kind == TransformKind::kYear) return PartitionValue(Literal(schema::YearsFromEpochDays(days)));
        if (t.kind == TransformKind::kMonth) return PartitionValue(Literal(schema::MonthsFromEpochDays(days)));
        if (t.kind == TransformKind::kDay) return PartitionValue(Literal(days));
        return Status::InvalidArgument("hour does not apply to date");
      }
      const std::int64_t us = micros();
      const std::int32_t days = schema::DaysFromMicros(us);
      if (t.kind == TransformKind::kYear) return PartitionValue(Literal(schema::YearsFromEpochDays(days)));
      if (t.kind == TransformKind::kMonth) return PartitionValue(Literal(schema::MonthsFromEpochDays(days)));
      if (t.kind == TransformKind::kDay) return PartitionValue(Literal(days));
      return PartitionValue(Literal(schema::HoursFromMicros(us)));
    }
  }
  return Status::Internal("unknown transform");
}

// Civil date from days since 1970-01-01 (proleptic Gregorian), for partition paths.
void CivilFromDays(std::int64_t z, int& y, unsigned& m, unsigned& d) {
  z += 719468;
  const std::int64_t era = (z >= 0 ? z : z - 146096) / 146097;
  const unsigned doe = static_cast<unsigned>(z - era * 146097);
  const unsigned yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
  const std::int64_t yy = static_cast<std::int64_t>(yoe) + era * 400;
  const unsigned doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
  const unsigned mp = (5 * doy + 2) / 153;
  d = doy - (153 * mp + 2) / 5 + 1;
  m = mp < 10 ? mp + 3 : mp - 9;
  y = static_cast<int>(yy + (m <= 2));
}

std::string Escape(const std::string& s) {
  std::string out;
  for (unsigned char c : s) {
    if (std::isalnum(c) || c == '-' || c == '_' || c == '.') {
      out.push_back(static_cast<char>(c));
    } else {
      char buf[4];
      std::snprintf(buf, sizeof(buf), "%%%02X", c);
      out += buf;
    }
  }
  return out;
}

std::string Hex(const std::string& s) {
  static constexpr char kHex[] = "0123456789abcdef";
  std::string out;
  for (unsigned char c : s) {
    out.push_back(kHex[c >> 4]);
    out.push_back(kHex[c & 15]);
  }
  return out;
}

}  // namespace

Result<Partitioner> Partitioner::Make(const schema::Schema& schema, const schema::PartitionSpec& spec,
                                      std::shared_ptr<arrow::Schema> batch_schema) {
  // Arrow 21+ registers its compute kernels (Take) only when asked to.
  static const Status kComputeReady = FromArrow(arrow::compute::Initialize());
  FLOE_RETURN_IF_ERROR(kComputeReady);
  Partitioner p;
  p.batch_schema_ = batch_schema;
  for (const auto& pf : spec.fields) {
    const schema::NestedField* source = schema.FindById(pf.source_id);
    if (!source) return Status::InvalidArgument("partition field '" + pf.name + "': source column id " +
                                                std::to_string(pf.source_id) + " is not in the schema");
    Field f;
    f.partition = pf;
    f.source_type = source->type;
    FLOE_ASSIGN_OR_RETURN(f.result_type, pf.transform.ResultType(*source->type));
    if (!FindPath(batch_schema->fields(), pf.source_id, f.column_path)) {
      return Status::InvalidArgument("partition field '" + pf.name + "': no column with field id " +
                                     std::to_string(pf.source_id) + " in the batch");
    }
    p.fields_.push_back(std::move(f));
  }
  return p;
}

Result<std::vector<PartitionGroup>> Partitioner::Split(const std::shared_ptr<arrow::RecordBatch>& batch) const {
  if (fields_.empty()) return std::vector<PartitionGroup>{{{}, batch}};
  // Resolve each source column once per batch (struct children flattened with parent nulls).
  std::vector<std::shared_ptr<arrow::Array>> sources;
  for (const auto& f : fields_) {
    std::shared_ptr<arrow::Array> a = batch->column(f.column_path[0]);
    for (std::size_t i = 1; i < f.column_path.size(); ++i) {
      FLOE_ASSIGN_OR_RETURN_ARROW(a, static_cast<const arrow::StructArray&>(*a).GetFlattenedField(f.column_path[i]));
    }
    sources.push_back(std::move(a));
  }
  std::map<std::vector<PartitionValue>, std::vector<std::int64_t>> groups;
  std::vector<PartitionValue> key(fields_.size());
  for (std::int64_t row = 0; row < batch->num_rows(); ++row) {
    for (std::size_t i = 0; i < fields_.size(); ++i) {
      FLOE_ASSIGN_OR_RETURN(key[i], Apply(fields_[i].partition.transform, *fields_[i].source_type,
                                          SourceValue(*sources[i], row)));
    }
    groups[key].push_back(row);
  }
  std::vector<PartitionGroup> out;
  for (auto& [values, rows] : groups) {
    PartitionGroup g{values, nullptr};
    if (groups.size() == 1) {
      g.rows = batch;  // the common case for time partitions: no copy
    } else {
      arrow::Int64Builder indices;
      FLOE_RETURN_IF_ARROW_ERROR(indices.AppendValues(rows));
      FLOE_ASSIGN_OR_RETURN_ARROW(auto index_array, indices.Finish());
      FLOE_ASSIGN_OR_RETURN_ARROW(auto taken, arrow::compute::Take(batch, index_array));
      g.rows = taken.record_batch();
    }
    out.push_back(std::move(g));
  }
  return out;
}

Result<std::string> Partitioner::Path(const std::vector<PartitionValue>& values) const {
  std::string path;
  for (std::size_t i = 0; i < fields_.size(); ++i) {
    const auto& f = fields_[i];
    std::string text = "null";
    if (i < values.size() && values[i]) {
      const Literal& v = *values[i];
      const auto kind = f.partition.transform.kind;
      if (kind == TransformKind::kDay || (kind == TransformKind::kIdentity && f.source_type->id() == TypeId::kDate)) {
        int y; unsigned m, d;
        CivilFromDays(std::get<std::int32_t>(v), y, m, d);
        char buf[32];
        std::snprintf(buf, sizeof(buf), "%04d-%02u-%02u", y, m, d);
        text = buf;
      } else if (kind == TransformKind::kHour) {
        const std::int64_t hours = std::get<std::int32_t>(v);
        const std::int64_t days = hours >= 0 ? hours / 24 : (hours - 23) / 24;
        int y; unsigned m, d;
        CivilFromDays(days, y, m, d);
        char buf[40];
        std::snprintf(buf, sizeof(buf), "%04d-%02u-%02u-%02lld", y, m, d, static_cast<long long>(hours - days * 24));
        text = buf;
      } else if (kind == TransformKind::kMonth) {
        const std::int32_t months = std::get<std::int32_t>(v);
        const std::int32_t years = months >= 0 ? months / 12 : (months - 11) / 12;
        char buf[32];
        std::snprintf(buf, sizeof(buf), "%04d-%02d", 1970 + years, months - years * 12 + 1);
        text = buf;
      } else if (kind == TransformKind::kYear) {
        text = std::to_string(1970 + std::get<std::int32_t>(v));
      } else {
        text = std::visit(
            [&](const auto& x) -> std::string {
              using T = std::decay_t<decltype(x)>;
              if constexpr (std::is_same_v<T, std::string>) {
                return f.result_type->id() == TypeId::kString ? Escape(x) : Hex(x);
              } else if constexpr (std::is_same_v<T, bool>) {
                return x ? "true" : "false";
              } else {
                return std::to_string(x);
              }
            },
            v);
      }
    }
    if (!path.empty()) path += "/";
    path += Escape(f.partition.name) + "=" + text;
  }
  return path;
}

}  // namespace floe::columnar
