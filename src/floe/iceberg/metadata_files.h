#pragma once
// Names of table metadata files. Like Java's catalogs (and pyiceberg), every commit writes
// a new file `<location>/metadata/<NNNNN>-<uuid>.metadata.json`: NNNNN is the version,
// zero-padded to 5 digits (more digits past 99999), starting at 00000 for a new table, and
// the uuid is random so that concurrent writers never collide. The table property
// write.metadata.path, when set, replaces `<location>/metadata`.
// Reading and writing the files through storage is the storage/catalog modules' job.
#include <optional>
#include <string>
#include <string_view>

#include "floe/core/result.h"
#include "floe/iceberg/table_metadata.h"

namespace floe::iceberg {

inline constexpr std::string_view kMetadataFileSuffix = ".metadata.json";
inline constexpr std::string_view kPropWriteMetadataPath = "write.metadata.path";

// "00001-<uuid>.metadata.json"
std::string MetadataFileName(int version, std::string_view uuid);
// The metadata directory: write.metadata.path, else "<location>/metadata" (no trailing '/').
// The second form serves views, whose metadata files live the same way.
std::string MetadataDirectory(const TableMetadata& metadata);
std::string MetadataDirectory(std::string_view location, std::optional<std::string_view> write_metadata_path);
// "<location>/metadata/00001-<uuid>.metadata.json" (a trailing '/' on location is dropped).
std::string MetadataFilePath(std::string_view table_location, int version, std::string_view uuid);
// The path for writing `metadata` as `version`, in MetadataDirectory, with a new random uuid.
std::string NewMetadataFilePath(const TableMetadata& metadata, int version);

// The version of a metadata file from its path or name: "…/00042-<uuid>.metadata.json" -> 42.
// Also accepts a compression infix ("00042-<uuid>.gz.metadata.json") and the Hadoop-table
// form "v42.metadata.json". Anything else is kInvalidArgument.
Result<int> ParseMetadataVersion(std::string_view path);
// The version after the file at previous_path; 0 when previous_path is empty (new table).
Result<int> NextMetadataVersion(std::string_view previous_path);

}  // namespace floe::iceberg
