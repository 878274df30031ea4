// The start-up check of a warehouse on an object store: can Floe write, read and delete there,
// and does the store refuse a second create of one name (what Delta's commits rely on)?
#include <arrow/buffer.h>
#include <spdlog/spdlog.h>

#include "floe/core/arrow_interop.h"
#include "floe/core/uuid.h"
#include "floe/storage/azure_store_internal.h"
#include "floe/storage/file_io.h"
#include "floe/storage/gcs_store_internal.h"
#include "floe/storage/object_stores.h"
#include "floe/storage/s3_store_internal.h"

namespace floe::storage {

Result<ProbeReport> ProbeWarehouse(const std::string& warehouse) {
  ProbeReport report;
  if (warehouse.find("://") == std::string::npos || warehouse.rfind("file://", 0) == 0) return report;
  report.object_store = true;
  if (warehouse.rfind("s3://", 0) == 0) {
    FLOE_ASSIGN_OR_RETURN(auto store, SharedS3Store());
    report.region = store->fs->region();
    report.credential_source = DescribeCredentials(store->config);
  }
  if (IsAzureUri(warehouse)) {
    FLOE_ASSIGN_OR_RETURN(auto location, ParseAzureUri(warehouse));
    FLOE_ASSIGN_OR_RETURN(auto store, SharedAzureStore(location.account));
    report.region = "account " + store->config.account;
    report.credential_source = DescribeAzureCredentials(store->config);
  }
  if (IsGcsUri(warehouse)) {
    FLOE_ASSIGN_OR_RETURN(auto store, SharedGcsStore());
    report.credential_source = DescribeGcsCredentials(store->config);
  }
  auto context = [&warehouse](const std::string& step) {
    return "probing the warehouse " + warehouse + " (" + step + ")";
  };
  FLOE_ASSIGN_OR_RETURN(auto io, FileIO::Open(warehouse));
  // Directly under the warehouse: deleting the last object of a "directory" makes Arrow leave
  // an empty directory marker behind, and the probe must leave nothing.
  const std::string name = "_floe_probe-" + NewUuid();
  const std::string content = "floe start-up probe: safe to delete\n";
  Status first = io.PutIfAbsent(name, content);
  if (first.code() == StatusCode::kUnsupported) {
    report.conditional_create_detail = "not available: " + first.message();
    spdlog::warn("warehouse {}: no conditional create: {}", warehouse, first.message());
    // No conditional create for this store: still check that it takes writes.
    auto file = io.Create(name);
    if (!file.ok()) return file.status().WithContext(context("create " + name));
    FLOE_RETURN_IF_ARROW_ERROR((*file)->stream()->Write(content.data(), static_cast<std::int64_t>(content.size())));
    FLOE_RETURN_IF_ARROW_ERROR((*file)->stream()->Close());
    if (auto st = (*file)->Commit(); !st.ok()) return st.WithContext(context("create " + name));
  } else if (!first.ok()) {
    return first.WithContext(context("create " + name));
  } else {
    const Status second = io.PutIfAbsent(name, content);
    report.conditional_create = second.code() == StatusCode::kConflict;
    if (!second.ok() && !report.conditional_create) return second.WithContext(context("second create of " + name));
    report.conditional_create_detail = report.conditional_create ? "the store refused a second create of one name"
                                                                 : "the store accepted a second create of one name";
  }
  auto read = io.OpenRead(name);
  if (!read.ok()) return read.status().WithContext(context("read " + name));
  auto size = FromArrow((*read)->GetSize());
  if (!size.ok()) return size.status().WithContext(context("read " + name));
  if (auto st = io.Delete(name); !st.ok()) return st.WithContext(context("delete " + name));
  return report;
}

}  // namespace floe::storage
