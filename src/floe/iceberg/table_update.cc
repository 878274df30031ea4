// Applying table updates to metadata (Java's TableMetadata.Builder). The wire form is
// table_update_json.cc.
#include "floe/iceberg/table_update.h"

#include <algorithm>
#include <charconv>
#include <set>
#include <utility>

#include "floe/core/uuid.h"

namespace floe::iceberg {

namespace {

int MetadataPreviousVersionsMax(const TableMetadata& m) {
  int value = kDefaultMetadataPreviousVersionsMax;
  if (auto text = m.Property(kPropMetadataPreviousVersionsMax)) {
    int parsed = 0;
    auto [ptr, ec] = std::from_chars(text->data(), text->data() + text->size(), parsed);
    if (ec == std::errc() && ptr == text->data() + text->size()) value = parsed;
  }
  return std::max(1, value);
}

Status CheckRefRetention(const SnapshotRef& ref) {
  if (ref.type == SnapshotRefType::kTag && (ref.min_snapshots_to_keep || ref.max_snapshot_age_ms)) {
    return Status::InvalidArgument("tags cannot have min-snapshots-to-keep or max-snapshot-age-ms (branch-only)");
  }
  if ((ref.min_snapshots_to_keep && *ref.min_snapshots_to_keep <= 0) ||
      (ref.max_snapshot_age_ms && *ref.max_snapshot_age_ms <= 0) || (ref.max_ref_age_ms && *ref.max_ref_age_ms <= 0)) {
    return Status::InvalidArgument("ref retention values must be greater than 0");
  }
  return Status::OK();
}

// Mutable metadata plus what this commit has done so far (Java's TableMetadata.Builder).
class MetadataBuilder {
 public:
  MetadataBuilder(TableMetadata start, std::int64_t now_ms, bool creating)
      : m_(std::move(start)), now_ms_(now_ms), creating_(creating) {}

  Status Apply(const TableUpdate& update) {
    return std::visit([this](const auto& u) { return Do(u); }, update);
  }
  bool changed() const { return changed_; }
  TableMetadata& metadata() { return m_; }

  // Final bookkeeping: last-updated-ms, snapshot-log clean-up, metadata-log, validation.
  Result<TableMetadata> Finish(const TableMetadata* base, std::string_view previous_metadata_location) {
    m_.last_updated_ms = last_updated_ms_.value_or(now_ms_);
    // v3 requires next-row-id; a table created as or upgraded to v3 starts at 0.
    if (m_.format_version >= 3 && !m_.next_row_id) m_.next_row_id = 0;
    CleanSnapshotLog();
    if (base != nullptr && !previous_metadata_location.empty()) {
      int max_entries = MetadataPreviousVersionsMax(m_);
      auto& log = m_.metadata_log;
      if (static_cast<int>(log.size()) >= max_entries) {
        log.erase(log.begin(), log.begin() + (static_cast<std::ptrdiff_t>(log.size()) - max_entries + 1));
      }
      log.push_back(MetadataLogEntry{base->last_updated_ms, std::string(previous_metadata_location)});
    }
    FLOE_RETURN_IF_ERROR(ValidateTableMetadata(m_));
    // Like pyiceberg: the table's current schema must still fit the default spec and sort
    // order. Checked only when one of the three changed, so that a commit to a table that an
    // other engine left inconsistent is not blocked by a change it did not make.
    bool layout_changed = base == nullptr || base->current_schema_id != m_.current_schema_id ||
                          base->default_spec_id != m_.default_spec_id ||
                          base->default_sort_order_id != m_.default_sort_order_id;
    if (layout_changed) {
      FLOE_RETURN_IF_ERROR(CheckSpecCompatible(*m_.DefaultSpec(), *m_.CurrentSchema()));
      FLOE_RETURN_IF_ERROR(CheckSortOrderCompatible(*m_.DefaultSortOrder(), *m_.CurrentSchema()));
    }
    return std::move(m_);
  }

