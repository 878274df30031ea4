#pragma once
// Where a client may put a table: the served catalog writes metadata files under a table's
// location (or its write.metadata.path), deletes that location on a purge, and hands it to
// engines for their data files. A location outside the warehouse would let any client with
// write access place files anywhere Floe can write, and purge anything Floe can delete, so
// every location a request sets must lie strictly inside the warehouse, or inside one of the
// places the operator lists in catalog.allowed_locations (docs/security.md).
#include <string>
#include <vector>

#include "floe/catalog/iceberg_catalog.h"
#include "floe/core/result.h"
#include "floe/iceberg/view_update.h"

namespace floe::server {

// OK when `location` is strictly below `warehouse`: the same scheme and bucket/account (s3a://
// and s3n:// count as s3://; a local path, file:/p and file:///p are one place), and a path
// below the warehouse's with no "." or ".." segment, nor one that percent-decodes to a
// separator, a dot segment or a control character. kInvalidArgument naming `what` otherwise.
Status CheckInsideWarehouse(const std::string& location, const std::string& warehouse, const std::string& what);

// Where clients may put tables and views: below the warehouse, or below any of `extra`
// (catalog.allowed_locations).
struct AllowedLocations {
  std::string warehouse;
  std::vector<std::string> extra;
};

// OK when `location` is strictly below one of `allowed`'s places (CheckInsideWarehouse's rules);
// otherwise kInvalidArgument naming `what`, the location and every allowed place.
Status CheckAllowedLocation(const std::string& location, const AllowedLocations& allowed, const std::string& what);

// The locations a new table or a change would set: `location`, set-location updates, and the
// write.*.path properties that redirect metadata and data files.
Status CheckTableLocations(const catalog::NewTable& table, const AllowedLocations& allowed);
Status CheckChangeLocations(const catalog::TableChange& change, const AllowedLocations& allowed);
// The same for views (their metadata files go to the location too).
Status CheckViewLocations(const iceberg::NewView& view, const AllowedLocations& allowed);
Status CheckViewChangeLocations(const catalog::ViewChange& change, const AllowedLocations& allowed);

}  // namespace floe::server
