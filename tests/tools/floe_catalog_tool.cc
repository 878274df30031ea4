// Test tool: runs catalog operations against a catalog URI (sqlite:///..., postgresql://...),
// for the integration tests (tests/integration/test_sql_catalog_postgres.py) and for poking
// at a catalog by hand.
//
//   floe_catalog_tool --uri URI [--catalog NAME] COMMAND ...
//     create-namespace NS [-p key=value]...     list [NS]            (namespaces, then tables)
//     create-table ID LOCATION                  load ID              (location, previous location)
//     swap ID EXPECTED NEXT                     drop-table ID        drop-namespace NS
//     rename FROM TO
//     contract-test [--threads N] [--rounds N] [--only CHECK]    the Catalog contract checks
//     race ID --rounds N --name NAME [--wait-for-go]             CAS until version N (see below)
//     shell                                     one command per stdin line (see below)
// NS is dotted ("lake.raw"), ID is NS.table ("lake.raw.orders").
//
// Exit codes: 0 OK, 3 kConflict, 4 kNotFound, 5 kAlreadyExists, 6 kUnavailable, 1 any other
// failure (message on stderr), 2 bad command line.
#include <CLI/CLI.hpp>

#include <cctype>
#include <chrono>
#include <iostream>
#include <sstream>
#include <string>
#include <vector>

#include "floe/catalog/sql_catalog.h"
#include "support/catalog_contract.h"

namespace {

using floe::Result;
using floe::Status;
using floe::StatusCode;
using namespace floe::catalog;

int ExitCode(const Status& s) {
  switch (s.code()) {
    case StatusCode::kOk: return 0;
    case StatusCode::kConflict: return 3;
    case StatusCode::kNotFound: return 4;
    case StatusCode::kAlreadyExists: return 5;
    case StatusCode::kUnavailable: return 6;
    default: return 1;
  }
}

int Report(const Status& s) {
  if (!s.ok()) std::cerr << "error: " << s.ToString() << "\n";
  return ExitCode(s);
}

Result<std::unique_ptr<Catalog>> Open(const std::string& uri, const std::string& name) {
  return OpenSqlCatalog(uri, name);
}

int ContractTest(const std::string& uri, const std::string& name, Catalog& catalog, int threads, int rounds,
                 const std::string& only) {
  ContractEnvironment env;
  env.catalog = &catalog;
  env.catalog_name = name;
  env.run_id = NewContractRunId();
  env.threads = threads;
  env.rounds = rounds;
  if (uri.find(":memory:") == std::string::npos) {
    env.open_another = [uri](const std::string& catalog_name) { return Open(uri, catalog_name); };
  }
  int passed = 0, failed = 0, skipped = 0;
  for (const auto& check : CatalogContractChecks()) {
    if (!only.empty() && check.name != only) continue;
    auto start = std::chrono::steady_clock::now();
    auto result = RunContractCheck(check, env);
    auto ms = std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() - start).count();
    switch (result.outcome) {
      case ContractOutcome::kPassed:
        ++passed;
        std::cout << "PASS " << check.name << " (" << ms << " ms)\n";
        break;
      case ContractOutcome::kSkipped:
        ++skipped;
        std::cout << "SKIP " << check.name << ": " << result.status.message() << "\n";
        break;
      case ContractOutcome::kFailed:
        ++failed;
        std::cout << "FAIL " << check.name << ": " << result.status.ToString() << "\n";
        break;
    }
    std::cout.flush();
  }
  std::cout << "contract checks: " << passed << " passed, " << failed << " failed, " << skipped << " skipped\n";
  if (passed + failed + skipped == 0) {
    std::cerr << "error: no contract check named '" << only << "'\n";
    return 1;
  }
  return failed ? 1 : 0;
}

