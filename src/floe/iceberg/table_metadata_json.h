#pragma once
// JSON (nlohmann) level of the table metadata model, shared by metadata files and the REST
// wire forms of updates and requirements. Every function here is non-throwing.
#include <nlohmann/json.hpp>

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "floe/core/json_access.h"
#include "floe/core/result.h"
#include "floe/iceberg/table_metadata.h"

namespace floe::iceberg {

Result<TableMetadata> TableMetadataFromJson(const nlohmann::json& j);
nlohmann::json TableMetadataToJson(const TableMetadata& metadata);

// format_version decides v1/v2/v3 specifics (v1: no sequence-number; v3: row lineage).
Result<Snapshot> SnapshotFromJson(const nlohmann::json& j);
nlohmann::json SnapshotToJson(const Snapshot& snapshot, int format_version);

// The ref object of metadata "refs" values (snapshot-id, type, retention fields).
Result<SnapshotRef> SnapshotRefFromJson(const nlohmann::json& j);
// Adds the ref's keys to `out` (an object): REST set-snapshot-ref flattens them in.
void SnapshotRefToJson(const SnapshotRef& ref, nlohmann::json& out);

Result<StatisticsFile> StatisticsFileFromJson(const nlohmann::json& j);
nlohmann::json StatisticsFileToJson(const StatisticsFile& file);

// Parses JSON text without exceptions: kInvalidArgument with the parser's message.
Result<nlohmann::json> ParseJsonText(std::string_view text, std::string_view what);

// "key[i]": how errors name an element of an array member.
inline std::string Indexed(std::string_view key, size_t i) { return std::string(key) + "[" + std::to_string(i) + "]"; }

// Appends parse(element) for each element of `array` (nullptr: an absent optional array, no
// elements); the first failure is returned with the element's place ("key[i]") as context.
template <typename T, typename Parse>
Status ParseJsonArray(const nlohmann::json* array, std::string_view key, std::vector<T>& out, Parse parse) {
  if (array == nullptr) return Status::OK();
  for (size_t i = 0; i < array->size(); ++i) {
    auto item = parse((*array)[i]);
    if (!item.ok()) return item.status().WithContext(Indexed(key, i));
    out.push_back(std::move(item).value());
  }
  return Status::OK();
}

// How this module's JSON code words the errors of floe/core/json_access.h, e.g.
// "'last-column-id' must be an integer, got string \"one\"" or "missing required key 'ref'".
// Members are named by key alone (callers add context with Status::WithContext).
inline constexpr json_access::Wording kJsonWording{
    .kinds = json_access::kBareKindNames,
    .member = "{key}",
    .missing = "missing required key '{key}'",
    .not_container = "{where} must be a JSON {container}, got {kind}",
    .wrong_container = "'{subject}' must be an {container}, got {kind}",
    .wrong_kind = "'{subject}' must be {expected}, got {kind} {value}",
    .out_of_int32 = "'{subject}' must be a 32-bit integer, got {kind} {value}",
    .out_of_int64 = "'{subject}' must be a 64-bit signed integer, got {kind} {value}",
};

}  // namespace floe::iceberg
