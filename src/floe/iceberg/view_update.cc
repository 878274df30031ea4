// Applying view updates to view metadata (Java's ViewMetadata.Builder), and their wire form.
#include "floe/iceberg/view_update.h"

#include <algorithm>
#include <charconv>
#include <optional>
#include <set>
#include <type_traits>
#include <utility>

#include "floe/core/ascii.h"
#include "floe/core/json_access.h"
#include "floe/core/uuid.h"
#include "floe/iceberg/table_metadata_json.h"

namespace floe::iceberg {

namespace {

using nlohmann::json;
namespace ja = json_access;

// The SQL dialects of a version, lower-cased, in order.
std::vector<std::string> Dialects(const ViewVersion& v) {
  std::vector<std::string> out;
  for (const auto& r : v.representations) {
    if (r.IsSql()) out.push_back(AsciiLower(r.dialect));
  }
  return out;
}

std::string ListText(const std::set<std::string>& items) {
  std::string out = "[";
  for (const auto& i : items) out += (out.size() > 1 ? ", " : "") + i;
  return out + "]";
}

// Java's sameViewVersion: what the version does, not when or under which id it was made.
bool SameViewVersion(const ViewVersion& a, const ViewVersion& b) {
  return a.summary == b.summary && a.representations == b.representations && a.default_catalog == b.default_catalog &&
         a.default_namespace == b.default_namespace && a.schema_id == b.schema_id;
}

// A property parsed as Java's PropertyUtil does: booleans case-insensitively, ints strictly.
bool BoolProperty(const ViewMetadata& m, std::string_view key) {
  auto value = m.Property(key);
  return value && AsciiLower(*value) == "true";
}

Result<int> HistorySize(const ViewMetadata& m) {
  auto value = m.Property(kPropVersionHistorySize);
  if (!value) return kDefaultVersionHistorySize;
  int parsed = 0;
  const char* end = value->data() + value->size();
  auto [ptr, ec] = std::from_chars(value->data(), end, parsed);
  if (ec != std::errc() || ptr != end) {
    return Status::InvalidArgument(std::string(kPropVersionHistorySize) + " must be an integer, got '" +
                                   std::string(*value) + "'");
  }
  if (parsed <= 0) {
    return Status::InvalidArgument(std::string(kPropVersionHistorySize) + " must be positive but was " +
                                   std::to_string(parsed));
  }
  return parsed;
}

class ViewBuilder {
 public:
  ViewBuilder(ViewMetadata start, std::int64_t now_ms, const ViewMetadata* base)
      : m_(std::move(start)), now_ms_(now_ms), base_(base) {}

  Status Apply(const ViewUpdate& update) {
    return std::visit([this](const auto& u) { return Do(u); }, update);
  }
  bool changed() const { return changed_; }

  Result<ViewMetadata> Finish() {
    if (m_.view_uuid.empty()) m_.view_uuid = floe::NewUuid();
    if (m_.location.empty()) return Status::InvalidArgument("Invalid location: the view has no location");
    if (m_.versions.empty()) return Status::InvalidArgument("Invalid view: no versions were added");
    if (history_entry_) m_.version_log.push_back(*history_entry_);
    if (base_ != nullptr && base_->CurrentVersion() != nullptr && !BoolProperty(m_, kPropReplaceDropDialectAllowed)) {
      FLOE_RETURN_IF_ERROR(CheckNoDialectDropped(*base_->CurrentVersion(), *m_.CurrentVersion()));
    }
    FLOE_ASSIGN_OR_RETURN(int history_size, HistorySize(m_));
    ExpireVersions(history_size);
    FLOE_RETURN_IF_ERROR(ValidateViewMetadata(m_));
    return std::move(m_);
  }

 private:
  Status Do(const AssignUuidUpdate& u) {
    if (!IsValidUuid(u.uuid)) return Status::InvalidArgument("'" + u.uuid + "' is not a UUID");
    if (m_.view_uuid == u.uuid) return Status::OK();
    if (!m_.view_uuid.empty()) return Status::InvalidArgument("Cannot reassign uuid " + m_.view_uuid);
    m_.view_uuid = u.uuid;
    changed_ = true;
    return Status::OK();
  }

  Status Do(const UpgradeFormatVersionUpdate& u) {
    if (u.format_version < m_.format_version) {
      return Status::InvalidArgument("Cannot downgrade v" + std::to_string(m_.format_version) + " view to v" +
                                     std::to_string(u.format_version));
    }
    if (u.format_version != kViewFormatVersion) {
      return Status::Unsupported("Unsupported format version: " + std::to_string(u.format_version) +
                                 " (views have format version 1)");
    }
    return Status::OK();
  }

  Status Do(const AddSchemaUpdate& u) {
    int new_id = 0;
    for (const auto& existing : m_.schemas) {
      if (SameSchema(existing, u.schema)) {
        return Status::OK();  // not "last added": Java's builder keeps that for new schemas only
      }
      new_id = std::max(new_id, existing.schema_id + 1);
    }
    schema::Schema s = u.schema;
    s.schema_id = new_id;
    m_.schemas.push_back(std::move(s));
    last_added_schema_ = new_id;
    changed_ = true;
    return Status::OK();
  }