 private:
  void Changed() { changed_ = true; }

  // Java's updateSnapshotLog: drops entries of snapshots set as main earlier in this commit
  // and then replaced by a later one, and all history before any entry whose snapshot is gone.
  void CleanSnapshotLog() {
    std::set<std::int64_t> added;
    std::set<std::int64_t> intermediate;
    for (const auto& [is_add, id] : snapshot_changes_) {
      if (is_add) {
        added.insert(id);
      } else if (added.count(id) != 0 && m_.current_snapshot_id != id) {
        intermediate.insert(id);
      }
    }
    std::vector<SnapshotLogEntry> log;
    for (const auto& e : m_.snapshot_log) {
      if (m_.SnapshotById(e.snapshot_id) == nullptr) {
        log.clear();
      } else if (intermediate.count(e.snapshot_id) == 0) {
        log.push_back(e);
      }
    }
    m_.snapshot_log = std::move(log);
  }

  Status Do(const AssignUuidUpdate& u) {
    if (!IsValidUuid(u.uuid)) return Status::InvalidArgument("'" + u.uuid + "' is not a UUID");
    if (m_.table_uuid == u.uuid) return Status::OK();
    if (!m_.table_uuid.empty()) {
      return Status::InvalidArgument("cannot reassign the table uuid " + m_.table_uuid + " to " + u.uuid);
    }
    m_.table_uuid = u.uuid;
    Changed();
    return Status::OK();
  }

  Status Do(const UpgradeFormatVersionUpdate& u) {
    int v = u.format_version;
    if (creating_ && !format_version_chosen_ && v >= 1 && v <= kMaxWriteFormatVersion) {
      format_version_chosen_ = true;
      m_.format_version = v;
      Changed();
      return Status::OK();
    }
    if (v == m_.format_version) return Status::OK();
    if (v < m_.format_version) {
      return Status::InvalidArgument("cannot downgrade a v" + std::to_string(m_.format_version) + " table to v" +
                                     std::to_string(v));
    }
    if (v > kMaxWriteFormatVersion) {
      return Status::Unsupported("cannot upgrade to format v" + std::to_string(v) + ": Floe writes up to v" +
                                 std::to_string(kMaxWriteFormatVersion));
    }
    m_.format_version = v;
    format_version_chosen_ = true;
    Changed();
    return Status::OK();
  }

  Status Do(const AddSchemaUpdate& u) {
    schema::Schema s = u.schema;
    FLOE_RETURN_IF_ERROR(CheckSchemaFormatVersion(s, m_.format_version));
    for (int id : s.identifier_field_ids) {
      if (s.FindById(id) == nullptr) {
        return Status::InvalidArgument("identifier field id " + std::to_string(id) + " is not in the schema");
      }
    }
    // The sent last-column-id is deprecated (Java 1.10 sends the schema's highest field id,
    // which is lower than the table's after a column was dropped): it can raise the table's
    // value, never lower it, and is never a reason to refuse the schema.
    int new_last = std::max(m_.last_column_id, s.HighestFieldId());
    if (u.last_column_id) new_last = std::max(new_last, *u.last_column_id);
    int new_id = 0;
    for (const auto& existing : m_.schemas) {
      if (SameSchema(existing, s)) {
        last_added_schema_ = existing.schema_id;
        if (new_last != m_.last_column_id) {
          m_.last_column_id = new_last;
          Changed();
        }
        return Status::OK();
      }
      new_id = std::max(new_id, existing.schema_id + 1);
    }
    s.schema_id = new_id;
    m_.schemas.push_back(std::move(s));
    m_.last_column_id = new_last;
    last_added_schema_ = new_id;
    Changed();
    return Status::OK();
  }

