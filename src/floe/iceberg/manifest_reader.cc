// Reading manifests written by any engine (Floe, Java, pyiceberg; format v1 or v2): the
// file is decoded with its own writer schema into Arrow, then fields are picked by name.
// Partition fields are matched by their field id in the writer schema (names can differ
// after a partition field was renamed), and their values converted to Literals of the
// partition type the caller's schema and spec give.
#include <arrow/api.h>
#include <arrow/filesystem/api.h>

#include <nlohmann/json.hpp>

#include <charconv>
#include <map>
#include <string_view>

#include "floe/avro/container_file.h"
#include "floe/core/arrow_interop.h"
#include "floe/iceberg/manifest_internal.h"
#include "floe/schema/partition.h"
#include "floe/storage/file_io.h"

namespace floe::iceberg {
namespace {

using schema::TypeId;

std::string TypeText(const arrow::Array& a) { return a.type()->ToString(); }

// A child of a struct column by name, or nullptr.
std::shared_ptr<arrow::Array> Child(const arrow::StructArray& s, const char* name) {
  return s.GetFieldByName(name);
}

// Integer columns (int or long in the writer schema): nullopt when absent or null.
Result<std::optional<std::int64_t>> GetInteger(const arrow::Array* a, std::int64_t row, const char* name) {
  if (a == nullptr || a->IsNull(row)) return std::optional<std::int64_t>();
  switch (a->type_id()) {
    case arrow::Type::INT32: return std::optional<std::int64_t>(static_cast<const arrow::Int32Array&>(*a).Value(row));
    case arrow::Type::INT64: return std::optional<std::int64_t>(static_cast<const arrow::Int64Array&>(*a).Value(row));
    default: return Status::InvalidArgument(std::string("manifest field ") + name + " has type " + TypeText(*a));
  }
}

Result<std::optional<std::string>> GetBytes(const arrow::Array* a, std::int64_t row, const char* name) {
  if (a == nullptr || a->IsNull(row)) return std::optional<std::string>();
  switch (a->type_id()) {
    case arrow::Type::STRING:
      return std::optional<std::string>(std::string(static_cast<const arrow::StringArray&>(*a).GetView(row)));
    case arrow::Type::BINARY:
      return std::optional<std::string>(std::string(static_cast<const arrow::BinaryArray&>(*a).GetView(row)));
    case arrow::Type::FIXED_SIZE_BINARY:
      return std::optional<std::string>(std::string(static_cast<const arrow::FixedSizeBinaryArray&>(*a).GetView(row)));
    default: return Status::InvalidArgument(std::string("manifest field ") + name + " has type " + TypeText(*a));
  }
}

Result<int> ParseIntKey(std::string_view text, const char* name) {
  int v = 0;
  const auto* end = text.data() + text.size();
  auto [p, ec] = std::from_chars(text.data(), end, v);
  if (ec != std::errc() || p != end) {
    return Status::InvalidArgument(std::string("manifest field ") + name + " has a non-integer key '" +
                                   std::string(text) + "'");
  }
  return v;
}

// Iceberg's maps keyed by field id: an array of key/value records (what the spec asks for
// non-string keys), or, tolerated, an Avro map whose string keys are the ids.
template <typename V, typename GetValue>
Status ReadIntMap(const arrow::Array* column, std::int64_t row, std::map<int, V>& out, const char* name,
                  GetValue get_value) {
  if (column == nullptr || column->IsNull(row)) return Status::OK();
  if (column->type_id() == arrow::Type::LIST) {
    const auto& list = static_cast<const arrow::ListArray&>(*column);
    if (list.values()->type_id() != arrow::Type::STRUCT) {
      return Status::InvalidArgument(std::string("manifest field ") + name + " has type " + TypeText(list));
    }
    const auto& items = static_cast<const arrow::StructArray&>(*list.values());
    auto keys = items.GetFieldByName("key");
    auto values = items.GetFieldByName("value");
    if (!keys || !values) {
      return Status::InvalidArgument(std::string("manifest field ") + name + " is not a list of key/value records");
    }
    for (std::int64_t i = list.value_offset(row); i < list.value_offset(row) + list.value_length(row); ++i) {
      FLOE_ASSIGN_OR_RETURN(auto key, GetInteger(keys.get(), i, name));
      if (!key) return Status::InvalidArgument(std::string("manifest field ") + name + " has a null key");
      FLOE_ASSIGN_OR_RETURN(auto value, get_value(values.get(), i, name));
      if (value) out[static_cast<int>(*key)] = std::move(*value);  // a null value is "unknown": no entry
    }
    return Status::OK();
  }
  if (column->type_id() == arrow::Type::MAP) {
    const auto& map = static_cast<const arrow::MapArray&>(*column);
    const arrow::Array* keys = map.keys().get();
    const arrow::Array* values = map.items().get();
    for (std::int64_t i = map.value_offset(row); i < map.value_offset(row) + map.value_length(row); ++i) {
      FLOE_ASSIGN_OR_RETURN(auto key_text, GetBytes(keys, i, name));
      if (!key_text) return Status::InvalidArgument(std::string("manifest field ") + name + " has a null key");
      FLOE_ASSIGN_OR_RETURN(int key, ParseIntKey(*key_text, name));
      FLOE_ASSIGN_OR_RETURN(auto value, get_value(values, i, name));
      if (value) out[key] = std::move(*value);
    }
    return Status::OK();
  }
  return Status::InvalidArgument(std::string("manifest field ") + name + " has type " + TypeText(*column));
}

Result<std::optional<std::int64_t>> GetLongValue(const arrow::Array* a, std::int64_t row, const char* name) {
  return GetInteger(a, row, name);
}
Result<std::optional<std::string>> GetBytesValue(const arrow::Array* a, std::int64_t row, const char* name) {
  return GetBytes(a, row, name);
}

Status ReadLongList(const arrow::Array* column, std::int64_t row, std::vector<std::int64_t>& out, const char* name) {
  if (column == nullptr || column->IsNull(row)) return Status::OK();
  if (column->type_id() != arrow::Type::LIST) {
    return Status::InvalidArgument(std::string("manifest field ") + name + " has type " + TypeText(*column));
  }
  const auto& list = static_cast<const arrow::ListArray&>(*column);
  for (std::int64_t i = list.value_offset(row); i < list.value_offset(row) + list.value_length(row); ++i) {
    FLOE_ASSIGN_OR_RETURN(auto v, GetInteger(list.values().get(), i, name));
    if (!v) return Status::InvalidArgument(std::string("manifest field ") + name + " has a null element");
    out.push_back(*v);
  }
  return Status::OK();
}

// The unscaled value of an Arrow decimal (little-endian words) as the minimal big-endian
// two's-complement bytes Floe's decimal literals use.
std::string DecimalBytes(const std::uint8_t* little_endian, int width) {
  std::string be(static_cast<std::size_t>(width), '\0');
  for (int i = 0; i < width; ++i) be[static_cast<std::size_t>(i)] = static_cast<char>(little_endian[width - 1 - i]);
  return schema::MinimalDecimalBytes(be);
}

Result<std::string> UuidFromText(std::string_view text) {
  std::string out;
  int nibble = -1;
  for (char c : text) {
    if (c == '-') continue;
    int v;
    if (c >= '0' && c <= '9') v = c - '0';
    else if (c >= 'a' && c <= 'f') v = c - 'a' + 10;
    else if (c >= 'A' && c <= 'F') v = c - 'A' + 10;
    else return Status::InvalidArgument("partition value '" + std::string(text) + "' is not a uuid");
    if (nibble < 0) {
      nibble = v;
    } else {
      out.push_back(static_cast<char>((nibble << 4) | v));
      nibble = -1;
    }
  }
  if (out.size() != 16 || nibble >= 0) {
    return Status::InvalidArgument("partition value '" + std::string(text) + "' is not a uuid");
  }
  return out;
}

bool IsUnit(const arrow::Array& a, arrow::TimeUnit::type unit) {
  if (a.type_id() == arrow::Type::TIMESTAMP) return static_cast<const arrow::TimestampType&>(*a.type()).unit() == unit;
  if (a.type_id() == arrow::Type::TIME64) return static_cast<const arrow::Time64Type&>(*a.type()).unit() == unit;
  return false;
}

// One partition value of `type` from row `row` of the writer's column.
Result<PartitionValue> PartitionLiteral(const arrow::Array& a, std::int64_t row, const schema::Type& type,
                                        const std::string& field) {
  if (a.IsNull(row) || type.id() == TypeId::kUnknown) return PartitionValue();
  const arrow::Type::type t = a.type_id();
  auto mismatch = [&]() {
    return Status::InvalidArgument("partition field '" + field + "' is " + TypeText(a) + " in the manifest, " +
                                   "which cannot be a value of the partition type " + type.ToString());
  };
  switch (type.id()) {
    case TypeId::kBoolean:
      if (t == arrow::Type::BOOL) return PartitionValue(Literal(static_cast<const arrow::BooleanArray&>(a).Value(row)));
      break;
    case TypeId::kInt:
    case TypeId::kDate:
      if (t == arrow::Type::INT32) return PartitionValue(Literal(static_cast<const arrow::Int32Array&>(a).Value(row)));
      if (t == arrow::Type::DATE32) return PartitionValue(Literal(static_cast<const arrow::Date32Array&>(a).Value(row)));
      break;
    case TypeId::kLong:
      if (t == arrow::Type::INT64) return PartitionValue(Literal(static_cast<const arrow::Int64Array&>(a).Value(row)));
      if (t == arrow::Type::INT32) {  // written before an int → long promotion
        return PartitionValue(Literal(static_cast<std::int64_t>(static_cast<const arrow::Int32Array&>(a).Value(row))));
      }
      break;
    case TypeId::kTime:
      if (t == arrow::Type::INT64) return PartitionValue(Literal(static_cast<const arrow::Int64Array&>(a).Value(row)));
      if (t == arrow::Type::TIME64 && IsUnit(a, arrow::TimeUnit::MICRO)) {
        return PartitionValue(Literal(static_cast<std::int64_t>(static_cast<const arrow::Time64Array&>(a).Value(row))));
      }
      break;
    case TypeId::kTimestamp:
    case TypeId::kTimestampTz:
    case TypeId::kTimestampNs:
    case TypeId::kTimestampTzNs: {
      if (t == arrow::Type::INT64) return PartitionValue(Literal(static_cast<const arrow::Int64Array&>(a).Value(row)));
      const bool nanos = type.id() == TypeId::kTimestampNs || type.id() == TypeId::kTimestampTzNs;
      if (t == arrow::Type::TIMESTAMP && IsUnit(a, nanos ? arrow::TimeUnit::NANO : arrow::TimeUnit::MICRO)) {
        return PartitionValue(Literal(static_cast<std::int64_t>(static_cast<const arrow::TimestampArray&>(a).Value(row))));
      }
      break;
    }
    case TypeId::kFloat:
      if (t == arrow::Type::FLOAT) return PartitionValue(Literal(static_cast<const arrow::FloatArray&>(a).Value(row)));
      break;
    case TypeId::kDouble:
      if (t == arrow::Type::DOUBLE) return PartitionValue(Literal(static_cast<const arrow::DoubleArray&>(a).Value(row)));
      if (t == arrow::Type::FLOAT) {  // written before a float → double promotion
        return PartitionValue(Literal(static_cast<double>(static_cast<const arrow::FloatArray&>(a).Value(row))));
      }
      break;
    case TypeId::kString:
      if (t == arrow::Type::STRING) {
        return PartitionValue(Literal(std::string(static_cast<const arrow::StringArray&>(a).GetView(row))));
      }
      break;
    case TypeId::kBinary:
    case TypeId::kFixed:
      if (t == arrow::Type::BINARY || t == arrow::Type::FIXED_SIZE_BINARY) {
        FLOE_ASSIGN_OR_RETURN(auto bytes, GetBytes(&a, row, field.c_str()));
        if (type.id() == TypeId::kFixed && bytes->size() != static_cast<std::size_t>(type.length())) return mismatch();
        return PartitionValue(Literal(std::move(*bytes)));
      }
      break;
    case TypeId::kUuid:
      if (t == arrow::Type::FIXED_SIZE_BINARY || t == arrow::Type::BINARY) {
        FLOE_ASSIGN_OR_RETURN(auto bytes, GetBytes(&a, row, field.c_str()));
        if (bytes->size() != 16) return mismatch();
        return PartitionValue(Literal(std::move(*bytes)));
      }
      if (t == arrow::Type::STRING) {  // a uuid written as its text form
        FLOE_ASSIGN_OR_RETURN(auto bytes, UuidFromText(static_cast<const arrow::StringArray&>(a).GetView(row)));
        return PartitionValue(Literal(std::move(bytes)));
      }
      break;
    case TypeId::kDecimal:
      if (t == arrow::Type::DECIMAL128) {
        if (static_cast<const arrow::Decimal128Type&>(*a.type()).scale() != type.scale()) return mismatch();
        return PartitionValue(Literal(DecimalBytes(static_cast<const arrow::Decimal128Array&>(a).GetValue(row), 16)));
      }
      if (t == arrow::Type::DECIMAL256) {
        if (static_cast<const arrow::Decimal256Type&>(*a.type()).scale() != type.scale()) return mismatch();
        return PartitionValue(Literal(DecimalBytes(static_cast<const arrow::Decimal256Array&>(a).GetValue(row), 32)));
      }
      if (t == arrow::Type::BINARY || t == arrow::Type::FIXED_SIZE_BINARY) {  // no decimal logical type
        FLOE_ASSIGN_OR_RETURN(auto bytes, GetBytes(&a, row, field.c_str()));
        return PartitionValue(Literal(schema::MinimalDecimalBytes(*bytes)));
      }
      break;
    default:
      return Status::Unsupported("partition field '" + field + "' has type " + type.ToString() +
                                 ", which Floe cannot read from manifests");
  }
  return mismatch();
}

const avro::Field* FindField(const avro::Node& record, std::string_view name) {
  if (record.type != avro::Type::kRecord) return nullptr;
  for (const auto& f : record.fields) {
    if (f.name == name) return &f;
  }
  return nullptr;
}

// A record node, looking through an optional union.
const avro::Node* RecordOf(const avro::Node* node) {
  if (node == nullptr) return nullptr;
  if (node->type == avro::Type::kUnion) {
    for (const auto& b : node->branches) {
      if (b->type == avro::Type::kRecord) return b.get();
    }
    return nullptr;
  }
  return node->type == avro::Type::kRecord ? node : nullptr;
}

// For each field of the spec, the index of its column in the writer's partition record:
// by the "field-id" attribute, else by name.
Result<std::vector<int>> PartitionColumns(const avro::Node& file_schema, const arrow::StructArray& partition,
                                          const schema::PartitionSpec& spec) {
  std::map<int, int> by_id;
  const avro::Field* data_file = FindField(file_schema, "data_file");
  const avro::Field* record = data_file ? FindField(*RecordOf(data_file->node.get()), "partition") : nullptr;
  if (const avro::Node* node = record ? RecordOf(record->node.get()) : nullptr) {
    for (std::size_t i = 0; i < node->fields.size(); ++i) {
      auto it = node->fields[i].attributes.find("field-id");
      if (it == node->fields[i].attributes.end()) continue;
      auto id = nlohmann::json::parse(it->second, nullptr, false);
      if (id.is_number_integer()) by_id[id.get<int>()] = static_cast<int>(i);
    }
  }
  const auto& struct_type = static_cast<const arrow::StructType&>(*partition.type());
  std::vector<int> out;
  for (const auto& pf : spec.fields) {
    if (auto it = by_id.find(pf.field_id); it != by_id.end() && it->second < struct_type.num_fields()) {
      out.push_back(it->second);
      continue;
    }
    const int by_name = struct_type.GetFieldIndex(pf.name);
    if (by_name < 0) {
      return Status::InvalidArgument("manifest has no partition field '" + pf.name + "' (id " +
                                     std::to_string(pf.field_id) + ") of partition spec " +
                                     std::to_string(spec.spec_id));
    }
    out.push_back(by_name);
  }
  return out;
}

Result<std::string> RequiredString(const arrow::Array* a, std::int64_t row, const char* name) {
  FLOE_ASSIGN_OR_RETURN(auto v, GetBytes(a, row, name));
  if (!v) return Status::InvalidArgument(std::string("manifest entry has no ") + name);
  return std::move(*v);
}

Result<std::int64_t> RequiredInteger(const arrow::Array* a, std::int64_t row, const char* name) {
  FLOE_ASSIGN_OR_RETURN(auto v, GetInteger(a, row, name));
  if (!v) return Status::InvalidArgument(std::string("manifest entry has no ") + name);
  return *v;
}

Result<std::vector<ManifestEntry>> ReadEntries(const avro::ContainerFileReader& reader, const arrow::RecordBatch& batch,
                                               const ManifestFile& manifest, const schema::Type& partition_type,
                                               const schema::PartitionSpec& spec) {
  auto status_col = batch.GetColumnByName("status");
  auto snapshot_col = batch.GetColumnByName("snapshot_id");
  auto seq_col = batch.GetColumnByName("sequence_number");
  auto file_seq_col = batch.GetColumnByName("file_sequence_number");
  auto data_file_col = batch.GetColumnByName("data_file");
  if (!status_col || !data_file_col || data_file_col->type_id() != arrow::Type::STRUCT) {
    return Status::InvalidArgument("not a manifest: no status or data_file record");
  }
  const auto& df = static_cast<const arrow::StructArray&>(*data_file_col);
  auto content = Child(df, "content");
  auto path = Child(df, "file_path");
  auto format = Child(df, "file_format");
  auto partition = Child(df, "partition");
  auto record_count = Child(df, "record_count");
  auto size = Child(df, "file_size_in_bytes");
  auto column_sizes = Child(df, "column_sizes");
  auto value_counts = Child(df, "value_counts");
  auto null_counts = Child(df, "null_value_counts");
  auto nan_counts = Child(df, "nan_value_counts");
  auto lower = Child(df, "lower_bounds");
  auto upper = Child(df, "upper_bounds");
  auto split_offsets = Child(df, "split_offsets");
  auto sort_order = Child(df, "sort_order_id");

  const std::size_t n_fields = partition_type.fields().size();
  const arrow::StructArray* partition_struct = nullptr;
  std::vector<std::shared_ptr<arrow::Array>> partition_columns;  // per spec field
  if (n_fields > 0) {
    if (!partition || partition->type_id() != arrow::Type::STRUCT) {
      return Status::InvalidArgument("manifest data_file has no partition record");
    }
    partition_struct = static_cast<const arrow::StructArray*>(partition.get());
    FLOE_ASSIGN_OR_RETURN(auto indexes, PartitionColumns(*reader.schema(), *partition_struct, spec));
    for (int index : indexes) partition_columns.push_back(partition_struct->field(index));
  }

  std::vector<ManifestEntry> out;
  out.reserve(static_cast<std::size_t>(batch.num_rows()));
  for (std::int64_t r = 0; r < batch.num_rows(); ++r) {
    ManifestEntry e;
    FLOE_ASSIGN_OR_RETURN(auto status, RequiredInteger(status_col.get(), r, "status"));
    if (status < 0 || status > 2) return Status::InvalidArgument("manifest entry status " + std::to_string(status));
    e.status = static_cast<EntryStatus>(status);
    FLOE_ASSIGN_OR_RETURN(e.snapshot_id, GetInteger(snapshot_col.get(), r, "snapshot_id"));
    FLOE_ASSIGN_OR_RETURN(e.sequence_number, GetInteger(seq_col.get(), r, "sequence_number"));
    FLOE_ASSIGN_OR_RETURN(e.file_sequence_number, GetInteger(file_seq_col.get(), r, "file_sequence_number"));
    if (df.IsNull(r)) return Status::InvalidArgument("manifest entry has a null data_file");
    FLOE_ASSIGN_OR_RETURN(auto file_content, GetInteger(content.get(), r, "content"));
    if (file_content.value_or(0) < 0 || file_content.value_or(0) > 2) {
      return Status::InvalidArgument("manifest entry content " + std::to_string(*file_content));
    }
    e.content = static_cast<FileContent>(file_content.value_or(0));
    DataFile& f = e.data_file;
    FLOE_ASSIGN_OR_RETURN(f.file_path, RequiredString(path.get(), r, "file_path"));
    FLOE_ASSIGN_OR_RETURN(f.file_format, RequiredString(format.get(), r, "file_format"));
    FLOE_ASSIGN_OR_RETURN(f.record_count, RequiredInteger(record_count.get(), r, "record_count"));
    FLOE_ASSIGN_OR_RETURN(f.file_size_in_bytes, RequiredInteger(size.get(), r, "file_size_in_bytes"));
    f.spec_id = spec.spec_id;
    for (std::size_t i = 0; i < n_fields; ++i) {
      const auto& field = partition_type.fields()[i];
      const arrow::Array& column = *partition_columns[i];
      Result<PartitionValue> value =
          partition_struct->IsNull(r) ? Result<PartitionValue>(PartitionValue())
                                      : PartitionLiteral(column, r, *field.type, field.name);
      if (!value.ok()) return value.status().WithContext(f.file_path);
      f.partition.push_back(std::move(value).value());
    }
    FLOE_RETURN_IF_ERROR(ReadIntMap(column_sizes.get(), r, f.column_sizes, "column_sizes", GetLongValue));
    FLOE_RETURN_IF_ERROR(ReadIntMap(value_counts.get(), r, f.value_counts, "value_counts", GetLongValue));
    FLOE_RETURN_IF_ERROR(ReadIntMap(null_counts.get(), r, f.null_value_counts, "null_value_counts", GetLongValue));
    FLOE_RETURN_IF_ERROR(ReadIntMap(nan_counts.get(), r, f.nan_value_counts, "nan_value_counts", GetLongValue));
    FLOE_RETURN_IF_ERROR(ReadIntMap(lower.get(), r, f.lower_bounds, "lower_bounds", GetBytesValue));
    FLOE_RETURN_IF_ERROR(ReadIntMap(upper.get(), r, f.upper_bounds, "upper_bounds", GetBytesValue));
    FLOE_RETURN_IF_ERROR(ReadLongList(split_offsets.get(), r, f.split_offsets, "split_offsets"));
    FLOE_ASSIGN_OR_RETURN(auto order, GetInteger(sort_order.get(), r, "sort_order_id"));
    if (order) f.sort_order_id = static_cast<int>(*order);

    // Sequence number inheritance: ADDED entries take the manifest's; in v1 (sequence
    // number 0) every entry has 0. EXISTING and DELETED entries of v2 carry their own.
    if (!e.snapshot_id) e.snapshot_id = manifest.added_snapshot_id;
    const bool inherit = e.status == EntryStatus::kAdded || manifest.sequence_number == 0;
    if (!e.sequence_number && inherit) e.sequence_number = manifest.sequence_number;
    if (!e.file_sequence_number && inherit) e.file_sequence_number = manifest.sequence_number;
    out.push_back(std::move(e));
  }
  return out;
}

}  // namespace

Result<std::vector<ManifestEntry>> ReadManifest(const ManifestFile& manifest, const schema::Schema& schema,
                                                const schema::PartitionSpec& spec) {
  const std::string& uri = manifest.manifest_path;
  auto context = [&uri](const Status& s) { return s.WithContext("reading manifest " + uri); };
  std::string path;
  auto fs = storage::FileSystemForUri(uri, &path);
  if (!fs.ok()) return context(fs.status());
  auto input = FromArrow((*fs)->OpenInputFile(path));
  if (!input.ok()) return context(input.status());
  return ReadManifest(manifest, std::move(input).value(), schema, spec);
}

Result<std::vector<ManifestEntry>> ReadManifest(const ManifestFile& manifest,
                                                std::shared_ptr<arrow::io::RandomAccessFile> file,
                                                const schema::Schema& schema, const schema::PartitionSpec& spec) {
  const std::string& uri = manifest.manifest_path;
  auto context = [&uri](const Status& s) { return s.WithContext("reading manifest " + uri); };
  if (manifest.partition_spec_id != spec.spec_id) {
    return Status::InvalidArgument("reading manifest " + uri + ": it is written for partition spec " +
                                   std::to_string(manifest.partition_spec_id) + ", not spec " +
                                   std::to_string(spec.spec_id));
  }
  auto partition_type = spec.PartitionType(schema);
  if (!partition_type.ok()) return context(partition_type.status());
  auto reader = avro::ContainerFileReader::Open(std::move(file));
  if (!reader.ok()) return context(reader.status());
  auto batch = (*reader)->ReadAll();
  if (!batch.ok()) return context(batch.status());
  auto entries = ReadEntries(**reader, **batch, manifest, **partition_type, spec);
  if (!entries.ok()) return context(entries.status());
  return entries;
}

}  // namespace floe::iceberg