// CAS until the table's location reaches version `rounds`. Locations are "v<N>" or
// "v<N>-<name>"; each attempt loads the table and swaps "v<N>..." for "v<N+1>-<name>". Every
// win prints "won N+1"; at the end "wins W conflicts C". With several racers, each version
// must be won by exactly one of them.
int Race(Catalog& catalog, const TableIdentifier& id, int rounds, const std::string& name, bool wait_for_go) {
  if (wait_for_go) {
    std::cout << "ready" << std::endl;
    std::string line;
    if (!std::getline(std::cin, line) || line != "go") {
      std::cerr << "error: expected 'go' on stdin\n";
      return 1;
    }
  }
  int wins = 0, conflicts = 0;
  while (true) {
    auto rec = catalog.LoadTable(id);
    if (!rec.ok()) return Report(rec.status());
    const std::string& loc = rec->metadata_location;
    if (loc.size() < 2 || loc[0] != 'v' || !std::isdigit(static_cast<unsigned char>(loc[1]))) {
      return Report(Status::InvalidArgument("unexpected location '" + loc + "'"));
    }
    long version = std::stol(loc.substr(1));
    if (version >= rounds) break;
    std::string next = "v" + std::to_string(version + 1) + "-" + name;
    Status s = catalog.SwapMetadataLocation(id, loc, next);
    if (s.ok()) {
      ++wins;
      std::cout << "won " << version + 1 << "\n";
    } else if (s.code() == StatusCode::kConflict) {
      ++conflicts;
    } else {
      return Report(s);
    }
  }
  std::cout << "wins " << wins << " conflicts " << conflicts << std::endl;
  return 0;
}