  Status Do(const SetCurrentSchemaUpdate& u) {
    int id = u.schema_id;
    if (id == kLastAdded) {
      if (!last_added_schema_) return Status::InvalidArgument("schema-id -1 (last added): no schema was added before");
      id = *last_added_schema_;
    }
    if (id == m_.current_schema_id && m_.CurrentSchema() != nullptr) return Status::OK();
    if (m_.SchemaById(id) == nullptr) return Status::InvalidArgument("unknown schema id " + std::to_string(id));
    m_.current_schema_id = id;
    Changed();
    return Status::OK();
  }

  Status Do(const AddPartitionSpecUpdate& u) {
    schema::PartitionSpec spec = u.spec;
    int new_id = 0;
    for (const auto& existing : m_.partition_specs) {
      if (SameSpec(existing, spec)) {
        last_added_spec_ = existing.spec_id;
        return Status::OK();
      }
      new_id = std::max(new_id, existing.spec_id + 1);
    }
    spec.spec_id = new_id;
    const schema::Schema* current = m_.CurrentSchema();
    if (current == nullptr) return Status::InvalidArgument("a partition spec needs a current schema first");
    FLOE_RETURN_IF_ERROR(CheckSpecCompatible(spec, *current));
    int highest = kPartitionFieldIdStart - 1;
    for (size_t i = 0; i < spec.fields.size(); ++i) {
      const auto& f = spec.fields[i];
      if (m_.format_version == 1 && f.field_id != kPartitionFieldIdStart + static_cast<int>(i)) {
        return Status::InvalidArgument("format v1 requires sequential partition field ids from 1000; field '" +
                                       f.name + "' has " + std::to_string(f.field_id));
      }
      if (f.field_id < kPartitionFieldIdStart) {
        return Status::InvalidArgument("partition field '" + f.name + "' has id " + std::to_string(f.field_id) +
                                       " (partition field ids start at 1000)");
      }
      highest = std::max(highest, f.field_id);
    }
    m_.last_partition_id = std::max(m_.last_partition_id, highest);
    m_.partition_specs.push_back(std::move(spec));
    last_added_spec_ = new_id;
    Changed();
    return Status::OK();
  }

  Status Do(const SetDefaultSpecUpdate& u) {
    int id = u.spec_id;
    if (id == kLastAdded) {
      if (!last_added_spec_) return Status::InvalidArgument("spec-id -1 (last added): no partition spec was added before");
      id = *last_added_spec_;
    }
    if (id == m_.default_spec_id && m_.DefaultSpec() != nullptr) return Status::OK();
    if (m_.SpecById(id) == nullptr) return Status::InvalidArgument("unknown partition spec id " + std::to_string(id));
    m_.default_spec_id = id;
    Changed();
    return Status::OK();
  }

  Status Do(const AddSortOrderUpdate& u) {
    schema::SortOrder order = u.sort_order;
    int new_id = order.fields.empty() ? kUnsortedOrderId : kInitialSortOrderId;
    for (const auto& existing : m_.sort_orders) {
      if (SameSortOrder(existing, order)) {
        last_added_order_ = existing.order_id;
        return Status::OK();
      }
      if (!order.fields.empty()) new_id = std::max(new_id, existing.order_id + 1);
    }
    order.order_id = new_id;
    if (!order.fields.empty()) {
      const schema::Schema* current = m_.CurrentSchema();
      if (current == nullptr) return Status::InvalidArgument("a sort order needs a current schema first");
      FLOE_RETURN_IF_ERROR(CheckSortOrderCompatible(order, *current));
    }
    m_.sort_orders.push_back(std::move(order));
    last_added_order_ = new_id;
    Changed();
    return Status::OK();
  }

