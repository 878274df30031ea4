#pragma once
// JSON (nlohmann) level of the table metadata model, shared by metadata files and the REST
// wire forms of updates and requirements. Every function here is non-throwing.
#include <nlohmann/json.hpp>

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

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

// Typed access to object members with errors naming the key. For use by this module's
// JSON code; a missing optional key and an explicit null both read as nullopt.
namespace json_detail {

const nlohmann::json* Find(const nlohmann::json& obj, std::string_view key);
Status RequireObject(const nlohmann::json& j, std::string_view what);
Result<std::int64_t> GetInt64(const nlohmann::json& obj, std::string_view key);
Result<int> GetInt(const nlohmann::json& obj, std::string_view key);
Result<std::optional<std::int64_t>> GetOptionalInt64(const nlohmann::json& obj, std::string_view key);
Result<std::optional<int>> GetOptionalInt(const nlohmann::json& obj, std::string_view key);
Result<std::string> GetString(const nlohmann::json& obj, std::string_view key);
Result<std::optional<std::string>> GetOptionalString(const nlohmann::json& obj, std::string_view key);
// An object of string values; numbers and booleans are accepted and kept as their JSON
// text (other writers sometimes emit them). Absent -> empty.
Result<std::map<std::string, std::string, std::less<>>> GetStringMap(const nlohmann::json& obj, std::string_view key);
Result<std::vector<std::string>> GetStringList(const nlohmann::json& obj, std::string_view key);
Result<std::vector<std::int64_t>> GetInt64List(const nlohmann::json& obj, std::string_view key);
Result<std::vector<int>> GetIntList(const nlohmann::json& obj, std::string_view key);
// The JSON kind for messages: "string", "number", "null", ...
std::string_view KindName(const nlohmann::json& j);

}  // namespace json_detail
}  // namespace floe::iceberg