  Status Do(const SetLocationUpdate& u) {
    if (u.location.empty()) return Status::InvalidArgument("Invalid location: empty");
    if (u.location == m_.location) return Status::OK();
    m_.location = u.location;
    changed_ = true;
    return Status::OK();
  }

  Status Do(const SetPropertiesUpdate& u) {
    if (u.updates.empty()) return Status::OK();
    for (const auto& [k, v] : u.updates) m_.properties.insert_or_assign(k, v);
    changed_ = true;
    return Status::OK();
  }

  Status Do(const RemovePropertiesUpdate& u) {
    if (u.removals.empty()) return Status::OK();
    for (const auto& k : u.removals) {
      if (auto it = m_.properties.find(k); it != m_.properties.end()) m_.properties.erase(it);
    }
    changed_ = true;
    return Status::OK();
  }

  Status Do(const AddViewVersionUpdate& u) {
    ViewVersion v = u.version;
    // Reuse is decided on the version as sent (a schema id of -1 never matches), as Java does.
    int new_id = v.version_id;
    for (const auto& existing : m_.versions) {
      if (SameViewVersion(existing, v)) {
        last_added_version_ = added_versions_.count(existing.version_id) != 0 ? std::optional(existing.version_id)
                                                                              : std::nullopt;
        reused_version_ = existing.version_id;
        return Status::OK();
      }
      new_id = std::max(new_id, existing.version_id + 1);
    }
    v.version_id = new_id;
    if (v.schema_id == kLastAdded) {
      if (!last_added_schema_) return Status::InvalidArgument("Cannot set last added schema: no schema has been added");
      v.schema_id = *last_added_schema_;
    }
    if (m_.SchemaById(v.schema_id) == nullptr) {
      return Status::InvalidArgument("Cannot add version with unknown schema: " + std::to_string(v.schema_id));
    }
    std::set<std::string> dialects;
    for (const auto& d : Dialects(v)) {
      if (!dialects.insert(d).second) {
        return Status::InvalidArgument("Invalid view version: Cannot add multiple queries for dialect " + d);
      }
    }
    m_.versions.push_back(std::move(v));
    added_versions_.insert(new_id);
    last_added_version_ = new_id;
    changed_ = true;
    return Status::OK();
  }

  Status Do(const SetCurrentViewVersionUpdate& u) {
    int id = u.version_id;
    if (id == kLastAdded) {
      if (!last_added_version_) {
        // A version re-sent unchanged is not "added"; -1 then means that version (Java's client
        // sends its own id in that case, so only other clients get here).
        if (!reused_version_) return Status::InvalidArgument("Cannot set last version id: no current version id has been set");
        id = *reused_version_;
      } else {
        id = *last_added_version_;
      }
    }
    if (id == m_.current_version_id && m_.CurrentVersion() != nullptr) return Status::OK();
    const ViewVersion* version = m_.VersionById(id);
    if (version == nullptr) {
      return Status::InvalidArgument("Cannot set current version to unknown version: " + std::to_string(id));
    }
    m_.current_version_id = id;
    history_entry_ = ViewHistoryEntry{added_versions_.count(id) != 0 ? version->timestamp_ms : now_ms_, id};
    changed_ = true;
    return Status::OK();
  }

  static Status CheckNoDialectDropped(const ViewVersion& previous, const ViewVersion& current) {
    auto before = Dialects(previous);
    auto after = Dialects(current);
    std::set<std::string> base(before.begin(), before.end());
    std::set<std::string> updated(after.begin(), after.end());
    if (std::includes(updated.begin(), updated.end(), base.begin(), base.end())) return Status::OK();
    return Status::InvalidArgument("Cannot replace view due to loss of view dialects (" +
                                   std::string(kPropReplaceDropDialectAllowed) + "=false):\nPrevious dialects: " +
                                   ListText(base) + "\nNew dialects: " + ListText(updated));
  }

  // Java's expireVersions/updateHistory: keep the current version, the ones added here and
  // then the highest ids, up to the history size; the log restarts after a dropped version.
  void ExpireVersions(int history_size) {
    std::set<int> must_keep = added_versions_;
    must_keep.insert(m_.current_version_id);
    const size_t keep = std::max(must_keep.size(), static_cast<size_t>(history_size));
    if (m_.versions.size() <= keep) return;
    std::vector<int> ids;
    for (const auto& v : m_.versions) ids.push_back(v.version_id);
    std::sort(ids.rbegin(), ids.rend());
    std::set<int> retained = {m_.current_version_id};
    for (int id : ids) {
      if (retained.size() >= keep) break;
      retained.insert(id);
    }
    std::erase_if(m_.versions, [&](const ViewVersion& v) { return retained.count(v.version_id) == 0; });
    std::vector<ViewHistoryEntry> log;
    for (const auto& e : m_.version_log) {
      if (retained.count(e.version_id) == 0) {
        log.clear();
      } else {
        log.push_back(e);
      }
    }
    m_.version_log = std::move(log);
  }