  Status Do(const SetDefaultSortOrderUpdate& u) {
    int id = u.sort_order_id;
    if (id == kLastAdded) {
      if (!last_added_order_) return Status::InvalidArgument("sort-order-id -1 (last added): no sort order was added before");
      id = *last_added_order_;
    }
    if (id == m_.default_sort_order_id && m_.DefaultSortOrder() != nullptr) return Status::OK();
    if (m_.SortOrderById(id) == nullptr) return Status::InvalidArgument("unknown sort order id " + std::to_string(id));
    m_.default_sort_order_id = id;
    Changed();
    return Status::OK();
  }

  Status Do(const AddSnapshotUpdate& u) {
    const Snapshot& s = u.snapshot;
    std::string what = "snapshot " + std::to_string(s.snapshot_id);
    if (m_.schemas.empty()) return Status::InvalidArgument(what + ": a snapshot needs a schema first");
    if (m_.partition_specs.empty()) return Status::InvalidArgument(what + ": a snapshot needs a partition spec first");
    if (m_.sort_orders.empty()) return Status::InvalidArgument(what + ": a snapshot needs a sort order first");
    if (m_.SnapshotById(s.snapshot_id) != nullptr) return Status::InvalidArgument(what + " already exists");
    if (s.manifest_list.empty() && (m_.format_version > 1 || s.v1_manifests.empty())) {
      return Status::InvalidArgument(what + " has no manifest-list");
    }
    if (m_.format_version > 1) {
      if (s.operation().empty()) {
        return Status::InvalidArgument(what + ": summary has no 'operation' (required in v" +
                                       std::to_string(m_.format_version) + ")");
      }
      if (s.parent_snapshot_id && s.sequence_number <= m_.last_sequence_number) {
        return Status::InvalidArgument(what + ": sequence-number " + std::to_string(s.sequence_number) +
                                       " is not greater than the table's last-sequence-number " +
                                       std::to_string(m_.last_sequence_number));
      }
    }
    if (m_.format_version >= 3) {
      if (!s.first_row_id || !s.added_rows) {
        return Status::InvalidArgument(what + ": v3 snapshots need first-row-id and added-rows");
      }
      std::int64_t next_row_id = m_.next_row_id.value_or(0);
      if (*s.first_row_id < next_row_id) {
        return Status::InvalidArgument(what + ": first-row-id " + std::to_string(*s.first_row_id) +
                                       " is behind the table's next-row-id " + std::to_string(next_row_id));
      }
      m_.next_row_id = next_row_id + *s.added_rows;
    }
    m_.snapshots.push_back(s);
    m_.last_sequence_number = std::max(m_.last_sequence_number, s.sequence_number);
    last_updated_ms_ = s.timestamp_ms;
    added_snapshots_.insert(s.snapshot_id);
    snapshot_changes_.emplace_back(true, s.snapshot_id);
    Changed();
    return Status::OK();
  }

  Status Do(const SetSnapshotRefUpdate& u) {
    if (u.ref_name.empty()) return Status::InvalidArgument("ref-name is empty");
    FLOE_RETURN_IF_ERROR(CheckRefRetention(u.ref).WithContext("ref " + u.ref_name));
    if (u.ref_name == kMainBranch && u.ref.type != SnapshotRefType::kBranch) {
      return Status::InvalidArgument("main must be a branch, not a tag");
    }
    const SnapshotRef* existing = m_.Ref(u.ref_name);
    if (existing != nullptr && *existing == u.ref) return Status::OK();
    const Snapshot* snapshot = m_.SnapshotById(u.ref.snapshot_id);
    if (snapshot == nullptr) {
      return Status::InvalidArgument("cannot set " + u.ref_name + " to unknown snapshot " +
                                     std::to_string(u.ref.snapshot_id));
    }
    if (added_snapshots_.count(u.ref.snapshot_id) != 0) last_updated_ms_ = snapshot->timestamp_ms;
    if (u.ref_name == kMainBranch) {
      m_.current_snapshot_id = u.ref.snapshot_id;
      if (!last_updated_ms_) last_updated_ms_ = now_ms_;
      m_.snapshot_log.push_back(SnapshotLogEntry{*last_updated_ms_, u.ref.snapshot_id});
      snapshot_changes_.emplace_back(false, u.ref.snapshot_id);
    }
    m_.refs.insert_or_assign(u.ref_name, u.ref);
    Changed();
    return Status::OK();
  }

