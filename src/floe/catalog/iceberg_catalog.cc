#include "floe/catalog/iceberg_catalog.h"

#include <arrow/buffer.h>
#include <arrow/filesystem/filesystem.h>
#include <arrow/io/api.h>
#include <spdlog/spdlog.h>

#include <algorithm>
#include <cstdio>
#include <set>

#include "floe/catalog/glue_catalog.h"
#include "floe/catalog/rest_catalog_client.h"
#include "floe/catalog/sql_catalog.h"
#include "floe/core/arrow_interop.h"
#include "floe/core/uuid.h"
#include "floe/iceberg/metadata_files.h"
#include "floe/schema/arrow_schema.h"
#include "floe/schema/partition.h"
#include "floe/storage/file_io.h"

namespace floe::catalog {
namespace {

std::string TrimSlash(std::string s) {
  while (s.size() > 1 && s.back() == '/') s.pop_back();
  return s;
}

// Full dotted names of every field, by id (to carry specs/orders across id reassignment).
void CollectNames(const std::vector<schema::NestedField>& fields, const std::string& prefix,
                  std::map<int, std::string>& out) {
  for (const auto& f : fields) {
    const std::string name = prefix.empty() ? f.name : prefix + "." + f.name;
    out[f.id] = name;
    if (f.type && f.type->id() == schema::TypeId::kStruct) CollectNames(f.type->fields(), name, out);
  }
}

Result<int> RemapSourceId(int old_id, const std::map<int, std::string>& old_names, const schema::Schema& fresh) {
  auto it = old_names.find(old_id);
  if (it == old_names.end()) return Status::InvalidArgument("source id " + std::to_string(old_id) + " is not in the schema");
  const schema::NestedField* f = fresh.FindByName(it->second);
  if (!f) return Status::Internal("column '" + it->second + "' lost while assigning fresh ids");
  return f->id;
}

// write.metadata.delete-after-commit.enabled: once `next` is the table's metadata, the files
// of `base`'s metadata-log that `next`'s no longer lists are deleted (as Java's
// deleteRemovedMetadataFiles). Nothing references them any more; a failed delete only leaves an
// orphan for orphan removal, so it is logged and the commit stands.
void DeleteRemovedMetadataFiles(const iceberg::TableMetadata& base, const iceberg::TableMetadata& next) {
  const auto enabled = next.Property(iceberg::kPropMetadataDeleteAfterCommit);
  if (enabled && *enabled != "true") return;
  std::set<std::string> kept;
  for (const auto& e : next.metadata_log) kept.insert(e.metadata_file);
  for (const auto& e : base.metadata_log) {
    if (kept.count(e.metadata_file)) continue;
    if (auto st = storage::DeleteFileAt(e.metadata_file); !st.ok()) {
      spdlog::warn("could not delete the old metadata file {} (orphan removal will): {}", e.metadata_file,
                   st.ToString());
    }
  }
}

}  // namespace

Result<std::string> IcebergCatalog::ReadFile(const std::string& uri) {
  std::string path;
  FLOE_ASSIGN_OR_RETURN(auto fs, storage::FileSystemForUri(uri, &path));
  FLOE_ASSIGN_OR_RETURN_ARROW(auto file, fs->OpenInputFile(path));
  FLOE_ASSIGN_OR_RETURN_ARROW(auto size, file->GetSize());
  FLOE_ASSIGN_OR_RETURN_ARROW(auto buffer, file->ReadAt(0, size));
  return buffer->ToString();
}

IcebergCatalog::IcebergCatalog(std::unique_ptr<Catalog> pointers, std::string warehouse_uri)
    : pointers_(std::move(pointers)), warehouse_uri_(std::move(warehouse_uri)) {}

Result<std::unique_ptr<IcebergCatalog>> IcebergCatalog::Open(const std::string& catalog_uri,
                                                             const std::string& warehouse,
                                                             const std::string& catalog_name) {
  FLOE_ASSIGN_OR_RETURN(auto pointers, OpenSqlCatalog(catalog_uri, catalog_name));
  return Over(std::move(pointers), warehouse);
}

Result<std::unique_ptr<IcebergCatalog>> IcebergCatalog::Over(std::unique_ptr<Catalog> pointers,
                                                             const std::string& warehouse) {
  FLOE_ASSIGN_OR_RETURN(auto io, storage::FileIO::Open(warehouse));  // creates a local warehouse dir
  return std::unique_ptr<IcebergCatalog>(new IcebergCatalog(std::move(pointers), TrimSlash(io.Uri(""))));
}

namespace {

// One directory name per namespace level or table name. A name with '/' (which the catalog
// allows) must not become nested directories: "a/b" would then share files with table "b"
// of namespace "a", and a purge of one would delete the other's. Its '/' become '_' and a
// hash of the whole name is appended, so distinct names keep distinct directories.
// (Percent-encoding would not do: file systems decode "%2F" in URIs back to '/'.)
std::string LocationSegment(const std::string& name) {
  if (name.find('/') == std::string::npos) return name;
  std::string segment = name;
  std::replace(segment.begin(), segment.end(), '/', '_');
  char hash[16];
  std::snprintf(hash, sizeof(hash), "-%08x", static_cast<unsigned>(schema::Murmur3_32(name)));
  return segment + hash;
}

}  // namespace

std::string DefaultTableLocation(std::string warehouse, const TableIdentifier& id) {
  while (warehouse.size() > 1 && warehouse.back() == '/') warehouse.pop_back();
  for (const auto& part : id.ns) warehouse += "/" + LocationSegment(part);
  return warehouse + "/" + LocationSegment(id.name);
}

std::string IcebergCatalog::DefaultLocation(const TableIdentifier& id) const {
  return DefaultTableLocation(warehouse_uri_, id);
}

Result<iceberg::TableMetadata> IcebergCatalog::ReadMetadata(const std::string& location) {
  if (auto cached = metadata_cache_.Find(location)) return *std::move(cached);
  FLOE_ASSIGN_OR_RETURN(auto text, ReadFile(location));
  auto parsed = iceberg::ParseTableMetadata(text);
  if (!parsed.ok()) return parsed.status().WithContext(location);
  metadata_cache_.Put(location, *parsed);
  return parsed;
}

Result<std::string> IcebergCatalog::WriteMetadata(const iceberg::TableMetadata& metadata, int version) {
  FLOE_ASSIGN_OR_RETURN(auto location, WriteMetadataFile(iceberg::MetadataDirectory(metadata), version,
                                                         iceberg::SerializeTableMetadata(metadata)));
  // Read back by the next commit's load when this one lands (a lost race's file is never asked for).
  metadata_cache_.Put(location, metadata);
  return location;
}

Result<std::string> IcebergCatalog::WriteMetadataFile(const std::string& directory, int version,
                                                      const std::string& text) {
  FLOE_ASSIGN_OR_RETURN(auto io, storage::FileIO::Open(directory));
  const std::string relative = iceberg::MetadataFileName(version, floe::NewUuid());
  FLOE_ASSIGN_OR_RETURN(auto file, io.Create(relative));
  FLOE_RETURN_IF_ARROW_ERROR(file->stream()->Write(text.data(), static_cast<std::int64_t>(text.size())));
  FLOE_RETURN_IF_ARROW_ERROR(file->stream()->Close());
  FLOE_RETURN_IF_ERROR(file->Commit());
  // A directory given as a URI keeps its spelling: clients compare the metadata location with
  // the write.metadata.path they set, and Java spells local URIs "file:/tmp/…", which FileIO
  // would rewrite to "file:///tmp/…". A bare path becomes a URI.
  if (directory.find("://") != std::string::npos || directory.starts_with("file:/")) {
    return directory + "/" + relative;  // MetadataDirectory gives no trailing '/'
  }
  return io.Uri(relative);
}

Result<LoadedTable> IcebergCatalog::LoadTable(const TableIdentifier& id) {
  FLOE_ASSIGN_OR_RETURN(auto record, pointers_->LoadTable(id));
  FLOE_ASSIGN_OR_RETURN(auto metadata, ReadMetadata(record.metadata_location));
  return LoadedTable{id, record.metadata_location, std::move(metadata)};
}

Result<LoadedTable> IcebergCatalog::CreateTable(const NewTable& table, bool stage_only) {
  // The namespace must exist (and the table must not) before anything is written.
  FLOE_RETURN_IF_ERROR(pointers_->LoadNamespaceProperties(table.id.ns).status());
  if (pointers_->LoadTable(table.id).ok()) {
    return Status::AlreadyExists("Table already exists: " + TableIdentifierToString(table.id));
  }
  schema::Schema fresh = schema::AssignFreshIds(table.schema);
  std::map<int, std::string> old_names;
  CollectNames(table.schema.fields, "", old_names);
  schema::PartitionSpec spec;
  if (table.spec) {
    spec = *table.spec;
    for (auto& f : spec.fields) {
      FLOE_ASSIGN_OR_RETURN(f.source_id, RemapSourceId(f.source_id, old_names, fresh));
    }
  }
  schema::SortOrder order;
  if (table.sort_order) {
    order = *table.sort_order;
    for (auto& f : order.fields) {
      FLOE_ASSIGN_OR_RETURN(f.source_id, RemapSourceId(f.source_id, old_names, fresh));
    }
  }
  const std::string location = table.location.empty() ? DefaultLocation(table.id) : TrimSlash(table.location);
  std::map<std::string, std::string, std::less<>> props(table.properties.begin(), table.properties.end());
  FLOE_ASSIGN_OR_RETURN(auto metadata, iceberg::NewTableMetadata(fresh, spec, order, location, props));
  if (stage_only) return LoadedTable{table.id, "", std::move(metadata)};
  FLOE_ASSIGN_OR_RETURN(auto metadata_location, WriteMetadata(metadata, 0));
  FLOE_RETURN_IF_ERROR(pointers_->CreateTableWithMetadata(table.id, metadata_location, metadata));
  return LoadedTable{table.id, metadata_location, std::move(metadata)};
}

Result<LoadedTable> IcebergCatalog::CommitTable(const TableChange& change) {
  auto record = pointers_->LoadTable(change.id);
  if (!record.ok() && record.status().code() != StatusCode::kNotFound) return record.status();
  if (!record.ok()) {
    // Creating through a commit (REST staged create): only with assert-create.
    FLOE_RETURN_IF_ERROR(iceberg::CheckRequirements(nullptr, change.requirements));
    FLOE_RETURN_IF_ERROR(pointers_->LoadNamespaceProperties(change.id.ns).status());
    FLOE_ASSIGN_OR_RETURN(auto created, iceberg::CreateFromUpdates(change.updates, iceberg::NowMillis()));
    FLOE_ASSIGN_OR_RETURN(auto location, WriteMetadata(created, 0));
    FLOE_RETURN_IF_ERROR(pointers_->CreateTableWithMetadata(change.id, location, created));
    return LoadedTable{change.id, location, std::move(created)};
  }
  FLOE_ASSIGN_OR_RETURN(auto base, ReadMetadata(record->metadata_location));
  FLOE_RETURN_IF_ERROR(iceberg::CheckRequirements(&base, change.requirements));
  FLOE_ASSIGN_OR_RETURN(auto next, iceberg::ApplyUpdates(base, change.updates, iceberg::NowMillis(),
                                                         record->metadata_location));
  FLOE_ASSIGN_OR_RETURN(auto version, iceberg::NextMetadataVersion(record->metadata_location));
  FLOE_ASSIGN_OR_RETURN(auto location, WriteMetadata(next, version));
  // On kConflict another writer won and the caller retries on fresh metadata; the file just
  // written is referenced by nothing, so it goes at once (under 1 s commits with maintenance
  // beside them, lost races would otherwise leave a metadata file every few seconds for orphan
  // removal). Any other failure may have moved the pointer (the outcome is unknown): kept.
  if (auto swapped = pointers_->SwapMetadataLocations({{change.id, record->metadata_location, location, &next}});
      !swapped.ok()) {
    if (swapped.code() == StatusCode::kConflict) (void)storage::DeleteFileAt(location);
    return swapped;
  }
  DeleteRemovedMetadataFiles(base, next);
  return LoadedTable{change.id, location, std::move(next)};
}

Status IcebergCatalog::CommitTransaction(const std::vector<TableChange>& changes) {
  std::set<TableIdentifier> seen;
  for (const auto& c : changes) {
    if (!seen.insert(c.id).second) return Status::InvalidArgument("a transaction may change each table once");
  }
  // Check and write everything first; only then move the pointers. A failure in between
  // leaves unreferenced files, never a half-applied transaction on the tables that were
  // already checked. Pointer moves themselves are one CAS per table in order.
  struct Planned {
    const TableChange* change;
    std::string expected;
    std::string next;
    iceberg::TableMetadata metadata;  // what `next` holds
    iceberg::TableMetadata base;      // what `expected` holds
  };
  std::vector<Planned> planned;
  for (const auto& c : changes) {
    FLOE_ASSIGN_OR_RETURN(auto record, pointers_->LoadTable(c.id));
    FLOE_ASSIGN_OR_RETURN(auto base, ReadMetadata(record.metadata_location));
    FLOE_RETURN_IF_ERROR(iceberg::CheckRequirements(&base, c.requirements));
    FLOE_ASSIGN_OR_RETURN(auto next, iceberg::ApplyUpdates(base, c.updates, iceberg::NowMillis(), record.metadata_location));
    FLOE_ASSIGN_OR_RETURN(auto version, iceberg::NextMetadataVersion(record.metadata_location));
    FLOE_ASSIGN_OR_RETURN(auto location, WriteMetadata(next, version));
    planned.push_back({&c, record.metadata_location, location, std::move(next), std::move(base)});
  }
  std::vector<SwapRequest> swaps;
  for (const auto& p : planned) swaps.push_back({p.change->id, p.expected, p.next, &p.metadata});
  FLOE_RETURN_IF_ERROR(pointers_->SwapMetadataLocations(swaps));
  for (const auto& p : planned) DeleteRemovedMetadataFiles(p.base, p.metadata);
  return Status::OK();
}

Status IcebergCatalog::DropTable(const TableIdentifier& id, bool purge) {
  auto table = LoadTable(id);
  FLOE_RETURN_IF_ERROR(pointers_->DropTable(id));
  if (purge && table.ok()) {
    std::string path;
    auto fs = storage::FileSystemForUri(table->metadata.location, &path);
    if (fs.ok()) {
      if (auto st = (*fs)->DeleteDir(path); !st.ok()) {
        spdlog::warn("drop {} with purge: could not delete {}: {}", id.name, table->metadata.location, st.ToString());
      }
    }
  }
  return Status::OK();
}

Result<LoadedTable> IcebergCatalog::RegisterTable(const TableIdentifier& id, const std::string& metadata_location) {
  FLOE_ASSIGN_OR_RETURN(auto metadata, ReadMetadata(metadata_location));
  FLOE_RETURN_IF_ERROR(pointers_->CreateTableWithMetadata(id, metadata_location, metadata));
  return LoadedTable{id, metadata_location, std::move(metadata)};
}

// --- Opening the configured catalog ------------------------------------------------------------

Result<std::unique_ptr<TableCatalog>> OpenTableCatalog(const FloeConfig& config) {
  if (config.catalog.type == CatalogType::kRest) {
    FLOE_ASSIGN_OR_RETURN(auto options, RestCatalogOptionsFromConfig(config));
    FLOE_ASSIGN_OR_RETURN(auto client, RestCatalogClient::Open(std::move(options)));
    return std::unique_ptr<TableCatalog>(std::move(client));
  }
  if (config.catalog.type == CatalogType::kGlue) {
    FLOE_ASSIGN_OR_RETURN(auto glue, OpenGlueCatalog(config.catalog.glue));
    FLOE_ASSIGN_OR_RETURN(auto catalog, IcebergCatalog::Over(std::move(glue), config.warehouse));
    return std::unique_ptr<TableCatalog>(std::move(catalog));
  }
  if (config.catalog.type == CatalogType::kUnity) {
    // Unity Catalog holds Floe's Delta tables (unity_delta_registry.h) and the config refuses
    // Iceberg topics with it, so no Iceberg table is ever opened: an empty private catalog
    // stands in, and nothing is written for it.
    FLOE_ASSIGN_OR_RETURN(auto catalog, IcebergCatalog::Open("sqlite://:memory:", config.warehouse));
    return std::unique_ptr<TableCatalog>(std::move(catalog));
  }
  FLOE_ASSIGN_OR_RETURN(auto uri, DefaultCatalogUri(config));
  FLOE_ASSIGN_OR_RETURN(auto catalog, IcebergCatalog::Open(uri, config.warehouse));
  return std::unique_ptr<TableCatalog>(std::move(catalog));
}

}  // namespace floe::catalog
