#include "floe/storage/local_dirs.h"

#include <unistd.h>

#include <filesystem>
#include <system_error>

namespace floe::storage {

std::optional<std::string> LocalWarehousePath(std::string_view warehouse) {
  // The same split as FileIO::Open and DefaultCatalogUri: file:// or no scheme is local.
  if (warehouse.rfind("file://", 0) == 0) return std::string(warehouse.substr(7));
  if (warehouse.empty() || warehouse.find("://") != std::string_view::npos) return std::nullopt;
  return std::string(warehouse);
}

Status EnsureWritableDirectory(const std::string& path, std::string_view what, std::string_view instead) {
  namespace fs = std::filesystem;
  const std::string named = std::string(what) + " " + path;
  const std::string todo = "create it (mkdir -p " + path + ") as a user allowed to and make it writable by the user "
                           "running floe (uid " + std::to_string(::getuid()) + "), or " + std::string(instead);
  std::error_code ec;
  const auto status = fs::status(path, ec);
  if (fs::exists(status) && !fs::is_directory(status)) {
    return Status::IoError(named + " exists but is not a folder: remove it, or " + std::string(instead));
  }
  if (!fs::exists(status)) {
    fs::create_directories(path, ec);
    if (ec) return Status::IoError("cannot create " + named + ": " + ec.message() + "; " + todo);
  }
  // Creating files needs write and search permission on the folder; SQLite's WAL files and
  // Floe's temporary files are created beside the ones it writes.
  if (::access(path.c_str(), W_OK | X_OK) != 0) {
    return Status::IoError(named + " exists but this user cannot create files in it; " + todo);
  }
  return Status::OK();
}

Status PrepareLocalWarehouse(std::string_view warehouse) {
  const auto path = LocalWarehousePath(warehouse);
  if (!path) return Status::OK();
  return EnsureWritableDirectory(*path, "the warehouse folder",
                                 "set `warehouse:` in floe.yaml to a folder floe may create");
}

}  // namespace floe::storage