  void RemoveRef(std::string_view name) {
    auto it = m_.refs.find(name);
    if (it == m_.refs.end()) return;
    if (name == kMainBranch) m_.current_snapshot_id.reset();
    m_.refs.erase(it);
    Changed();
  }

  Status Do(const RemoveSnapshotsUpdate& u) {
    std::set<std::int64_t> ids(u.snapshot_ids.begin(), u.snapshot_ids.end());
    auto removed = std::erase_if(m_.snapshots, [&](const Snapshot& s) { return ids.count(s.snapshot_id) != 0; });
    if (removed == 0) return Status::OK();
    std::erase_if(m_.statistics, [&](const StatisticsFile& f) { return ids.count(f.snapshot_id) != 0; });
    std::erase_if(m_.partition_statistics, [&](const StatisticsFile& f) { return ids.count(f.snapshot_id) != 0; });
    std::vector<std::string> dangling;
    for (const auto& [name, ref] : m_.refs) {
      if (m_.SnapshotById(ref.snapshot_id) == nullptr) dangling.push_back(name);
    }
    for (const auto& name : dangling) RemoveRef(name);
    Changed();
    return Status::OK();
  }

  Status Do(const RemoveSnapshotRefUpdate& u) {
    RemoveRef(u.ref_name);
    return Status::OK();
  }

  Status Do(const SetLocationUpdate& u) {
    if (u.location.empty()) return Status::InvalidArgument("location is empty");
    if (u.location == m_.location) return Status::OK();
    m_.location = u.location;
    Changed();
    return Status::OK();
  }

  Status Do(const SetPropertiesUpdate& u) {
    if (u.updates.empty()) return Status::OK();
    for (const auto& [k, v] : u.updates) m_.properties.insert_or_assign(k, v);
    Changed();
    return Status::OK();
  }

  Status Do(const RemovePropertiesUpdate& u) {
    if (u.removals.empty()) return Status::OK();
    for (const auto& k : u.removals) {
      if (auto it = m_.properties.find(k); it != m_.properties.end()) m_.properties.erase(it);
    }
    Changed();
    return Status::OK();
  }

  static void SetStatisticsIn(std::vector<StatisticsFile>& files, const StatisticsFile& file) {
    std::erase_if(files, [&](const StatisticsFile& f) { return f.snapshot_id == file.snapshot_id; });
    files.push_back(file);
  }

  bool RemoveStatisticsIn(std::vector<StatisticsFile>& files, std::int64_t snapshot_id) {
    if (std::erase_if(files, [&](const StatisticsFile& f) { return f.snapshot_id == snapshot_id; }) == 0) return false;
    Changed();
    return true;
  }

  Status Do(const SetStatisticsUpdate& u) {
    SetStatisticsIn(m_.statistics, u.statistics);
    Changed();
    return Status::OK();
  }

  Status Do(const RemoveStatisticsUpdate& u) {
    RemoveStatisticsIn(m_.statistics, u.snapshot_id);
    return Status::OK();
  }

  Status Do(const SetPartitionStatisticsUpdate& u) {
    SetStatisticsIn(m_.partition_statistics, u.partition_statistics);
    Changed();
    return Status::OK();
  }

  Status Do(const RemovePartitionStatisticsUpdate& u) {
    RemoveStatisticsIn(m_.partition_statistics, u.snapshot_id);
    return Status::OK();
  }

