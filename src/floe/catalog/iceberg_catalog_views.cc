// IcebergCatalog's views: view metadata files in the warehouse, pointers in the store's view
// rows. The commit protocol is the tables' one (load fresh, check, apply, write, swap).
#include "floe/catalog/iceberg_catalog.h"
#include "floe/iceberg/metadata_files.h"

namespace floe::catalog {
namespace {

// write.metadata.path, else "<location>/metadata", as for tables.
std::string ViewMetadataDirectory(const iceberg::ViewMetadata& metadata) {
  return iceberg::MetadataDirectory(metadata.location, metadata.Property(iceberg::kPropWriteMetadataPath));
}

}  // namespace

Result<LoadedView> IcebergCatalog::LoadView(const TableIdentifier& id) {
  FLOE_ASSIGN_OR_RETURN(auto record, pointers_->LoadView(id));
  FLOE_ASSIGN_OR_RETURN(auto text, ReadFile(record.metadata_location));
  auto metadata = iceberg::ParseViewMetadata(text);
  if (!metadata.ok()) return metadata.status().WithContext(record.metadata_location);
  return LoadedView{id, record.metadata_location, std::move(metadata).value()};
}

Result<LoadedView> IcebergCatalog::CreateView(const TableIdentifier& id, iceberg::NewView view) {
  // Refused before anything is written; the pointer store checks the name again atomically.
  FLOE_RETURN_IF_ERROR(pointers_->LoadNamespaceProperties(id.ns).status());
  if (pointers_->LoadTable(id).ok()) {
    return Status::AlreadyExists("Table with same name already exists: " + TableIdentifierToString(id));
  }
  if (pointers_->LoadView(id).ok()) return Status::AlreadyExists("View already exists: " + TableIdentifierToString(id));
  if (view.location.empty()) view.location = DefaultTableLocation(warehouse_uri_, id);
  while (view.location.size() > 1 && view.location.back() == '/') view.location.pop_back();
  FLOE_ASSIGN_OR_RETURN(auto metadata, iceberg::NewViewMetadata(view, iceberg::NowMillis()));
  FLOE_ASSIGN_OR_RETURN(auto location,
                        WriteMetadataFile(ViewMetadataDirectory(metadata), 0, iceberg::SerializeViewMetadata(metadata)));
  FLOE_RETURN_IF_ERROR(pointers_->CreateView(id, location));
  return LoadedView{id, location, std::move(metadata)};
}

Result<LoadedView> IcebergCatalog::CommitView(const ViewChange& change) {
  FLOE_ASSIGN_OR_RETURN(auto current, LoadView(change.id));
  FLOE_RETURN_IF_ERROR(iceberg::CheckViewRequirements(current.metadata, change.requirements));
  bool changed = false;
  FLOE_ASSIGN_OR_RETURN(auto next,
                        iceberg::ApplyViewUpdates(current.metadata, change.updates, iceberg::NowMillis(), &changed));
  if (!changed) return current;
  FLOE_ASSIGN_OR_RETURN(auto version, iceberg::NextMetadataVersion(current.metadata_location));
  FLOE_ASSIGN_OR_RETURN(auto location,
                        WriteMetadataFile(ViewMetadataDirectory(next), version, iceberg::SerializeViewMetadata(next)));
  // A lost race leaves the file just written unreferenced (as for tables); the client retries.
  FLOE_RETURN_IF_ERROR(pointers_->SwapViewMetadataLocation(change.id, current.metadata_location, location));
  return LoadedView{change.id, location, std::move(next)};
}

}  // namespace floe::catalog
