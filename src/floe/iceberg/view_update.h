#pragma once
// View metadata changes: the ViewUpdate and ViewRequirement objects of the Iceberg REST
// catalog API (CommitViewRequest, wire form {"action": "add-view-version", …}) and how they
// apply to view metadata, following Java's ViewMetadata.Builder:
//
// - add-schema reuses an equal schema (fields and identifier ids, ignoring the schema id),
//   else the schema gets id = highest + 1 (0 for the first); field ids are kept as sent and
//   last-column-id is ignored (views have none).
// - add-view-version reuses an equal version (same summary, representations, default
//   catalog/namespace and schema id; the id, timestamp and operation do not count), else the
//   version gets id = max(sent id, highest + 1). A schema-id of -1 means the schema added
//   earlier in this list. A version may hold one SQL representation per dialect
//   (case-insensitively): "Invalid view version: Cannot add multiple queries for dialect trino".
// - set-current-view-version -1 means the version added (or reused) earlier in this list; a
//   change of the current version appends to version-log, at the version's timestamp when it
//   was added in this list, else at now_ms.
// - Replacing the current version must keep every SQL dialect of the previous one unless the
//   property replace.drop-dialect.allowed is true. Versions beyond version.history.num-entries
//   (default 10) are expired, oldest ids first, never the current one or one added here;
//   version-log is cut before any entry whose version is gone.
// - assign-uuid cannot change an existing uuid; upgrade-format-version above 1 is kUnsupported.
// - When nothing changed, ApplyViewUpdates returns the base as it was (no new metadata file
//   is needed): `changed` tells the caller.
//
// Errors are kInvalidArgument naming the update's index and action (kUnsupported for a format
// version), worded as Java's builder words them where clients match the text.
#include <nlohmann/json.hpp>

#include <cstdint>
#include <functional>
#include <map>
#include <string>
#include <variant>
#include <vector>

#include "floe/core/result.h"
#include "floe/iceberg/table_update.h"
#include "floe/iceberg/view_metadata.h"

namespace floe::iceberg {

struct AddViewVersionUpdate { ViewVersion version; };
struct SetCurrentViewVersionUpdate { int version_id = kLastAdded; };

// The updates that apply to views; the shared ones have the table updates' types.
using ViewUpdate = std::variant<AssignUuidUpdate, UpgradeFormatVersionUpdate, AddSchemaUpdate, SetLocationUpdate,
                                SetPropertiesUpdate, RemovePropertiesUpdate, AddViewVersionUpdate,
                                SetCurrentViewVersionUpdate>;

struct AssertViewUuid { std::string uuid; };  // the only view requirement of the REST spec

// REST wire forms. An action that does not apply to views (add-snapshot, …) or a requirement
// other than assert-view-uuid is kInvalidArgument naming it.
Result<ViewUpdate> ViewUpdateFromJson(const nlohmann::json& j);
nlohmann::json ViewUpdateToJson(const ViewUpdate& update);
Result<AssertViewUuid> ViewRequirementFromJson(const nlohmann::json& j);

// kConflict ("Requirement failed: view UUID does not match: expected a != b") when a
// requirement does not hold against the current metadata.
Status CheckViewRequirements(const ViewMetadata& current, const std::vector<AssertViewUuid>& requirements);

// Applies updates in order to `base`; `changed` (optional) tells whether anything changed.
Result<ViewMetadata> ApplyViewUpdates(const ViewMetadata& base, const std::vector<ViewUpdate>& updates,
                                      std::int64_t now_ms, bool* changed = nullptr);

// Metadata of a new view (REST createView): the properties, the location, the schema (its id
// becomes 0) and the first version (its id becomes 1, its schema id the schema's), applied to
// empty metadata with a random uuid.
struct NewView {
  std::string location;
  schema::Schema schema;
  ViewVersion version;
  std::map<std::string, std::string, std::less<>> properties;
};
Result<ViewMetadata> NewViewMetadata(const NewView& view, std::int64_t now_ms);

}  // namespace floe::iceberg
