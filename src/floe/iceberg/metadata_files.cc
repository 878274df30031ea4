#include "floe/iceberg/metadata_files.h"

#include <charconv>
#include <cstdio>
#include <limits>

#include "floe/core/uuid.h"

namespace floe::iceberg {
namespace {

std::string_view StripTrailingSlashes(std::string_view s) {
  while (!s.empty() && s.back() == '/') s.remove_suffix(1);
  return s;
}

bool AllDigits(std::string_view s) {
  if (s.empty()) return false;
  for (char c : s) {
    if (c < '0' || c > '9') return false;
  }
  return true;
}

// "'<text>'", built by appending (GCC 12 -O3 reports a false -Wrestrict for "'" + std::string).
std::string Quoted(std::string_view text) {
  std::string out = "'";
  out += text;
  out += '\'';
  return out;
}

}  // namespace

std::string MetadataFileName(int version, std::string_view uuid) {
  char digits[16];
  std::snprintf(digits, sizeof(digits), "%05d", version);
  std::string out(digits);
  out += '-';
  out += uuid;
  out += kMetadataFileSuffix;
  return out;
}

std::string MetadataDirectory(std::string_view location, std::optional<std::string_view> write_metadata_path) {
  if (write_metadata_path && !StripTrailingSlashes(*write_metadata_path).empty()) {
    return std::string(StripTrailingSlashes(*write_metadata_path));
  }
  return std::string(StripTrailingSlashes(location)) + "/metadata";
}

std::string MetadataDirectory(const TableMetadata& metadata) {
  return MetadataDirectory(metadata.location, metadata.Property(kPropWriteMetadataPath));
}

std::string MetadataFilePath(std::string_view table_location, int version, std::string_view uuid) {
  return std::string(StripTrailingSlashes(table_location)) + "/metadata/" + MetadataFileName(version, uuid);
}

std::string NewMetadataFilePath(const TableMetadata& metadata, int version) {
  return MetadataDirectory(metadata) + "/" + MetadataFileName(version, floe::NewUuid());
}

Result<int> ParseMetadataVersion(std::string_view path) {
  std::string_view name = path;
  if (auto slash = name.rfind('/'); slash != std::string_view::npos) name.remove_prefix(slash + 1);
  auto invalid = [&] {
    return Status::InvalidArgument(Quoted(path) +
                                   " is not a metadata file name (<NNNNN>-<uuid>.metadata.json or v<N>.metadata.json)");
  };
  if (name.size() <= kMetadataFileSuffix.size() || name.substr(name.size() - kMetadataFileSuffix.size()) != kMetadataFileSuffix) {
    return invalid();
  }
  std::string_view digits;
  if (auto dash = name.find('-'); dash != std::string_view::npos && AllDigits(name.substr(0, dash))) {
    digits = name.substr(0, dash);
    if (dash + 1 + kMetadataFileSuffix.size() >= name.size()) return invalid();  // no uuid
  } else if (name.front() == 'v') {
    std::string_view stem = name.substr(1, name.size() - 1 - kMetadataFileSuffix.size());
    if (auto dot = stem.find('.'); dot != std::string_view::npos) stem = stem.substr(0, dot);  // "v3.gz"
    if (!AllDigits(stem)) return invalid();
    digits = stem;
  } else {
    return invalid();
  }
  int version = 0;
  auto [ptr, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), version);
  if (ec != std::errc() || ptr != digits.data() + digits.size()) {
    return Status::InvalidArgument(Quoted(path) + ": metadata version " + std::string(digits) +
                                   " is out of range");
  }
  return version;
}

Result<int> NextMetadataVersion(std::string_view previous_path) {
  if (previous_path.empty()) return 0;
  FLOE_ASSIGN_OR_RETURN(int version, ParseMetadataVersion(previous_path));
  if (version == std::numeric_limits<int>::max()) {
    return Status::InvalidArgument("metadata version " + std::to_string(version) + " cannot be incremented");
  }
  return version + 1;
}

}  // namespace floe::iceberg
