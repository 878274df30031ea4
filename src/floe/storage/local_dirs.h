#pragma once
// The local folders Floe writes into — a local warehouse, the folder of a SQLite catalog
// database — are created when a command starts, not left to the first write: a folder that is
// missing and cannot be created then fails at start with its name and what to do, rather than
// as SQLite's "unable to open database file" or a failed first commit.
#include <optional>
#include <string>
#include <string_view>

#include "floe/core/status.h"

namespace floe::storage {

// The local folder of a warehouse given as file:///abs/path or a plain path; nullopt for an
// object store (s3://, gs://, abfss://, …), which has no folders to create.
std::optional<std::string> LocalWarehousePath(std::string_view warehouse);

// `path` is a folder this process can create files in: created with its parents when missing.
// Otherwise kIoError naming `what` (e.g. "the warehouse folder") and `path`, the reason, and
// what to do: create it as a user that may, or `instead` (e.g. "set `warehouse:` to …").
Status EnsureWritableDirectory(const std::string& path, std::string_view what, std::string_view instead);

// EnsureWritableDirectory for a local warehouse (LocalWarehousePath); OK for an object store.
Status PrepareLocalWarehouse(std::string_view warehouse);

}  // namespace floe::storage
