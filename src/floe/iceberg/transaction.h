#pragma once
// One catalog commit, gathered change by change: the requirements and updates of a REST
// CommitTableRequest, built on table metadata read once (Java's Transaction, iceberg-cpp's
// Transaction + PendingUpdate). Callers say what should change; the transaction knows which
// preconditions that needs.
//
// What holds for every transaction:
// - current() is base() with updates() applied (ApplyUpdates); each change is planned on
//   current(), so a schema set first is the schema a later append writes its manifests and
//   snapshot with, and a second append's parent is the first one's snapshot.
// - requirements() are all about base(): the commit lands only if the table is still as it was
//   when loaded. A change planned on current() asks for preconditions on what it read; those
//   are stated with base()'s values (the updates before it in this transaction bridge the
//   difference, and they commit together). Each requirement appears once.
// - A change either joins the transaction whole or fails and leaves it as it was. Appends and
//   replaces write their manifests and manifest list when called; if the transaction is then
//   abandoned or its commit fails, those files are orphans (as with PrepareFastAppend).
// - Commit requirements() and updates() as one catalog commit (a catalog::TableChange). On
//   kConflict, load the table again and build a new transaction on it: one is never rebased.
#include <cstdint>
#include <functional>
#include <map>
#include <string>
#include <vector>

#include "floe/core/result.h"
#include "floe/iceberg/data_file.h"
#include "floe/iceberg/fast_append.h"
#include "floe/iceberg/table_metadata.h"
#include "floe/iceberg/table_requirement.h"
#include "floe/iceberg/table_update.h"
#include "floe/schema/types.h"

namespace floe::iceberg {

class Transaction {
 public:
  // `base`: the table's metadata as just loaded (or as returned by the previous commit).
  explicit Transaction(TableMetadata base);

  const TableMetadata& base() const { return base_; }
  // The metadata as it will be once the changes so far apply (base() + updates()).
  const TableMetadata& current() const { return current_; }

  // Makes `schema` the current schema: add-schema (its id: that of an equal schema of the
  // table if there is one, else the highest id + 1, as ApplyUpdates assigns it) and
  // set-current-schema -1. `last_column_id`: the highest field id assigned so far (the table's
  // last-column-id can only grow). Requires assert-current-schema-id and
  // assert-last-assigned-field-id of base(). A schema equal to the current one (ignoring its
  // id) is a no-op. kInvalidArgument when the schema does not fit the table (format version,
  // identifier fields, the default partition spec or sort order).
  Status SetSchema(const schema::Schema& schema, int last_column_id);

  // Fast append (fast_append.h) on current(): writes the manifest and manifest list now.
  // Requires assert-table-uuid and assert-ref-snapshot-id(main). Returns the new snapshot id.
  Result<std::int64_t> FastAppend(const AppendFiles& append);

  // Replace files (replace_files.h) on current(). Same requirements as FastAppend; kConflict
  // when a file to delete is not live in current(). Returns the new snapshot id.
  Result<std::int64_t> ReplaceFiles(const std::vector<std::string>& files_to_delete,
                                    const std::vector<DataFile>& files_to_add,
                                    const std::map<std::string, std::string>& summary = {});

  // set-properties; no requirement (the last writer of a key wins). An empty map is a no-op.
  Status SetProperties(std::map<std::string, std::string, std::less<>> updates);

  bool empty() const { return updates_.empty(); }  // nothing to commit
  const std::vector<TableRequirement>& requirements() const { return requirements_; }
  const std::vector<TableUpdate>& updates() const { return updates_; }

 private:
  // Adds one change: its updates are applied to base() with the ones before (current_ is
  // replaced only on success), then its requirements are restated on base() and added
  // unless already there.
  Status Add(const std::vector<TableRequirement>& requirements, std::vector<TableUpdate> updates);

  TableMetadata base_;
  TableMetadata current_;
  std::vector<TableRequirement> requirements_;
  std::vector<TableUpdate> updates_;
};

}  // namespace floe::iceberg
