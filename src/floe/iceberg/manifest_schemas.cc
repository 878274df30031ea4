#include "floe/iceberg/manifest_schemas_internal.h"

#include <set>

#include "floe/iceberg/single_value_internal.h"

namespace floe::iceberg {
namespace {

using nlohmann::json;

json Field(const std::string& name, json type, int id) { return {{"name", name}, {"type", std::move(type)}, {"field-id", id}}; }

json Optional(const std::string& name, json type, int id) {
  return {{"name", name}, {"type", json::array({"null", std::move(type)})}, {"default", nullptr}, {"field-id", id}};
}

// Iceberg maps with non-string keys: an array of key/value records marked logicalType map.
json IntMap(const std::string& record, json value_type, int key_id, int value_id) {
  return {{"type", "array"},
          {"logicalType", "map"},
          {"items",
           {{"type", "record"},
            {"name", record},
            {"fields", json::array({Field("key", "int", key_id), Field("value", std::move(value_type), value_id)})}}}};
}

json List(json element, int element_id) { return {{"type", "array"}, {"items", std::move(element)}, {"element-id", element_id}}; }

}  // namespace

Result<json> ManifestEntryAvroSchema(const schema::Schema& schema, const schema::PartitionSpec& spec) {
  json partition_fields = json::array();
  FLOE_ASSIGN_OR_RETURN(auto partition_type, spec.PartitionType(schema));
  // Avro defines each named type (fixed: uuid, fixed[L], decimals) once. Two partition
  // fields of one such type (identity(price) and truncate[10](price), both "decimal_9_2")
  // must not define it twice, which strict readers (Java's Avro, fastavro, Floe's) reject;
  // but the by-name reference Java's writer emits instead is what pyiceberg 0.12 cannot read
  // ("Type not recognized: decimal_9_2"). So each use gets its own definition under a
  // unique name ("decimal_9_2_2"): every reader accepts that, and names play no part in decoding.
  std::set<std::string> used;
  for (std::size_t i = 0; i < spec.fields.size(); ++i) {
    const auto& pf = spec.fields[i];
    FLOE_ASSIGN_OR_RETURN(auto avro_type, AvroTypeOf(*partition_type->fields().at(i).type));
    if (avro_type.is_object() && avro_type.contains("name")) {
      const std::string name = avro_type["name"].get<std::string>();
      std::string unique = name;
      for (int n = 2; used.count(unique); ++n) unique = name + "_" + std::to_string(n);
      used.insert(unique);
      avro_type["name"] = unique;
    }
    partition_fields.push_back(Optional(pf.name, avro_type, pf.field_id));
  }
  json partition = {{"type", "record"}, {"name", "r102"}, {"fields", partition_fields}};
  json data_file = {
      {"type", "record"},
      {"name", "r2"},
      {"fields",
       json::array({
           Field("content", "int", 134),
           Field("file_path", "string", 100),
           Field("file_format", "string", 101),
           Field("partition", partition, 102),
           Field("record_count", "long", 103),
           Field("file_size_in_bytes", "long", 104),
           Optional("column_sizes", IntMap("k117_v118", "long", 117, 118), 108),
           Optional("value_counts", IntMap("k119_v120", "long", 119, 120), 109),
           Optional("null_value_counts", IntMap("k121_v122", "long", 121, 122), 110),
           Optional("nan_value_counts", IntMap("k138_v139", "long", 138, 139), 137),
           Optional("lower_bounds", IntMap("k126_v127", "bytes", 126, 127), 125),
           Optional("upper_bounds", IntMap("k129_v130", "bytes", 129, 130), 128),
           Optional("key_metadata", "bytes", 131),
           Optional("split_offsets", List("long", 133), 132),
           Optional("equality_ids", List("int", 136), 135),
           Optional("sort_order_id", "int", 140),
       })}};
  return json{{"type", "record"},
              {"name", "manifest_entry"},
              {"fields", json::array({Field("status", "int", 0), Optional("snapshot_id", "long", 1),
                                      Optional("sequence_number", "long", 3),
                                      Optional("file_sequence_number", "long", 4), Field("data_file", data_file, 2)})}};
}

json ManifestFileAvroSchema() {
  json summary = {{"type", "record"},
                  {"name", "r508"},
                  {"fields", json::array({Field("contains_null", "boolean", 509), Optional("contains_nan", "boolean", 518),
                                          Optional("lower_bound", "bytes", 510), Optional("upper_bound", "bytes", 511)})}};
  return {{"type", "record"},
          {"name", "manifest_file"},
          {"fields", json::array({
                         Field("manifest_path", "string", 500),
                         Field("manifest_length", "long", 501),
                         Field("partition_spec_id", "int", 502),
                         Field("content", "int", 517),
                         Field("sequence_number", "long", 515),
                         Field("min_sequence_number", "long", 516),
                         Field("added_snapshot_id", "long", 503),
                         Field("added_files_count", "int", 504),
                         Field("existing_files_count", "int", 505),
                         Field("deleted_files_count", "int", 506),
                         Field("added_rows_count", "long", 512),
                         Field("existing_rows_count", "long", 513),
                         Field("deleted_rows_count", "long", 514),
                         Optional("partitions", List(summary, 508), 507),
                         Optional("key_metadata", "bytes", 519),
                     })}};
}

}  // namespace floe::iceberg