  ViewMetadata m_;
  std::int64_t now_ms_;
  const ViewMetadata* base_;
  bool changed_ = false;
  std::optional<int> last_added_schema_;
  std::optional<int> last_added_version_;
  std::optional<int> reused_version_;
  std::set<int> added_versions_;
  std::optional<ViewHistoryEntry> history_entry_;
};

Status ApplyEachViewUpdate(ViewBuilder& builder, const std::vector<ViewUpdate>& updates) {
  for (size_t i = 0; i < updates.size(); ++i) {
    Status st = builder.Apply(updates[i]);
    if (!st.ok()) {
      const std::string action = ViewUpdateToJson(updates[i]).value("action", "");
      return st.WithContext("view update " + std::to_string(i) + " (" + action + ")");
    }
  }
  return Status::OK();
}

}  // namespace

Result<ViewUpdate> ViewUpdateFromJson(const json& j) {
  FLOE_RETURN_IF_ERROR(ja::ExpectObject(j, {kJsonWording, "view update"}));
  FLOE_ASSIGN_OR_RETURN(std::string action, ja::RequireString(j, "action", kJsonWording));
  if (action == "add-view-version") {
    FLOE_ASSIGN_OR_RETURN(const json* version, ja::Require(j, "view-version", kJsonWording));
    auto v = ViewVersionFromJson(*version);
    if (!v.ok()) return v.status().WithContext("add-view-version: view-version");
    return ViewUpdate{AddViewVersionUpdate{std::move(v).value()}};
  }
  if (action == "set-current-view-version") {
    FLOE_ASSIGN_OR_RETURN(int id, ja::RequireInt(j, "view-version-id", kJsonWording));
    return ViewUpdate{SetCurrentViewVersionUpdate{id}};
  }
  FLOE_ASSIGN_OR_RETURN(TableUpdate update, TableUpdateFromJson(j));
  return std::visit(
      [&action](auto&& u) -> Result<ViewUpdate> {
        using U = std::decay_t<decltype(u)>;
        if constexpr (std::is_constructible_v<ViewUpdate, U>) {
          return ViewUpdate{std::move(u)};
        } else {
          return Status::InvalidArgument("update action '" + action + "' does not apply to views");
        }
      },
      std::move(update));
}

json ViewUpdateToJson(const ViewUpdate& update) {
  return std::visit(
      [](const auto& u) -> json {
        using U = std::decay_t<decltype(u)>;
        if constexpr (std::is_same_v<U, AddViewVersionUpdate>) {
          return {{"action", "add-view-version"}, {"view-version", ViewVersionToJson(u.version)}};
        } else if constexpr (std::is_same_v<U, SetCurrentViewVersionUpdate>) {
          return {{"action", "set-current-view-version"}, {"view-version-id", u.version_id}};
        } else {
          return TableUpdateToJson(TableUpdate{u});
        }
      },
      update);
}

Result<AssertViewUuid> ViewRequirementFromJson(const json& j) {
  FLOE_RETURN_IF_ERROR(ja::ExpectObject(j, {kJsonWording, "view requirement"}));
  FLOE_ASSIGN_OR_RETURN(std::string type, ja::RequireString(j, "type", kJsonWording));
  if (type != "assert-view-uuid") {
    return Status::InvalidArgument("view requirement type '" + type + "' is not known (only assert-view-uuid)");
  }
  FLOE_ASSIGN_OR_RETURN(std::string uuid, ja::RequireString(j, "uuid", kJsonWording));
  return AssertViewUuid{std::move(uuid)};
}

Status CheckViewRequirements(const ViewMetadata& current, const std::vector<AssertViewUuid>& requirements) {
  for (const auto& r : requirements) {
    if (r.uuid != current.view_uuid) {
      return Status::Conflict("Requirement failed: view UUID does not match: expected " + r.uuid +
                              " != " + current.view_uuid);
    }
  }
  return Status::OK();
}

Result<ViewMetadata> ApplyViewUpdates(const ViewMetadata& base, const std::vector<ViewUpdate>& updates,
                                      std::int64_t now_ms, bool* changed) {
  ViewBuilder builder(base, now_ms, &base);
  FLOE_RETURN_IF_ERROR(ApplyEachViewUpdate(builder, updates));
  if (changed != nullptr) *changed = builder.changed();
  if (!builder.changed()) return base;
  return builder.Finish();
}

Result<ViewMetadata> NewViewMetadata(const NewView& view, std::int64_t now_ms) {
  ViewVersion first = view.version;
  first.version_id = 1;
  first.schema_id = kLastAdded;
  ViewBuilder builder(ViewMetadata{}, now_ms, nullptr);
  FLOE_RETURN_IF_ERROR(ApplyEachViewUpdate(builder, {SetPropertiesUpdate{view.properties},
                                                     SetLocationUpdate{view.location},
                                                     AddSchemaUpdate{view.schema, std::nullopt},
                                                     AddViewVersionUpdate{std::move(first)},
                                                     SetCurrentViewVersionUpdate{}}));
  return builder.Finish();
}

}  // namespace floe::iceberg
