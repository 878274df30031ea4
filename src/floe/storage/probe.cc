// The start-up check of a warehouse on an object store: can Floe write, read and delete there,
// and does the store refuse a second create of one name (what Delta's commits rely on)?
#include <arrow/buffer.h>
#include <spdlog/spdlog.h>

#include <algorithm>
#include <latch>
#include <thread>
#include <vector>

#include "floe/core/arrow_interop.h"
#include "floe/core/uuid.h"
#include "floe/storage/azure_store_internal.h"
#include "floe/storage/file_io.h"
#include "floe/storage/gcs_store_internal.h"
#include "floe/storage/object_stores.h"
#include "floe/storage/s3_store_internal.h"

namespace floe::storage {
namespace {

Status ReadBack(FileIO& io, const std::string& name, std::size_t expected_size) {
  FLOE_ASSIGN_OR_RETURN(auto file, io.OpenRead(name));
  FLOE_ASSIGN_OR_RETURN(auto size, FromArrow(file->GetSize()));
  if (static_cast<std::size_t>(size) != expected_size) {
    return Status::IoError("read back " + std::to_string(size) + " bytes of the " + std::to_string(expected_size) +
                           " written");
  }
  return Status::OK();
}

// A store can refuse a second create one request at a time yet check and write without a lock
// (S3Proxy does): racing writers then both "win" a Delta version. A few rounds of kRacers
// simultaneous creates of one name; returns the most that succeeded in one round (1 when the
// store is atomic). Probabilistic: such a store lets several through in most rounds, but on a
// loaded machine the racers can serialize for several rounds in a row (4 rounds once missed
// S3Proxy in CI), so up to 10 rounds are run; the loop stops at the first round with two
// winners, and an atomic store costs 80 small conditional PUTs once at start.
constexpr int kRacers = 8;
constexpr int kRaceRounds = 10;

Result<int> MostWinnersOfRacingCreates(FileIO& io, const std::string& base, const std::string& content) {
  int most = 0;
  for (int round = 0; round < kRaceRounds && most <= 1; ++round) {
    const std::string name = base + "-race" + std::to_string(round);
    std::vector<Status> results(kRacers);
    std::latch start(kRacers);
    std::vector<std::thread> racers;
    for (int i = 0; i < kRacers; ++i) {
      racers.emplace_back([&, i] {
        start.arrive_and_wait();
        results[i] = io.PutIfAbsent(name, content);
      });
    }
    for (auto& t : racers) t.join();
    int winners = 0;
    for (const Status& st : results) {
      if (st.ok()) ++winners;
      else if (st.code() != StatusCode::kConflict) return st.WithContext("racing creates of " + name);
    }
    most = std::max(most, winners);
    if (winners > 0) FLOE_RETURN_IF_ERROR(io.Delete(name).WithContext("delete " + name));
  }
  return most;
}

}  // namespace

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
  // First the conditional create Delta commits rest on (a plain request whose errors name the
  // store's code and the permission missing): the second create of one name must fail.
  Status first = io.PutIfAbsent(name, content);
  if (first.code() == StatusCode::kUnsupported) {
    report.conditional_create_detail = "not available: " + first.message();
    spdlog::warn("warehouse {}: no conditional create: {}", warehouse, first.message());
  } else if (!first.ok()) {
    return first.WithContext(context("create " + name));
  } else {
    const Status second = io.PutIfAbsent(name, content);
    report.conditional_create = second.code() == StatusCode::kConflict;
    if (!second.ok() && !report.conditional_create) return second.WithContext(context("second create of " + name));
    report.conditional_create_detail = report.conditional_create ? "the store refused a second create of one name"
                                                                 : "the store accepted a second create of one name";
    if (auto st = ReadBack(io, name, content.size()); !st.ok()) return st.WithContext(context("read " + name));
    if (auto st = io.Delete(name); !st.ok()) return st.WithContext(context("delete " + name));
  }
  // Then the data path: every data and metadata file is an arrow::fs upload (multipart), and
  // a store can take one kind of PUT and refuse the other (S3Proxy refuses the AWS SDK's
  // checksum trailers on UploadPart).
  const std::string uploaded = name + "-upload";
  auto file = io.Create(uploaded);
  if (!file.ok()) return file.status().WithContext(context("upload " + uploaded));
  Status upload = FromArrow((*file)->stream()->Write(content.data(), static_cast<std::int64_t>(content.size())));
  if (upload.ok()) upload = FromArrow((*file)->stream()->Close());
  if (upload.ok()) upload = (*file)->Commit();
  if (!upload.ok()) {
    std::string hint;
    if (warehouse.rfind("s3://", 0) == 0 && upload.message().find("HTTP status 400") != std::string::npos) {
      hint = "; an S3-compatible store may refuse the AWS SDK's upload checksums: try storage.s3.request_checksums: "
             "when_required (docs/storage.md)";
    }
    return Status(upload.code(), upload.message() + hint).WithContext(context("upload " + uploaded));
  }
  if (auto st = ReadBack(io, uploaded, content.size()); !st.ok()) return st.WithContext(context("read " + uploaded));
  if (auto st = io.Delete(uploaded); !st.ok()) return st.WithContext(context("delete " + uploaded));

  if (report.conditional_create) {
    FLOE_ASSIGN_OR_RETURN(const int winners, MostWinnersOfRacingCreates(io, name, content));
    if (winners > 1) {
      report.conditional_create = false;
      report.conditional_create_detail =
          "the store refuses a second create of one name, but " + std::to_string(winners) + " of " +
          std::to_string(kRacers) + " simultaneous creates of one name all succeeded (its check is not atomic)";
    }
  }
  return report;
}

}  // namespace floe::storage
