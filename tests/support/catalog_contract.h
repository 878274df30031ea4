#pragma once
// The Catalog contract as executable checks: what every Catalog implementation must do, in
// the terms of catalog.h (codes, atomic compare-and-swap, namespace rules). Test support
// (library floe_test_support), not shipped in the product: the unit tests run every check
// against SQLite; tests/tools/floe_catalog_tool runs them against any URI (the integration
// tests: a real PostgreSQL server). A check returns OK or a Status whose
// message says which expectation failed and what the catalog answered instead.
//
// Checks work only below their own top-level namespace, "<run_id>_<check name>", so they
// can run against a database that holds other data; RunContractCheck removes what the check
// left behind.
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "floe/catalog/catalog.h"

namespace floe::catalog {

struct ContractEnvironment {
  Catalog* catalog = nullptr;
  std::string catalog_name;  // the name `catalog` was opened with
  // Opens another instance on the same database, as another process would, under the given
  // catalog name. Empty when the database is private to `catalog` (sqlite://:memory:);
  // the checks that need it are then skipped.
  std::function<Result<std::unique_ptr<Catalog>>(const std::string& catalog_name)> open_another;
  std::string run_id;  // unique per run (NewContractRunId); a valid namespace level
  int threads = 4;     // concurrent committers in the CAS checks
  int rounds = 20;     // CAS rounds per concurrency check
};

struct ContractCheck {
  std::string name;
  bool needs_another_instance = false;
  std::function<Status(const ContractEnvironment& env, const Namespace& root)> run;
};

// Every check, in a fixed order.
const std::vector<ContractCheck>& CatalogContractChecks();

enum class ContractOutcome { kPassed, kFailed, kSkipped };

struct ContractCheckResult {
  std::string name;
  ContractOutcome outcome = ContractOutcome::kPassed;
  Status status;  // why it failed or was skipped
};

// Runs one check under its root namespace, then drops everything below the root.
ContractCheckResult RunContractCheck(const ContractCheck& check, const ContractEnvironment& env);

// "contract_<16 hex digits>", random.
std::string NewContractRunId();

}  // namespace floe::catalog
