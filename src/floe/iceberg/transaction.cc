#include "floe/iceberg/transaction.h"

#include <algorithm>
#include <utility>
#include <variant>

#include "floe/iceberg/replace_files.h"

namespace floe::iceberg {
namespace {

// A requirement about the same thing as another (whatever value it expects): the same type,
// and for assert-ref-snapshot-id the same ref.
bool SameSubject(const TableRequirement& a, const TableRequirement& b) {
  if (a.index() != b.index()) return false;
  if (const auto* ref = std::get_if<AssertRefSnapshotId>(&a)) return ref->ref == std::get<AssertRefSnapshotId>(b).ref;
  return true;
}

// `requirement` restated with the value `base` has. A change planned on current() checked
// current()'s value; the updates of this transaction before it lead from base() to current(),
// so at commit time what must hold is base()'s value.
TableRequirement OnBase(const TableMetadata& base, const TableRequirement& requirement) {
  struct Restate {
    const TableMetadata& m;
    TableRequirement operator()(const AssertCreate& r) const { return r; }
    TableRequirement operator()(const AssertTableUuid&) const { return AssertTableUuid{m.table_uuid}; }
    TableRequirement operator()(const AssertRefSnapshotId& r) const {
      return AssertRefSnapshotId{r.ref, m.RefSnapshotId(r.ref)};
    }
    TableRequirement operator()(const AssertLastAssignedFieldId&) const {
      return AssertLastAssignedFieldId{m.last_column_id};
    }
    TableRequirement operator()(const AssertCurrentSchemaId&) const { return AssertCurrentSchemaId{m.current_schema_id}; }
    TableRequirement operator()(const AssertLastAssignedPartitionId&) const {
      return AssertLastAssignedPartitionId{m.last_partition_id};
    }
    TableRequirement operator()(const AssertDefaultSpecId&) const { return AssertDefaultSpecId{m.default_spec_id}; }
    TableRequirement operator()(const AssertDefaultSortOrderId&) const {
      return AssertDefaultSortOrderId{m.default_sort_order_id};
    }
  };
  return std::visit(Restate{base}, requirement);
}

}  // namespace

Transaction::Transaction(TableMetadata base) : base_(std::move(base)), current_(base_) {}

Status Transaction::Add(const std::vector<TableRequirement>& requirements, std::vector<TableUpdate> updates) {
  std::vector<TableUpdate> all = updates_;
  all.insert(all.end(), std::make_move_iterator(updates.begin()), std::make_move_iterator(updates.end()));
  FLOE_ASSIGN_OR_RETURN(TableMetadata next, ApplyUpdates(base_, all, NowMillis()));
  current_ = std::move(next);
  updates_ = std::move(all);
  for (const auto& r : requirements) {
    const bool known = std::any_of(requirements_.begin(), requirements_.end(),
                                   [&](const TableRequirement& have) { return SameSubject(have, r); });
    if (!known) requirements_.push_back(OnBase(base_, r));
  }
  return Status::OK();
}

Status Transaction::SetSchema(const schema::Schema& schema, int last_column_id) {
  const schema::Schema* current = current_.CurrentSchema();
  if (current != nullptr && SameSchema(*current, schema)) return Status::OK();
  AddSchemaUpdate add{schema, last_column_id};
  // ApplyUpdates assigns the id whatever this says; stating the same one keeps the commit
  // readable in logs and on the wire.
  add.schema.schema_id = 0;
  for (const auto& existing : current_.schemas) {
    if (SameSchema(existing, schema)) {
      add.schema.schema_id = existing.schema_id;
      break;
    }
    add.schema.schema_id = std::max(add.schema.schema_id, existing.schema_id + 1);
  }
  return Add({AssertCurrentSchemaId{base_.current_schema_id}, AssertLastAssignedFieldId{base_.last_column_id}},
             {std::move(add), SetCurrentSchemaUpdate{kLastAdded}})
      .WithContext("set schema");
}

Result<std::int64_t> Transaction::FastAppend(const AppendFiles& append) {
  FLOE_ASSIGN_OR_RETURN(PreparedCommit commit, PrepareFastAppend(current_, append));
  FLOE_RETURN_IF_ERROR(Add(commit.requirements, std::move(commit.updates)).WithContext("fast append"));
  return commit.snapshot_id;
}

Result<std::int64_t> Transaction::ReplaceFiles(const std::vector<std::string>& files_to_delete,
                                               const std::vector<DataFile>& files_to_add,
                                               const std::map<std::string, std::string>& summary) {
  FLOE_ASSIGN_OR_RETURN(PreparedCommit commit, PrepareReplaceFiles(current_, files_to_delete, files_to_add, summary));
  FLOE_RETURN_IF_ERROR(Add(commit.requirements, std::move(commit.updates)).WithContext("replace files"));
  return commit.snapshot_id;
}

Status Transaction::SetProperties(std::map<std::string, std::string, std::less<>> updates) {
  if (updates.empty()) return Status::OK();
  return Add({}, {SetPropertiesUpdate{std::move(updates)}}).WithContext("set properties");
}

}  // namespace floe::iceberg
