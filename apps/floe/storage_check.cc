#include "storage_check.h"

#include <arrow/filesystem/filesystem.h>

#include <iostream>

#include "floe/core/arrow_interop.h"
#include "floe/storage/file_io.h"
#include "floe/storage/object_stores.h"
#include "storage_setup.h"

namespace floe::cli {
namespace {

// Delta replays its log by listing _delta_log/: a principal that may write but not list
// would commit once and then fail. The probe object is gone by now, so this lists the root.
Status CheckListing(const std::string& warehouse) {
  std::string path;
  FLOE_ASSIGN_OR_RETURN(auto fs, storage::FileSystemForUri(warehouse, &path));
  arrow::fs::FileSelector selector;
  selector.base_dir = path;
  selector.allow_not_found = true;
  selector.recursive = false;
  auto listed = FromArrow(fs->GetFileInfo(selector));
  if (!listed.ok()) {
    return listed.status().WithContext("probing the warehouse " + warehouse +
                                       " (list: the principal needs s3:ListBucket on the bucket, or the "
                                       "store's list permission)");
  }
  return Status::OK();
}

}  // namespace

int CheckStorage(const FloeConfig& config) {
  std::cout << "storage: " << config.warehouse << "\n";
  auto fail = [](const Status& st) {
    std::cout << "  FAILED: " << st.message() << "\n";
    return 1;
  };
  if (auto st = PrepareStorage(config, /*probe=*/false); !st.ok()) return fail(st);
  auto report = storage::ProbeWarehouse(config.warehouse);
  if (!report.ok()) return fail(report.status());
  if (!report->object_store) {
    std::cout << "  a local file system: atomic creates by link(2)\n";
  } else {
    if (!report->region.empty()) std::cout << "  region: " << report->region << "\n";
    if (!report->credential_source.empty()) std::cout << "  credentials: " << report->credential_source << "\n";
    std::cout << "  write, read, delete: ok\n";
    std::cout << "  conditional create: "
              << (report->conditional_create ? "honoured (Delta commits are safe with several writers)"
                                             : "NOT honoured")
              << "\n";
  }
  if (auto st = CheckListing(config.warehouse); !st.ok()) return fail(st);
  if (report->object_store) std::cout << "  list: ok\n";
  if (auto st = CheckDeltaSupport(config, *report); !st.ok()) return fail(st);
  std::cout << "storage: OK\n";
  return 0;
}

}  // namespace floe::cli
