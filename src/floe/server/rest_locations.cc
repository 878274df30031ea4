#include "floe/server/rest_locations_internal.h"

#include <algorithm>
#include <array>
#include <string_view>
#include <variant>
#include <vector>

#include "floe/core/ascii.h"
#include "floe/core/percent_encoding.h"

namespace floe::server {
namespace {

// The properties that move a table's files away from its location (Iceberg's TableProperties).
constexpr std::array<std::string_view, 4> kPathProperties = {"write.metadata.path", "write.data.path",
                                                             "write.object-storage.path", "write.folder-storage.path"};

struct Place {
  std::string root;                   // "file://" or "s3://bucket"
  std::vector<std::string> segments;  // the path's non-empty segments, as written
};

Result<Place> ParsePlace(const std::string& uri) {
  Place place;
  std::string_view path;
  if (uri.starts_with("/")) {
    place.root = "file://";
    path = uri;
  } else if (AsciiLower(uri.substr(0, 5)) == "file:") {
    std::string_view rest = std::string_view(uri).substr(5);
    if (rest.starts_with("//")) {  // file://authority/path: only an empty authority is local
      const auto slash = rest.find('/', 2);
      if (slash != 2) return Status::InvalidArgument("'" + uri + "' names a host; local locations have none");
      rest = rest.substr(2);
    }
    place.root = "file://";
    path = rest;
  } else {
    const auto colon = uri.find("://");
    if (colon == std::string::npos || colon == 0) {
      return Status::InvalidArgument("'" + uri + "' is neither an absolute path nor a URI");
    }
    std::string scheme = AsciiLower(uri.substr(0, colon));
    if (scheme == "s3a" || scheme == "s3n") scheme = "s3";
    const auto slash = uri.find('/', colon + 3);
    place.root = scheme + "://" + uri.substr(colon + 3, slash == std::string::npos ? std::string::npos : slash - colon - 3);
    path = slash == std::string::npos ? std::string_view() : std::string_view(uri).substr(slash);
  }
  if (path.find_first_of("?#\\") != std::string_view::npos) {
    return Status::InvalidArgument("'" + uri + "' has a query, fragment or backslash");
  }
  std::size_t start = 0;
  while (start <= path.size()) {
    const auto end = std::min(path.find('/', start), path.size());
    const std::string segment(path.substr(start, end - start));
    start = end + 1;
    if (segment.empty()) continue;
    // Checked as written and percent-decoded: object stores and file systems differ in
    // whether they decode a URI's path.
    auto decoded = PercentDecode(segment);
    for (const std::string& form : {segment, decoded.ok() ? *decoded : segment}) {
      if (form == "." || form == ".." || form.find('/') != std::string::npos ||
          form.find('\\') != std::string::npos ||
          std::any_of(form.begin(), form.end(), [](unsigned char c) { return c < 0x20 || c == 0x7f; })) {
        return Status::InvalidArgument("'" + uri + "' has a path segment '" + segment +
                                       "' that is a dot segment or hides a separator or control character");
      }
    }
    place.segments.push_back(segment);
  }
  return place;
}

}  // namespace

Status CheckInsideWarehouse(const std::string& location, const std::string& warehouse, const std::string& what) {
  auto refuse = [&](const std::string& why) {
    return Status::InvalidArgument(what + " '" + location + "' is outside the warehouse " + warehouse + ": " + why);
  };
  auto place = ParsePlace(location);
  if (!place.ok()) return refuse(place.status().message());
  auto home = ParsePlace(warehouse);
  if (!home.ok()) return Status::Internal("the warehouse " + warehouse + " is not a location: " + home.status().message());
  if (place->root != home->root) return refuse("another store or bucket");
  if (place->segments.size() <= home->segments.size() ||
      !std::equal(home->segments.begin(), home->segments.end(), place->segments.begin())) {
    return refuse("tables live below it");
  }
  return Status::OK();
}

Status CheckAllowedLocation(const std::string& location, const AllowedLocations& allowed, const std::string& what) {
  const Status in_warehouse = CheckInsideWarehouse(location, allowed.warehouse, what);
  if (in_warehouse.ok() || in_warehouse.code() != StatusCode::kInvalidArgument || allowed.extra.empty()) {
    return in_warehouse;
  }
  for (const std::string& place : allowed.extra) {
    const Status st = CheckInsideWarehouse(location, place, what);
    if (st.ok() || st.code() != StatusCode::kInvalidArgument) return st;
  }
  std::string places;
  for (const std::string& place : allowed.extra) places += ", " + place;
  return Status::InvalidArgument(what + " '" + location + "' is outside the warehouse " + allowed.warehouse +
                                 " and catalog.allowed_locations (" + places.substr(2) +
                                 "): tables and views live below one of them");
}

namespace {

template <typename Map>
Status CheckPathProperties(const Map& properties, const AllowedLocations& allowed) {
  for (std::string_view key : kPathProperties) {
    auto it = properties.find(std::string(key));
    if (it == properties.end()) continue;
    FLOE_RETURN_IF_ERROR(CheckAllowedLocation(it->second, allowed, "property " + std::string(key)));
  }
  return Status::OK();
}

}  // namespace

Status CheckTableLocations(const catalog::NewTable& table, const AllowedLocations& allowed) {
  if (!table.location.empty()) FLOE_RETURN_IF_ERROR(CheckAllowedLocation(table.location, allowed, "location"));
  return CheckPathProperties(table.properties, allowed);
}

namespace {

// Table and view updates share SetLocationUpdate and SetPropertiesUpdate.
template <typename Updates>
Status CheckUpdates(const Updates& updates, const AllowedLocations& allowed) {
  for (const auto& update : updates) {
    if (const auto* set = std::get_if<iceberg::SetLocationUpdate>(&update)) {
      FLOE_RETURN_IF_ERROR(CheckAllowedLocation(set->location, allowed, "set-location"));
    } else if (const auto* props = std::get_if<iceberg::SetPropertiesUpdate>(&update)) {
      FLOE_RETURN_IF_ERROR(CheckPathProperties(props->updates, allowed));
    }
  }
  return Status::OK();
}

}  // namespace

Status CheckChangeLocations(const catalog::TableChange& change, const AllowedLocations& allowed) {
  return CheckUpdates(change.updates, allowed);
}

Status CheckViewLocations(const iceberg::NewView& view, const AllowedLocations& allowed) {
  if (!view.location.empty()) FLOE_RETURN_IF_ERROR(CheckAllowedLocation(view.location, allowed, "location"));
  return CheckPathProperties(view.properties, allowed);
}

Status CheckViewChangeLocations(const catalog::ViewChange& change, const AllowedLocations& allowed) {
  return CheckUpdates(change.updates, allowed);
}

}  // namespace floe::server
