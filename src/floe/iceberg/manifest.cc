#include "floe/iceberg/manifest_internal.h"

#include <arrow/api.h>

#include <algorithm>
#include <cmath>
#include <map>

#include "floe/avro/binary_writer.h"
#include "floe/avro/container_file.h"
#include "floe/core/arrow_interop.h"
#include "floe/iceberg/manifest_schemas_internal.h"
#include "floe/iceberg/single_value_internal.h"
#include "floe/schema/json.h"

namespace floe::iceberg {
namespace {

using avro::BinaryWriter;

void WriteOptionalLong(BinaryWriter& w, const std::optional<std::int64_t>& v) {
  if (!v) {
    w.WriteUnionBranch(0);
    return;
  }
  w.WriteUnionBranch(1);
  w.WriteLong(*v);
}

template <typename V, typename WriteValue>
void WriteOptionalIntMap(BinaryWriter& w, const std::map<int, V>& m, WriteValue write_value) {
  if (m.empty()) {
    w.WriteUnionBranch(0);
    return;
  }
  w.WriteUnionBranch(1);
  w.WriteBlockCount(static_cast<std::int64_t>(m.size()));
  for (const auto& [k, v] : m) {
    w.WriteInt(k);
    write_value(v);
  }
  w.WriteBlockCount(0);
}

// A decimal literal (minimal big-endian bytes) sign-extended to the fixed size Iceberg uses.
std::string SignExtend(const std::string& be, std::size_t size) {
  if (be.size() >= size) return be.substr(be.size() - size);
  const bool negative = !be.empty() && (static_cast<unsigned char>(be[0]) & 0x80);
  return std::string(size - be.size(), negative ? '\xff' : '\0') + be;
}

Status WritePartitionValue(BinaryWriter& w, const PartitionValue& value, const schema::Type& type) {
  if (!value) {
    w.WriteUnionBranch(0);
    return Status::OK();
  }
  w.WriteUnionBranch(1);
  using schema::TypeId;
  const Literal& v = *value;
  switch (type.id()) {
    case TypeId::kBoolean: w.WriteBoolean(std::get<bool>(v)); break;
    case TypeId::kInt:
    case TypeId::kDate: w.WriteInt(std::get<std::int32_t>(v)); break;
    case TypeId::kLong:
    case TypeId::kTime:
    case TypeId::kTimestamp:
    case TypeId::kTimestampTz:
    case TypeId::kTimestampNs:
    case TypeId::kTimestampTzNs: w.WriteLong(std::get<std::int64_t>(v)); break;
    case TypeId::kFloat: w.WriteFloat(std::get<float>(v)); break;
    case TypeId::kDouble: w.WriteDouble(std::get<double>(v)); break;
    case TypeId::kString: w.WriteString(std::get<std::string>(v)); break;
    case TypeId::kBinary: w.WriteBytes(std::get<std::string>(v)); break;
    case TypeId::kUuid:
    case TypeId::kFixed: w.WriteFixed(std::get<std::string>(v)); break;
    case TypeId::kDecimal: {
      FLOE_ASSIGN_OR_RETURN(auto avro_type, AvroTypeOf(type));
      w.WriteFixed(SignExtend(std::get<std::string>(v), avro_type["size"].get<std::size_t>()));
      break;
    }
    default: return Status::Unsupported("partition type " + type.ToString());
  }
  return Status::OK();
}

// Checked for every entry before anything is written (Summarize indexes the tuples too).
Status CheckEntry(const ManifestEntry& e, const schema::Type& partition_type) {
  const DataFile& f = e.data_file;
  if (e.content != FileContent::kData) {
    return Status::Unsupported("manifest entry for " + f.file_path +
                               " is a delete file: Floe writes data manifests only");
  }
  if (f.partition.size() != partition_type.fields().size()) {
    return Status::InvalidArgument("data file " + f.file_path + " has " + std::to_string(f.partition.size()) +
                                   " partition values, the spec has " +
                                   std::to_string(partition_type.fields().size()) + " fields");
  }
  return Status::OK();
}

Status WriteEntry(BinaryWriter& w, const ManifestEntry& e, const schema::Type& partition_type) {
  const DataFile& f = e.data_file;
  FLOE_RETURN_IF_ERROR(CheckEntry(e, partition_type));
  w.WriteInt(static_cast<std::int32_t>(e.status));
  WriteOptionalLong(w, e.snapshot_id);
  WriteOptionalLong(w, e.sequence_number);
  WriteOptionalLong(w, e.file_sequence_number);
  w.WriteInt(0);  // content: data
  w.WriteString(f.file_path);
  w.WriteString(f.file_format);
  for (std::size_t i = 0; i < f.partition.size(); ++i) {
    FLOE_RETURN_IF_ERROR(WritePartitionValue(w, f.partition[i], *partition_type.fields()[i].type));
  }
  w.WriteLong(f.record_count);
  w.WriteLong(f.file_size_in_bytes);
  auto long_value = [&w](std::int64_t v) { w.WriteLong(v); };
  auto bytes_value = [&w](const std::string& v) { w.WriteBytes(v); };
  WriteOptionalIntMap(w, f.column_sizes, long_value);
  WriteOptionalIntMap(w, f.value_counts, long_value);
  WriteOptionalIntMap(w, f.null_value_counts, long_value);
  WriteOptionalIntMap(w, f.nan_value_counts, long_value);
  WriteOptionalIntMap(w, f.lower_bounds, bytes_value);
  WriteOptionalIntMap(w, f.upper_bounds, bytes_value);
  w.WriteUnionBranch(0);  // key_metadata
  if (f.split_offsets.empty()) {
    w.WriteUnionBranch(0);
  } else {
    w.WriteUnionBranch(1);
    w.WriteBlockCount(static_cast<std::int64_t>(f.split_offsets.size()));
    for (auto o : f.split_offsets) w.WriteLong(o);
    w.WriteBlockCount(0);
  }
  w.WriteUnionBranch(0);  // equality_ids
  if (f.sort_order_id) {
    w.WriteUnionBranch(1);
    w.WriteInt(*f.sort_order_id);
  } else {
    w.WriteUnionBranch(0);
  }
  return Status::OK();
}

// Decimal literals are minimal big-endian two's complement: compare them as signed
// numbers (bytewise order puts -3.50 after 250.00).
int CompareDecimals(const std::string& a, const std::string& b) {
  auto negative = [](const std::string& v) { return !v.empty() && (static_cast<unsigned char>(v[0]) & 0x80); };
  if (negative(a) != negative(b)) return negative(a) ? -1 : 1;
  const std::size_t size = std::max(a.size(), b.size());
  const std::string x = SignExtend(a, size), y = SignExtend(b, size);
  return x < y ? -1 : (y < x ? 1 : 0);  // same sign, same width: unsigned bytewise order is numeric order
}

int ComparePartitionValues(const Literal& a, const Literal& b, const schema::Type& type) {
  if (type.id() == schema::TypeId::kDecimal && std::holds_alternative<std::string>(a) &&
      std::holds_alternative<std::string>(b)) {
    return CompareDecimals(std::get<std::string>(a), std::get<std::string>(b));
  }
  return CompareLiterals(a, b);  // strings/binary: unsigned bytewise (UTF-8: code point order)
}

bool IsNaN(const Literal& v) {
  if (const auto* f = std::get_if<float>(&v)) return std::isnan(*f);
  if (const auto* d = std::get_if<double>(&v)) return std::isnan(*d);
  return false;
}

// Partition summaries for the manifest list: null and NaN presence and bounds per partition
// field, in the field type's order (NaN is never a bound).
Result<std::vector<FieldSummary>> Summarize(const std::vector<ManifestEntry>& entries,
                                            const schema::Type& partition_type) {
  const std::size_t n = partition_type.fields().size();
  std::vector<FieldSummary> out(n);
  std::vector<std::optional<Literal>> lower(n), upper(n);
  for (std::size_t i = 0; i < n; ++i) {
    const auto& type = *partition_type.fields()[i].type;
    if (type.id() == schema::TypeId::kFloat || type.id() == schema::TypeId::kDouble) out[i].contains_nan = false;
  }
  for (const auto& e : entries) {
    for (std::size_t i = 0; i < n; ++i) {
      const auto& v = e.data_file.partition[i];
      const auto& type = *partition_type.fields()[i].type;
      if (!v) {
        out[i].contains_null = true;
        continue;
      }
      if (IsNaN(*v)) {
        out[i].contains_nan = true;
        continue;
      }
      if (!lower[i] || ComparePartitionValues(*v, *lower[i], type) < 0) lower[i] = *v;
      if (!upper[i] || ComparePartitionValues(*v, *upper[i], type) > 0) upper[i] = *v;
    }
  }
  for (std::size_t i = 0; i < n; ++i) {
    const auto& type = *partition_type.fields()[i].type;
    if (lower[i]) {
      FLOE_ASSIGN_OR_RETURN(out[i].lower_bound, SingleValueBytes(*lower[i], type));
      FLOE_ASSIGN_OR_RETURN(out[i].upper_bound, SingleValueBytes(*upper[i], type));
    }
  }
  return out;
}

Result<std::int64_t> WriteContainer(storage::FileIO& io, const std::string& relative_path, const std::string& schema_json,
                                    std::map<std::string, std::string> metadata,
                                    const std::function<Status(avro::ContainerFileWriter&)>& write_all) {
  FLOE_ASSIGN_OR_RETURN(auto file, io.Create(relative_path));
  avro::ContainerWriterOptions options;
  options.codec = avro::Codec::kDeflate;  // what Java writes for manifests; every reader has it
  options.metadata = std::move(metadata);
  FLOE_ASSIGN_OR_RETURN(auto writer, avro::ContainerFileWriter::Open(file->stream(), schema_json, options));
  FLOE_RETURN_IF_ERROR(write_all(*writer));
  FLOE_RETURN_IF_ERROR(writer->Close());  // also closes the stream
  FLOE_RETURN_IF_ERROR(file->Commit());
  return writer->bytes_written();
}

}  // namespace

Result<ManifestFile> WriteManifest(storage::FileIO& io, const std::string& relative_path,
                                   const ManifestContext& context, std::int64_t snapshot_id,
                                   std::int64_t sequence_number, const std::vector<ManifestEntry>& entries) {
  FLOE_ASSIGN_OR_RETURN(auto partition_type, context.spec->PartitionType(*context.schema));
  FLOE_ASSIGN_OR_RETURN(auto avro_schema, ManifestEntryAvroSchema(*context.schema, *context.spec));
  nlohmann::json spec_fields = schema::PartitionSpecToJson(*context.spec)["fields"];
  std::map<std::string, std::string> metadata = {
      {"schema", schema::SchemaToJson(*context.schema).dump()},
      {"schema-id", std::to_string(context.schema->schema_id)},
      {"partition-spec", spec_fields.dump()},
      {"partition-spec-id", std::to_string(context.spec->spec_id)},
      {"format-version", std::to_string(context.format_version)},
      {"content", "data"},
  };
  ManifestFile out;
  out.manifest_path = io.Uri(relative_path);
  out.partition_spec_id = context.spec->spec_id;
  out.sequence_number = sequence_number;
  out.min_sequence_number = sequence_number;
  out.added_snapshot_id = snapshot_id;
  for (const auto& e : entries) {
    FLOE_RETURN_IF_ERROR(CheckEntry(e, *partition_type));
    const std::int64_t rows = e.data_file.record_count;
    switch (e.status) {
      case EntryStatus::kAdded: ++out.added_files_count; out.added_rows_count += rows; break;
      case EntryStatus::kExisting: ++out.existing_files_count; out.existing_rows_count += rows; break;
      case EntryStatus::kDeleted: ++out.deleted_files_count; out.deleted_rows_count += rows; break;
    }
    // The spec's min_sequence_number is over live (added or existing) files only.
    if (e.sequence_number && e.status != EntryStatus::kDeleted) {
      out.min_sequence_number = std::min(out.min_sequence_number, *e.sequence_number);
    }
  }
  FLOE_ASSIGN_OR_RETURN(out.partitions, Summarize(entries, *partition_type));
  FLOE_ASSIGN_OR_RETURN(out.manifest_length,
                        WriteContainer(io, relative_path, avro_schema.dump(), metadata,
                                       [&](avro::ContainerFileWriter& w) -> Status {
                                         for (const auto& e : entries) {
                                           FLOE_RETURN_IF_ERROR(WriteEntry(w.datum(), e, *partition_type));
                                           FLOE_RETURN_IF_ERROR(w.EndDatum());
                                         }
                                         return Status::OK();
                                       }));
  return out;
}

Status WriteManifestList(storage::FileIO& io, const std::string& relative_path, std::int64_t snapshot_id,
                         std::optional<std::int64_t> parent_snapshot_id, std::int64_t sequence_number,
                         const std::vector<ManifestFile>& manifests) {
  std::map<std::string, std::string> metadata = {
      {"snapshot-id", std::to_string(snapshot_id)},
      {"parent-snapshot-id", parent_snapshot_id ? std::to_string(*parent_snapshot_id) : "null"},
      {"sequence-number", std::to_string(sequence_number)},
      {"format-version", "2"},
  };
  auto write = [&](avro::ContainerFileWriter& cw) -> Status {
    for (const auto& m : manifests) {
      BinaryWriter& w = cw.datum();
      w.WriteString(m.manifest_path);
      w.WriteLong(m.manifest_length);
      w.WriteInt(m.partition_spec_id);
      w.WriteInt(m.content);
      w.WriteLong(m.sequence_number);
      w.WriteLong(m.min_sequence_number);
      w.WriteLong(m.added_snapshot_id);
      w.WriteInt(m.added_files_count);
      w.WriteInt(m.existing_files_count);
      w.WriteInt(m.deleted_files_count);
      w.WriteLong(m.added_rows_count);
      w.WriteLong(m.existing_rows_count);
      w.WriteLong(m.deleted_rows_count);
      w.WriteUnionBranch(1);
      w.WriteBlockCount(static_cast<std::int64_t>(m.partitions.size()));
      for (const auto& p : m.partitions) {
        w.WriteBoolean(p.contains_null);
        if (p.contains_nan) {
          w.WriteUnionBranch(1);
          w.WriteBoolean(*p.contains_nan);
        } else {
          w.WriteUnionBranch(0);
        }
        for (const auto* bound : {&p.lower_bound, &p.upper_bound}) {
          if (*bound) {
            w.WriteUnionBranch(1);
            w.WriteBytes(**bound);
          } else {
            w.WriteUnionBranch(0);
          }
        }
      }
      if (!m.partitions.empty()) w.WriteBlockCount(0);
      if (m.key_metadata) {
        w.WriteUnionBranch(1);
        w.WriteBytes(*m.key_metadata);
      } else {
        w.WriteUnionBranch(0);
      }
      FLOE_RETURN_IF_ERROR(cw.EndDatum());
    }
    return Status::OK();
  };
  FLOE_ASSIGN_OR_RETURN(auto length, WriteContainer(io, relative_path, ManifestFileAvroSchema().dump(), metadata, write));
  (void)length;
  return Status::OK();
}

}  // namespace floe::iceberg