// One command per line, words separated by single spaces; one answer line per command:
// "OK[ payload]" or "ERR <StatusCodeName> <message>". Commands: load ID (payload: location
// and previous location), swap ID EXPECTED NEXT, create-namespace NS, create-table ID
// LOCATION, list NS (payload: the table names), quit. The catalog stays open throughout,
// which is what the reconnect tests need.
int Shell(Catalog& catalog) {
  std::string line;
  auto answer = [](const Status& s, const std::string& payload = "") {
    if (s.ok()) {
      std::cout << "OK" << (payload.empty() ? "" : " " + payload) << std::endl;
    } else {
      std::string message = s.message();
      for (char& c : message) {
        if (c == '\n') c = ' ';
      }
      std::cout << "ERR " << floe::StatusCodeName(s.code()) << " " << message << std::endl;
    }
  };
  std::cout << "ready" << std::endl;
  while (std::getline(std::cin, line)) {
    std::vector<std::string> words;
    std::istringstream in(line);
    for (std::string w; std::getline(in, w, ' ');) words.push_back(w);
    if (words.empty()) continue;
    const std::string& cmd = words[0];
    auto id = [&](std::size_t i) { return ParseTableIdentifier(i < words.size() ? words[i] : ""); };
    if (cmd == "quit") break;
    if (cmd == "load" && words.size() == 2) {
      auto t = id(1);
      if (!t.ok()) { answer(t.status()); continue; }
      auto rec = catalog.LoadTable(*t);
      answer(rec.status(), rec.ok() ? rec->metadata_location + " " + rec->previous_metadata_location : "");
    } else if (cmd == "swap" && words.size() == 4) {
      auto t = id(1);
      answer(t.ok() ? catalog.SwapMetadataLocation(*t, words[2], words[3]) : t.status());
    } else if (cmd == "create-namespace" && words.size() == 2) {
      answer(catalog.CreateNamespace(NamespaceFromString(words[1]), {}));
    } else if (cmd == "create-table" && words.size() == 3) {
      auto t = id(1);
      answer(t.ok() ? catalog.CreateTable(*t, words[2]) : t.status());
    } else if (cmd == "list" && words.size() == 2) {
      auto tables = catalog.ListTables(NamespaceFromString(words[1]));
      std::string names;
      if (tables.ok()) {
        for (const auto& t : *tables) names += (names.empty() ? "" : " ") + t.name;
      }
      answer(tables.status(), names);
    } else {
      answer(Status::InvalidArgument("unknown command: " + line));
    }
  }
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"Runs Floe catalog operations against a catalog URI."};
  app.require_subcommand(1);
  std::string uri, catalog_name = "floe";
  app.add_option("--uri", uri, "sqlite:///path/catalog.db, sqlite://:memory: or postgresql://user@host:port/db")
      ->required();
  app.add_option("--catalog", catalog_name, "catalog name (the catalog_name column)");

  std::string ns_arg, id_arg, id2_arg, location, expected, next, only, racer = "racer";
  std::vector<std::string> props;
  int threads = 4, rounds = 20;
  bool wait_for_go = false;

  auto* create_ns = app.add_subcommand("create-namespace", "create a namespace");
  create_ns->add_option("namespace", ns_arg)->required();
  create_ns->add_option("-p,--property", props, "key=value");
  auto* list = app.add_subcommand("list", "list child namespaces, and tables when a namespace is given");
  list->add_option("namespace", ns_arg);
  auto* create_table = app.add_subcommand("create-table", "create a table pointing at a metadata location");
  create_table->add_option("table", id_arg)->required();
  create_table->add_option("location", location)->required();
  auto* load = app.add_subcommand("load", "print the metadata location and the previous one");
  load->add_option("table", id_arg)->required();
  auto* swap = app.add_subcommand("swap", "compare-and-swap the metadata location");
  swap->add_option("table", id_arg)->required();
  swap->add_option("expected", expected)->required();
  swap->add_option("next", next)->required();
  auto* drop_table = app.add_subcommand("drop-table", "drop a table");
  drop_table->add_option("table", id_arg)->required();
  auto* drop_ns = app.add_subcommand("drop-namespace", "drop an empty namespace");
  drop_ns->add_option("namespace", ns_arg)->required();
  auto* rename = app.add_subcommand("rename", "rename (move) a table");
  rename->add_option("from", id_arg)->required();
  rename->add_option("to", id2_arg)->required();
  auto* contract = app.add_subcommand("contract-test", "run the Catalog contract checks");
  contract->add_option("--threads", threads, "concurrent committers")->check(CLI::Range(2, 64));
  contract->add_option("--rounds", rounds, "CAS rounds")->check(CLI::Range(1, 10000));
  contract->add_option("--only", only, "run one check");
  auto* race = app.add_subcommand("race", "compare-and-swap a table until version --rounds");
  race->add_option("table", id_arg)->required();
  race->add_option("--rounds", rounds)->required();
  race->add_option("--name", racer, "written into the locations this racer wins");
  race->add_flag("--wait-for-go", wait_for_go, "print 'ready', start on a 'go' line from stdin");
  auto* shell = app.add_subcommand("shell", "read commands from stdin");

  CLI11_PARSE(app, argc, argv);

  auto opened = Open(uri, catalog_name);
  if (!opened.ok()) return Report(opened.status());
  Catalog& catalog = **opened;

  if (create_ns->parsed()) {
    Properties properties;
    for (const auto& p : props) {
      auto eq = p.find('=');
      if (eq == std::string::npos) return Report(Status::InvalidArgument("property '" + p + "' is not key=value"));
      properties[p.substr(0, eq)] = p.substr(eq + 1);
    }
    return Report(catalog.CreateNamespace(NamespaceFromString(ns_arg), properties));
  }
  if (list->parsed()) {
    const Namespace ns = NamespaceFromString(ns_arg);
    auto children = catalog.ListNamespaces(ns);
    if (!children.ok()) return Report(children.status());
    for (const auto& child : *children) std::cout << "namespace " << NamespaceToString(child) << "\n";
    if (!ns.empty()) {
      auto tables = catalog.ListTables(ns);
      if (!tables.ok()) return Report(tables.status());
      for (const auto& t : *tables) std::cout << "table " << TableIdentifierToString(t) << "\n";
    }
    return 0;
  }
  if (drop_ns->parsed()) return Report(catalog.DropNamespace(NamespaceFromString(ns_arg)));
  if (contract->parsed()) return ContractTest(uri, catalog_name, catalog, threads, rounds, only);
  if (shell->parsed()) return Shell(catalog);

  auto id = ParseTableIdentifier(id_arg);
  if (!id.ok()) return Report(id.status());
  if (create_table->parsed()) return Report(catalog.CreateTable(*id, location));
  if (load->parsed()) {
    auto rec = catalog.LoadTable(*id);
    if (!rec.ok()) return Report(rec.status());
    std::cout << rec->metadata_location << "\n" << rec->previous_metadata_location << "\n";
    return 0;
  }
  if (swap->parsed()) return Report(catalog.SwapMetadataLocation(*id, expected, next));
  if (drop_table->parsed()) return Report(catalog.DropTable(*id));
  if (rename->parsed()) {
    auto to = ParseTableIdentifier(id2_arg);
    if (!to.ok()) return Report(to.status());
    return Report(catalog.RenameTable(*id, *to));
  }
  if (race->parsed()) return Race(catalog, *id, rounds, racer, wait_for_go);
  return 2;
}