  Status Do(const RemoveSchemasUpdate& u) {
    std::set<int> ids(u.schema_ids.begin(), u.schema_ids.end());
    if (ids.count(m_.current_schema_id) != 0) {
      return Status::InvalidArgument("cannot remove the current schema " + std::to_string(m_.current_schema_id));
    }
    if (std::erase_if(m_.schemas, [&](const schema::Schema& s) { return ids.count(s.schema_id) != 0; }) != 0) Changed();
    return Status::OK();
  }

  Status Do(const RemovePartitionSpecsUpdate& u) {
    std::set<int> ids(u.spec_ids.begin(), u.spec_ids.end());
    if (ids.count(m_.default_spec_id) != 0) {
      return Status::InvalidArgument("cannot remove the default partition spec " + std::to_string(m_.default_spec_id));
    }
    if (std::erase_if(m_.partition_specs, [&](const schema::PartitionSpec& s) { return ids.count(s.spec_id) != 0; }) != 0) {
      Changed();
    }
    return Status::OK();
  }

  TableMetadata m_;
  std::int64_t now_ms_;
  bool creating_;
  bool changed_ = false;
  bool format_version_chosen_ = false;
  std::optional<int> last_added_schema_;
  std::optional<int> last_added_spec_;
  std::optional<int> last_added_order_;
  std::optional<std::int64_t> last_updated_ms_;  // set by snapshot changes (Java's lastUpdatedMillis)
  std::set<std::int64_t> added_snapshots_;
  std::vector<std::pair<bool, std::int64_t>> snapshot_changes_;  // (is add-snapshot, id); else set main
};

Status ApplyEachTableUpdate(MetadataBuilder& builder, const std::vector<TableUpdate>& updates) {
  for (size_t i = 0; i < updates.size(); ++i) {
    Status st = builder.Apply(updates[i]);
    if (!st.ok()) {
      return st.WithContext("update " + std::to_string(i) + " (" + std::string(UpdateAction(updates[i])) + ")");
    }
  }
  return Status::OK();
}

}  // namespace

Result<TableMetadata> ApplyUpdates(const TableMetadata& base, const std::vector<TableUpdate>& updates,
                                   std::int64_t now_ms, std::string_view previous_metadata_location) {
  MetadataBuilder builder(base, now_ms, /*creating=*/false);
  FLOE_RETURN_IF_ERROR(ApplyEachTableUpdate(builder, updates));
  if (!builder.changed()) return base;
  auto result = builder.Finish(&base, previous_metadata_location);
  if (!result.ok()) return result.status().WithContext("applying table updates");
  return result;
}

Result<TableMetadata> CreateFromUpdates(const std::vector<TableUpdate>& updates, std::int64_t now_ms) {
  TableMetadata empty;
  empty.format_version = kWriteFormatVersion;
  empty.current_schema_id = -1;
  empty.default_spec_id = -1;
  empty.default_sort_order_id = -1;
  empty.last_partition_id = kPartitionFieldIdStart - 1;
  MetadataBuilder builder(std::move(empty), now_ms, /*creating=*/true);
  FLOE_RETURN_IF_ERROR(ApplyEachTableUpdate(builder, updates).WithContext("creating table"));
  TableMetadata& m = builder.metadata();
  if (m.table_uuid.empty()) m.table_uuid = floe::NewUuid();
  if (m.location.empty()) return Status::InvalidArgument("creating table: no location (set-location)");
  if (m.CurrentSchema() == nullptr) {
    return Status::InvalidArgument("creating table: no current schema (add-schema, set-current-schema)");
  }
  if (m.partition_specs.empty()) {
    m.partition_specs.push_back(schema::PartitionSpec{});  // unpartitioned, spec id 0
    m.default_spec_id = 0;
  }
  if (m.sort_orders.empty()) {
    m.sort_orders.push_back(schema::SortOrder{});  // unsorted, order id 0
    m.default_sort_order_id = kUnsortedOrderId;
  }
  auto result = builder.Finish(nullptr, {});
  if (!result.ok()) return result.status().WithContext("creating table");
  return result;
}

}  // namespace floe::iceberg
