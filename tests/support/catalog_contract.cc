#include "support/catalog_contract.h"

#include <algorithm>
#include <atomic>
#include <barrier>
#include <chrono>
#include <cstdint>
#include <random>
#include <set>
#include <thread>
#include <utility>

namespace floe::catalog {
namespace {

Status StatusOf(const Status& s) { return s; }
template <typename T>
Status StatusOf(const Result<T>& r) {
  return r.status();
}

std::string Show(const Namespace& ns) { return "'" + NamespaceToString(ns) + "'"; }

std::string Show(const std::vector<Namespace>& list) {
  std::string out = "[";
  for (std::size_t i = 0; i < list.size(); ++i) out += (i ? ", " : "") + Show(list[i]);
  return out + "]";
}

std::string Show(const std::vector<TableIdentifier>& list) {
  std::string out = "[";
  for (std::size_t i = 0; i < list.size(); ++i) out += (i ? ", '" : "'") + TableIdentifierToString(list[i]) + "'";
  return out + "]";
}

std::string Show(const Properties& props) {
  std::string out = "{";
  bool first = true;
  for (const auto& [k, v] : props) {
    out += (first ? "" : ", ") + k + "=" + v;
    first = false;
  }
  return out + "}";
}

Status Failure(int line, const char* expr, const char* expected, const Status& got) {
  return Status::Internal("contract.cc:" + std::to_string(line) + ": " + expr + " returned " + got.ToString() +
                          ", expected " + expected);
}

#define CONTRACT_EXPECT_OK(expr)                                                \
  do {                                                                          \
    ::floe::Status contract_s_ = StatusOf(expr);                                \
    if (!contract_s_.ok()) return Failure(__LINE__, #expr, "OK", contract_s_);  \
  } while (0)

#define CONTRACT_EXPECT_CODE(expr, expected_code)                          \
  do {                                                                    \
    ::floe::Status contract_s_ = StatusOf(expr);                          \
    if (contract_s_.code() != ::floe::StatusCode::expected_code) {        \
      return Failure(__LINE__, #expr, #expected_code, contract_s_);       \
    }                                                                     \
  } while (0)

#define CONTRACT_ASSIGN_IMPL(tmp, lhs, rexpr)                             \
  auto tmp = (rexpr);                                                     \
  if (!tmp.ok()) return Failure(__LINE__, #rexpr, "OK", tmp.status());    \
  lhs = std::move(tmp).value()

#define CONTRACT_ASSIGN(lhs, rexpr) CONTRACT_ASSIGN_IMPL(FLOE_CONCAT(contract_r_, __LINE__), lhs, rexpr)

#define CONTRACT_EXPECT(cond, detail)                                                                 \
  do {                                                                                                \
    if (!(cond)) {                                                                                    \
      return ::floe::Status::Internal("contract.cc:" + std::to_string(__LINE__) + ": expected " #cond \
                                      ": " + std::string(detail));                                    \
    }                                                                                                 \
  } while (0)

Namespace Child(const Namespace& parent, const std::string& level) {
  Namespace ns = parent;
  ns.push_back(level);
  return ns;
}

std::vector<Namespace> Sorted(std::vector<Namespace> v) {
  std::sort(v.begin(), v.end());
  return v;
}

// ---------------------------------------------------------------------------------- checks

Status NamespaceLifecycle(const ContractEnvironment& env, const Namespace& root) {
  Catalog& c = *env.catalog;
  const Namespace sales = Child(root, "sales");
  CONTRACT_EXPECT_CODE(c.LoadNamespaceProperties(sales), kNotFound);
  CONTRACT_EXPECT_CODE(c.DropNamespace(sales), kNotFound);
  const Properties props{{"owner", "data-eng"}, {"location", "s3://bucket/sales"}};
  CONTRACT_EXPECT_OK(c.CreateNamespace(sales, props));
  CONTRACT_ASSIGN(auto loaded, c.LoadNamespaceProperties(sales));
  CONTRACT_EXPECT(loaded == props, "properties are " + Show(loaded));
  CONTRACT_EXPECT_CODE(c.CreateNamespace(sales, {}), kAlreadyExists);
  // The parent exists because its child does.
  CONTRACT_EXPECT_CODE(c.CreateNamespace(root, {}), kAlreadyExists);
  CONTRACT_ASSIGN(auto root_props, c.LoadNamespaceProperties(root));
  CONTRACT_EXPECT(root_props.empty(), "implicit parent has properties " + Show(root_props));

  const Namespace empty = Child(root, "empty");
  CONTRACT_EXPECT_OK(c.CreateNamespace(empty, {}));
  CONTRACT_ASSIGN(auto empty_props, c.LoadNamespaceProperties(empty));
  CONTRACT_EXPECT(empty_props.empty(), "new namespace without properties has " + Show(empty_props));
  CONTRACT_ASSIGN(auto children, c.ListNamespaces(root));
  CONTRACT_EXPECT(children == Sorted({empty, sales}), "children of the root are " + Show(children));

  CONTRACT_EXPECT_OK(c.DropNamespace(sales));
  CONTRACT_EXPECT_CODE(c.LoadNamespaceProperties(sales), kNotFound);
  CONTRACT_EXPECT_CODE(c.DropNamespace(sales), kNotFound);
  CONTRACT_ASSIGN(children, c.ListNamespaces(root));
  CONTRACT_EXPECT(children == std::vector<Namespace>{empty}, "after the drop, children are " + Show(children));
  // Created again, it starts with no properties.
  CONTRACT_EXPECT_OK(c.CreateNamespace(sales, {}));
  CONTRACT_ASSIGN(loaded, c.LoadNamespaceProperties(sales));
  CONTRACT_EXPECT(loaded.empty(), "re-created namespace kept properties " + Show(loaded));
  return Status::OK();
}

Status NamespaceListing(const ContractEnvironment& env, const Namespace& root) {
  Catalog& c = *env.catalog;
  const Namespace a = Child(root, "a"), ax = Child(a, "x"), axd = Child(ax, "deep");
  // Siblings whose names trip LIKE-based prefix matching: case, '_' and '%' wildcards.
  const Namespace upper = Child(root, "A"), under = Child(root, "a_"), percent = Child(root, "a%"),
                  b = Child(root, "b");
  for (const auto& ns : {a, ax, axd, upper, under, percent, b}) CONTRACT_EXPECT_OK(c.CreateNamespace(ns, {}));
  CONTRACT_EXPECT_OK(c.CreateNamespace(Child(under, "child"), {}));
  CONTRACT_EXPECT_OK(c.CreateNamespace(Child(upper, "child"), {}));

  CONTRACT_ASSIGN(auto list, c.ListNamespaces(root));
  CONTRACT_EXPECT(list == Sorted({a, upper, under, percent, b}), "children of the root are " + Show(list));
  CONTRACT_ASSIGN(list, c.ListNamespaces(a));
  CONTRACT_EXPECT(list == std::vector<Namespace>{ax}, "children of 'a' are " + Show(list));
  CONTRACT_ASSIGN(list, c.ListNamespaces(ax));
  CONTRACT_EXPECT(list == std::vector<Namespace>{axd}, "children of 'a.x' are " + Show(list));
  CONTRACT_ASSIGN(list, c.ListNamespaces(axd));
  CONTRACT_EXPECT(list.empty(), "a leaf has children " + Show(list));
  CONTRACT_ASSIGN(list, c.ListNamespaces(percent));  // no wildcard: 'a_.child' is not below 'a%'
  CONTRACT_EXPECT(list.empty(), "children of 'a%' are " + Show(list));
  CONTRACT_ASSIGN(list, c.ListNamespaces(under));
  CONTRACT_EXPECT(list == std::vector<Namespace>{Child(under, "child")}, "children of 'a_' are " + Show(list));
  CONTRACT_ASSIGN(list, c.ListNamespaces(upper));
  CONTRACT_EXPECT(list == std::vector<Namespace>{Child(upper, "child")}, "children of 'A' are " + Show(list));
  CONTRACT_EXPECT_CODE(c.ListNamespaces(Child(root, "missing")), kNotFound);
  CONTRACT_EXPECT_CODE(c.ListNamespaces(Child(root, "B")), kNotFound);  // names are case-sensitive
  CONTRACT_EXPECT_CODE(c.LoadNamespaceProperties(Child(root, "a%")), kOk);
  CONTRACT_EXPECT_CODE(c.ListTables(Child(root, "B")), kNotFound);
  CONTRACT_EXPECT_CODE(c.ListNamespaces(Child(a, "missing")), kNotFound);

  // The root was never created, yet it is listed at the top level (once) because it has children.
  CONTRACT_ASSIGN(auto top, c.ListNamespaces({}));
  CONTRACT_EXPECT(std::count(top.begin(), top.end(), root) == 1, "top level is " + Show(top));
  for (const auto& ns : top) CONTRACT_EXPECT(ns.size() == 1, "top level lists " + Show(ns));

  CONTRACT_EXPECT_OK(c.DropNamespace(axd));
  CONTRACT_ASSIGN(list, c.ListNamespaces(ax));
  CONTRACT_EXPECT(list.empty(), "after dropping 'a.x.deep', children of 'a.x' are " + Show(list));
  return Status::OK();
}

Status NamespaceProperties(const ContractEnvironment& env, const Namespace& root) {
  Catalog& c = *env.catalog;
  const Namespace ns = Child(root, "p");
  CONTRACT_EXPECT_OK(c.CreateNamespace(ns, {{"a", "1"}, {"b", "2"}}));
  CONTRACT_EXPECT_OK(c.UpdateNamespaceProperties(ns, {"a", "never-set"}, {{"b", "20"}, {"c", "3"}}));
  CONTRACT_ASSIGN(auto props, c.LoadNamespaceProperties(ns));
  CONTRACT_EXPECT((props == Properties{{"b", "20"}, {"c", "3"}}), "after update: " + Show(props));

  CONTRACT_EXPECT_CODE(c.UpdateNamespaceProperties(ns, {"b"}, {{"b", "x"}}), kInvalidArgument);
  CONTRACT_EXPECT_CODE(c.UpdateNamespaceProperties(ns, {}, {{"exists", "false"}}), kInvalidArgument);
  CONTRACT_EXPECT_CODE(c.UpdateNamespaceProperties(ns, {"exists"}, {}), kInvalidArgument);
  CONTRACT_EXPECT_CODE(c.CreateNamespace(Child(root, "q"), {{"exists", "true"}}), kInvalidArgument);
  CONTRACT_EXPECT_CODE(c.UpdateNamespaceProperties(Child(root, "missing"), {}, {{"k", "v"}}), kNotFound);
  CONTRACT_ASSIGN(props, c.LoadNamespaceProperties(ns));
  CONTRACT_EXPECT((props == Properties{{"b", "20"}, {"c", "3"}}), "rejected updates changed properties: " + Show(props));

  CONTRACT_EXPECT_OK(c.UpdateNamespaceProperties(ns, {}, {{"empty", ""}}));
  CONTRACT_ASSIGN(props, c.LoadNamespaceProperties(ns));
  CONTRACT_EXPECT(props.count("empty") && props["empty"].empty(), "empty value: " + Show(props));

  // Removing every property leaves the namespace in place.
  CONTRACT_EXPECT_OK(c.UpdateNamespaceProperties(ns, {"b", "c", "empty"}, {}));
  CONTRACT_ASSIGN(props, c.LoadNamespaceProperties(ns));
  CONTRACT_EXPECT(props.empty(), "after removing all: " + Show(props));
  CONTRACT_ASSIGN(auto list, c.ListNamespaces(root));
  CONTRACT_EXPECT(list == std::vector<Namespace>{ns}, "namespace list after removing all properties: " + Show(list));

  // Properties of an implicit namespace (the root): settable, and it then exists on its own.
  CONTRACT_EXPECT_OK(c.UpdateNamespaceProperties(root, {}, {{"team", "x"}}));
  CONTRACT_EXPECT_OK(c.DropNamespace(ns));
  CONTRACT_ASSIGN(props, c.LoadNamespaceProperties(root));
  CONTRACT_EXPECT((props == Properties{{"team", "x"}}), "root properties: " + Show(props));
  return Status::OK();
}

Status DropNonEmptyNamespace(const ContractEnvironment& env, const Namespace& root) {
  Catalog& c = *env.catalog;
  const Namespace ns = Child(root, "d"), child = Child(ns, "child");
  const TableIdentifier t{ns, "t"};
  CONTRACT_EXPECT_OK(c.CreateNamespace(ns, {{"k", "v"}}));
  CONTRACT_EXPECT_OK(c.CreateNamespace(child, {}));
  CONTRACT_EXPECT_OK(c.CreateTable(t, "loc-t"));
  CONTRACT_EXPECT_CODE(c.DropNamespace(ns), kConflict);
  // Refused means untouched.
  CONTRACT_ASSIGN(auto props, c.LoadNamespaceProperties(ns));
  CONTRACT_EXPECT((props == Properties{{"k", "v"}}), "properties after refused drop: " + Show(props));
  CONTRACT_ASSIGN(auto rec, c.LoadTable(t));
  CONTRACT_EXPECT(rec.metadata_location == "loc-t", "table after refused drop: " + rec.metadata_location);

  CONTRACT_EXPECT_OK(c.DropTable(t));
  CONTRACT_EXPECT_CODE(c.DropNamespace(ns), kConflict);  // still has a child namespace
  CONTRACT_EXPECT_OK(c.DropNamespace(child));
  CONTRACT_EXPECT_OK(c.DropNamespace(ns));
  CONTRACT_EXPECT_CODE(c.LoadNamespaceProperties(ns), kNotFound);
  return Status::OK();
}

Status TableLifecycle(const ContractEnvironment& env, const Namespace& root) {
  Catalog& c = *env.catalog;
  const Namespace ns = Child(root, "t"), other = Child(root, "t2");
  const TableIdentifier orders{ns, "orders"}, clicks{ns, "clicks"};
  const std::string loc = "s3://bucket/wh/orders/metadata/00000-abc.metadata.json";
  CONTRACT_EXPECT_CODE(c.CreateTable({Child(root, "nope"), "x"}, "loc"), kNotFound);
  CONTRACT_EXPECT_CODE(c.LoadTable(orders), kNotFound);
  CONTRACT_EXPECT_OK(c.CreateNamespace(ns, {}));
  CONTRACT_EXPECT_OK(c.CreateNamespace(other, {}));
  CONTRACT_ASSIGN(auto tables, c.ListTables(ns));
  CONTRACT_EXPECT(tables.empty(), "new namespace has tables " + Show(tables));

  CONTRACT_EXPECT_OK(c.CreateTable(orders, loc));
  CONTRACT_ASSIGN(auto rec, c.LoadTable(orders));
  CONTRACT_EXPECT(rec.id == orders, "loaded id " + TableIdentifierToString(rec.id));
  CONTRACT_EXPECT(rec.metadata_location == loc, "location " + rec.metadata_location);
  CONTRACT_EXPECT(rec.previous_metadata_location.empty(), "previous " + rec.previous_metadata_location);
  CONTRACT_EXPECT_CODE(c.CreateTable(orders, "other-loc"), kAlreadyExists);
  CONTRACT_ASSIGN(rec, c.LoadTable(orders));
  CONTRACT_EXPECT(rec.metadata_location == loc, "failed create changed the location to " + rec.metadata_location);

  CONTRACT_EXPECT_OK(c.CreateTable(clicks, "loc-clicks"));
  CONTRACT_EXPECT_OK(c.CreateTable({other, "orders"}, "loc-other-orders"));
  CONTRACT_ASSIGN(tables, c.ListTables(ns));
  CONTRACT_EXPECT((tables == std::vector<TableIdentifier>{clicks, orders}), "tables " + Show(tables));
  CONTRACT_ASSIGN(rec, c.LoadTable({other, "orders"}));
  CONTRACT_EXPECT(rec.metadata_location == "loc-other-orders", "same name elsewhere: " + rec.metadata_location);
  CONTRACT_EXPECT_CODE(c.ListTables(Child(root, "nope")), kNotFound);
  CONTRACT_ASSIGN(auto children, c.ListNamespaces(ns));
  CONTRACT_EXPECT(children.empty(), "tables listed as namespaces: " + Show(children));

  CONTRACT_EXPECT_OK(c.DropTable(orders));
  CONTRACT_EXPECT_CODE(c.LoadTable(orders), kNotFound);
  CONTRACT_EXPECT_CODE(c.DropTable(orders), kNotFound);
  CONTRACT_ASSIGN(tables, c.ListTables(ns));
  CONTRACT_EXPECT(tables == std::vector<TableIdentifier>{clicks}, "after drop: " + Show(tables));
  // A dropped name can be created again.
  CONTRACT_EXPECT_OK(c.CreateTable(orders, "loc-new"));
  CONTRACT_ASSIGN(rec, c.LoadTable(orders));
  CONTRACT_EXPECT(rec.metadata_location == "loc-new" && rec.previous_metadata_location.empty(),
                  "re-created: " + rec.metadata_location + " / " + rec.previous_metadata_location);
  return Status::OK();
}

Status SwapMetadataLocation(const ContractEnvironment& env, const Namespace& root) {
  Catalog& c = *env.catalog;
  const Namespace ns = Child(root, "s");
  const TableIdentifier t{ns, "t"};
  CONTRACT_EXPECT_OK(c.CreateNamespace(ns, {}));
  CONTRACT_EXPECT_OK(c.CreateTable(t, "v0"));
  CONTRACT_EXPECT_OK(c.SwapMetadataLocation(t, "v0", "v1"));
  CONTRACT_ASSIGN(auto rec, c.LoadTable(t));
  CONTRACT_EXPECT(rec.metadata_location == "v1" && rec.previous_metadata_location == "v0",
                  "after swap: " + rec.metadata_location + " / " + rec.previous_metadata_location);

  // Stale, prefix, and case-different expectations all lose, and change nothing.
  CONTRACT_EXPECT_CODE(c.SwapMetadataLocation(t, "v0", "v2"), kConflict);
  CONTRACT_EXPECT_CODE(c.SwapMetadataLocation(t, "v", "v2"), kConflict);
  CONTRACT_EXPECT_CODE(c.SwapMetadataLocation(t, "V1", "v2"), kConflict);
  CONTRACT_EXPECT_CODE(c.SwapMetadataLocation(t, "", "v2"), kConflict);
  CONTRACT_ASSIGN(rec, c.LoadTable(t));
  CONTRACT_EXPECT(rec.metadata_location == "v1" && rec.previous_metadata_location == "v0",
                  "after lost swaps: " + rec.metadata_location + " / " + rec.previous_metadata_location);

  CONTRACT_EXPECT_OK(c.SwapMetadataLocation(t, "v1", "v2"));
  CONTRACT_ASSIGN(rec, c.LoadTable(t));
  CONTRACT_EXPECT(rec.metadata_location == "v2" && rec.previous_metadata_location == "v1",
                  "second swap: " + rec.metadata_location + " / " + rec.previous_metadata_location);

  CONTRACT_EXPECT_CODE(c.SwapMetadataLocation({ns, "missing"}, "v0", "v1"), kNotFound);
  CONTRACT_EXPECT_CODE(c.SwapMetadataLocation({Child(root, "nope"), "t"}, "v0", "v1"), kNotFound);
  CONTRACT_EXPECT_CODE(c.SwapMetadataLocation(t, "v2", ""), kInvalidArgument);
  CONTRACT_ASSIGN(rec, c.LoadTable(t));
  CONTRACT_EXPECT(rec.metadata_location == "v2", "after an invalid swap: " + rec.metadata_location);
  // A swap of one table leaves the others alone.
  CONTRACT_EXPECT_OK(c.CreateTable({ns, "u"}, "v0"));
  CONTRACT_EXPECT_OK(c.SwapMetadataLocation({ns, "u"}, "v0", "u1"));
  CONTRACT_ASSIGN(rec, c.LoadTable(t));
  CONTRACT_EXPECT(rec.metadata_location == "v2", "neighbour swap changed t to " + rec.metadata_location);
  return Status::OK();
}

Status RenameTable(const ContractEnvironment& env, const Namespace& root) {
  Catalog& c = *env.catalog;
  const Namespace src = Child(root, "src"), dst = Child(root, "dst");
  CONTRACT_EXPECT_OK(c.CreateNamespace(src, {}));
  CONTRACT_EXPECT_OK(c.CreateNamespace(dst, {}));
  CONTRACT_EXPECT_OK(c.CreateTable({src, "t"}, "loc-t"));
  CONTRACT_EXPECT_OK(c.CreateTable({src, "u"}, "loc-u"));

  CONTRACT_EXPECT_OK(c.RenameTable({src, "t"}, {src, "t2"}));
  CONTRACT_EXPECT_CODE(c.LoadTable({src, "t"}), kNotFound);
  CONTRACT_ASSIGN(auto rec, c.LoadTable({src, "t2"}));
  CONTRACT_EXPECT(rec.metadata_location == "loc-t", "renamed table location " + rec.metadata_location);

  CONTRACT_EXPECT_OK(c.RenameTable({src, "t2"}, {dst, "t"}));  // across namespaces
  CONTRACT_ASSIGN(auto tables, c.ListTables(src));
  CONTRACT_EXPECT((tables == std::vector<TableIdentifier>{{src, "u"}}), "source after move: " + Show(tables));
  CONTRACT_ASSIGN(tables, c.ListTables(dst));
  CONTRACT_EXPECT((tables == std::vector<TableIdentifier>{{dst, "t"}}), "target after move: " + Show(tables));
  CONTRACT_ASSIGN(rec, c.LoadTable({dst, "t"}));
  CONTRACT_EXPECT(rec.metadata_location == "loc-t", "moved table location " + rec.metadata_location);
  CONTRACT_EXPECT_OK(c.SwapMetadataLocation({dst, "t"}, "loc-t", "loc-t2"));

  CONTRACT_EXPECT_CODE(c.RenameTable({src, "missing"}, {dst, "x"}), kNotFound);
  CONTRACT_EXPECT_CODE(c.RenameTable({src, "u"}, {dst, "t"}), kAlreadyExists);
  CONTRACT_EXPECT_CODE(c.RenameTable({src, "u"}, {Child(root, "nope"), "u"}), kNotFound);
  CONTRACT_EXPECT_CODE(c.RenameTable({src, "u"}, {src, "u"}), kAlreadyExists);
  CONTRACT_ASSIGN(rec, c.LoadTable({src, "u"}));
  CONTRACT_EXPECT(rec.metadata_location == "loc-u", "refused renames changed u to " + rec.metadata_location);
  CONTRACT_ASSIGN(rec, c.LoadTable({dst, "t"}));
  CONTRACT_EXPECT(rec.metadata_location == "loc-t2", "refused rename changed t to " + rec.metadata_location);
  return Status::OK();
}

Status InvalidNames(const ContractEnvironment& env, const Namespace& root) {
  Catalog& c = *env.catalog;
  const Namespace ok = Child(root, "ok");
  CONTRACT_EXPECT_OK(c.CreateNamespace(ok, {}));
  Namespace too_deep = root;
  for (int i = 0; i < 30; ++i) too_deep.push_back("level" + std::to_string(i));
  const std::vector<Namespace> bad_namespaces = {
      {},
      Child(root, ""),
      Child(root, "a.b"),
      Child(root, std::string("nul\0byte", 8)),
      Child(root, std::string(256, 'x')),
      Child(root, "\xff\xfe"),  // not UTF-8
      too_deep,                 // > 255 bytes joined
  };
  for (const auto& bad : bad_namespaces) {
    const std::string which = "namespace #" + std::to_string(&bad - bad_namespaces.data());
    CONTRACT_EXPECT(c.CreateNamespace(bad, {}).code() == StatusCode::kInvalidArgument, which + " was created");
    CONTRACT_EXPECT(c.LoadNamespaceProperties(bad).status().code() == StatusCode::kInvalidArgument, which);
    CONTRACT_EXPECT(c.ListTables(bad).status().code() == StatusCode::kInvalidArgument, which);
    CONTRACT_EXPECT(c.DropNamespace(bad).code() == StatusCode::kInvalidArgument, which);
    CONTRACT_EXPECT(c.CreateTable({bad, "t"}, "loc").code() == StatusCode::kInvalidArgument, which);
  }
  CONTRACT_EXPECT_CODE(c.ListNamespaces(Child(root, "a.b")), kInvalidArgument);
  CONTRACT_EXPECT_OK(c.ListNamespaces({}));  // the top level is not an invalid parent

  for (const std::string& bad : {std::string(), std::string("t\0x", 3), std::string(256, 't'), std::string("\xc0\xaf")}) {
    CONTRACT_EXPECT_CODE(c.CreateTable({ok, bad}, "loc"), kInvalidArgument);
    CONTRACT_EXPECT_CODE(c.LoadTable({ok, bad}), kInvalidArgument);
  }
  CONTRACT_EXPECT_CODE(c.CreateTable({ok, "t"}, ""), kInvalidArgument);
  CONTRACT_EXPECT_CODE(c.CreateTable({ok, "t"}, std::string(1001, 'l')), kInvalidArgument);
  CONTRACT_EXPECT_CODE(c.CreateTable({ok, "t"}, std::string("lo\0c", 4)), kInvalidArgument);
  CONTRACT_EXPECT_CODE(c.CreateNamespace(Child(root, "k"), {{"", "v"}}), kInvalidArgument);
  CONTRACT_EXPECT_CODE(c.CreateNamespace(Child(root, "k"), {{"k", std::string(1001, 'v')}}), kInvalidArgument);
  CONTRACT_EXPECT_CODE(c.UpdateNamespaceProperties(ok, {}, {{std::string(256, 'k'), "v"}}), kInvalidArgument);
  CONTRACT_ASSIGN(auto tables, c.ListTables(ok));
  CONTRACT_EXPECT(tables.empty(), "invalid creates left tables " + Show(tables));

  // The limits themselves are allowed.
  const std::string longest_name(255, 'n'), longest_location(1000, 'l');
  CONTRACT_EXPECT_OK(c.CreateTable({ok, longest_name}, longest_location));
  CONTRACT_ASSIGN(auto rec, c.LoadTable({ok, longest_name}));
  CONTRACT_EXPECT(rec.metadata_location == longest_location, "1000-byte location came back different");
  CONTRACT_EXPECT_OK(c.UpdateNamespaceProperties(ok, {}, {{std::string(255, 'k'), std::string(1000, 'v')}}));
  return Status::OK();
}

Status NamesAreData(const ContractEnvironment& env, const Namespace& root) {
  Catalog& c = *env.catalog;
  const std::vector<std::string> names = {
      "it's",      "Robert'); DROP TABLE iceberg_tables;--", "100%", "a_b",
      "\xc3\xbc" "n" "\xc3\xaf" "c" "\xc3\xb8" "d" "\xc3\xa9" " " "\xe2\x98\x83",  // "ünïcødé ☃"
      "?1",        "$1",                                     "with space", "back\\slash", "\"quoted\"", "tab\there",
  };
  std::vector<Namespace> expected;
  for (const auto& n : names) {
    const Namespace ns = Child(root, n);
    expected.push_back(ns);
    CONTRACT_EXPECT_OK(c.CreateNamespace(ns, {{n, n + "'"}}));
    CONTRACT_EXPECT_OK(c.CreateTable({ns, n}, "s3://b/" + n + "'/metadata.json"));
  }
  CONTRACT_ASSIGN(auto list, c.ListNamespaces(root));
  CONTRACT_EXPECT(list == Sorted(expected), "namespaces " + Show(list));
  for (const auto& n : names) {
    const Namespace ns = Child(root, n);
    CONTRACT_ASSIGN(auto props, c.LoadNamespaceProperties(ns));
    CONTRACT_EXPECT((props == Properties{{n, n + "'"}}), "properties of " + Show(ns) + ": " + Show(props));
    CONTRACT_ASSIGN(auto tables, c.ListTables(ns));
    CONTRACT_EXPECT((tables == std::vector<TableIdentifier>{{ns, n}}), "tables of " + Show(ns) + ": " + Show(tables));
    CONTRACT_ASSIGN(auto rec, c.LoadTable({ns, n}));
    CONTRACT_EXPECT(rec.metadata_location == "s3://b/" + n + "'/metadata.json", "location " + rec.metadata_location);
    CONTRACT_EXPECT_OK(c.SwapMetadataLocation({ns, n}, rec.metadata_location, n));
  }
  return Status::OK();
}

// `catalogs[i]` is thread i's catalog (all the same instance, or one each). Every round all
// threads load the table, meet at a barrier, and swap from what they loaded: exactly one
// swap per round must win, and the others must lose with kConflict.
Status SwapRounds(const std::vector<Catalog*>& catalogs, const TableIdentifier& t, int rounds) {
  const int n = static_cast<int>(catalogs.size());
  CONTRACT_EXPECT_OK(catalogs[0]->CreateTable(t, "round-0"));
  std::vector<std::vector<Status>> results(static_cast<std::size_t>(rounds), std::vector<Status>(catalogs.size()));
  std::vector<std::vector<std::string>> seen(static_cast<std::size_t>(rounds), std::vector<std::string>(catalogs.size()));
  std::barrier sync(n);
  std::vector<std::thread> threads;
  for (int i = 0; i < n; ++i) {
    threads.emplace_back([&, i] {
      const auto ui = static_cast<std::size_t>(i);
      for (int r = 0; r < rounds; ++r) {
        const auto ur = static_cast<std::size_t>(r);
        auto rec = catalogs[ui]->LoadTable(t);
        sync.arrive_and_wait();  // everyone loaded the same state
        if (rec.ok()) {
          seen[ur][ui] = rec->metadata_location;
          results[ur][ui] = catalogs[ui]->SwapMetadataLocation(
              t, rec->metadata_location, "round-" + std::to_string(r + 1) + "-by-" + std::to_string(i));
        } else {
          results[ur][ui] = rec.status().WithContext("load");
        }
        sync.arrive_and_wait();  // every swap is done before the next load
      }
    });
  }
  for (auto& th : threads) th.join();

  std::string winner_location = "round-0";
  for (int r = 0; r < rounds; ++r) {
    const auto ur = static_cast<std::size_t>(r);
    int winner = -1;
    for (int i = 0; i < n; ++i) {
      const auto ui = static_cast<std::size_t>(i);
      const Status& s = results[ur][ui];
      const std::string where = "round " + std::to_string(r) + ", thread " + std::to_string(i);
      CONTRACT_EXPECT(seen[ur][ui] == winner_location,
                      where + " loaded '" + seen[ur][ui] + "' after '" + winner_location + "' had won");
      if (s.ok()) {
        CONTRACT_EXPECT(winner < 0, where + ": a second swap won the round (thread " + std::to_string(winner) +
                                        " already had)");
        winner = i;
      } else {
        CONTRACT_EXPECT(s.code() == StatusCode::kConflict, where + ": the losing swap returned " + s.ToString());
      }
    }
    CONTRACT_EXPECT(winner >= 0, "round " + std::to_string(r) + ": no swap won");
    winner_location = "round-" + std::to_string(r + 1) + "-by-" + std::to_string(winner);
  }
  CONTRACT_ASSIGN(auto rec, catalogs[0]->LoadTable(t));
  CONTRACT_EXPECT(rec.metadata_location == winner_location,
                  "final location '" + rec.metadata_location + "', the last winner wrote '" + winner_location + "'");
  return Status::OK();
}

Status ConcurrentSwapOneInstance(const ContractEnvironment& env, const Namespace& root) {
  const Namespace ns = Child(root, "race");
  CONTRACT_EXPECT_OK(env.catalog->CreateNamespace(ns, {}));
  std::vector<Catalog*> catalogs(static_cast<std::size_t>(std::max(2, env.threads)), env.catalog);
  return SwapRounds(catalogs, {ns, "t"}, env.rounds);
}

Status ConcurrentSwapAcrossInstances(const ContractEnvironment& env, const Namespace& root) {
  const Namespace ns = Child(root, "race");
  CONTRACT_EXPECT_OK(env.catalog->CreateNamespace(ns, {}));
  std::vector<std::unique_ptr<Catalog>> owned;
  std::vector<Catalog*> catalogs;
  for (int i = 0; i < std::max(2, env.threads); ++i) {
    CONTRACT_ASSIGN(auto other, env.open_another(env.catalog_name));
    catalogs.push_back(other.get());
    owned.push_back(std::move(other));
  }
  return SwapRounds(catalogs, {ns, "t"}, env.rounds);
}

Status SharedStorageSeesCommits(const ContractEnvironment& env, const Namespace& root) {
  Catalog& a = *env.catalog;
  CONTRACT_ASSIGN(auto b_owned, env.open_another(env.catalog_name));
  Catalog& b = *b_owned;
  const Namespace ns = Child(root, "shared");
  const TableIdentifier t{ns, "t"};
  CONTRACT_EXPECT_OK(a.CreateNamespace(ns, {{"k", "v"}}));
  CONTRACT_EXPECT_CODE(b.CreateNamespace(ns, {}), kAlreadyExists);
  CONTRACT_ASSIGN(auto props, b.LoadNamespaceProperties(ns));
  CONTRACT_EXPECT((props == Properties{{"k", "v"}}), "B sees properties " + Show(props));
  CONTRACT_EXPECT_OK(a.CreateTable(t, "v0"));
  CONTRACT_ASSIGN(auto rec, b.LoadTable(t));
  CONTRACT_EXPECT(rec.metadata_location == "v0", "B loaded " + rec.metadata_location);
  CONTRACT_EXPECT_OK(b.SwapMetadataLocation(t, "v0", "v1"));
  CONTRACT_ASSIGN(rec, a.LoadTable(t));
  CONTRACT_EXPECT(rec.metadata_location == "v1" && rec.previous_metadata_location == "v0",
                  "A loaded " + rec.metadata_location + " / " + rec.previous_metadata_location);
  CONTRACT_EXPECT_CODE(a.SwapMetadataLocation(t, "v0", "v1-by-a"), kConflict);  // A's stale view loses
  CONTRACT_EXPECT_OK(a.SwapMetadataLocation(t, "v1", "v2"));
  CONTRACT_EXPECT_CODE(b.SwapMetadataLocation(t, "v1", "v2-by-b"), kConflict);
  CONTRACT_EXPECT_OK(b.CreateNamespace(Child(root, "by-b"), {}));
  CONTRACT_ASSIGN(auto list, a.ListNamespaces(root));
  CONTRACT_EXPECT(list == Sorted({Child(root, "by-b"), ns}), "A lists " + Show(list));
  CONTRACT_EXPECT_OK(b.RenameTable(t, {ns, "renamed"}));
  CONTRACT_EXPECT_CODE(a.LoadTable(t), kNotFound);
  CONTRACT_ASSIGN(rec, a.LoadTable({ns, "renamed"}));
  CONTRACT_EXPECT(rec.metadata_location == "v2", "A loaded the renamed table at " + rec.metadata_location);
  CONTRACT_EXPECT_OK(b.DropTable({ns, "renamed"}));
  CONTRACT_ASSIGN(auto tables, a.ListTables(ns));
  CONTRACT_EXPECT(tables.empty(), "A lists tables " + Show(tables));
  return Status::OK();
}

Status CatalogNameScoping(const ContractEnvironment& env, const Namespace& root) {
  Catalog& a = *env.catalog;
  std::string other_name = env.catalog_name.substr(0, 240) + "_other";
  CONTRACT_ASSIGN(auto b_owned, env.open_another(other_name));
  Catalog& b = *b_owned;
  const Namespace ns = Child(root, "scoped");
  const TableIdentifier t{ns, "t"};
  CONTRACT_EXPECT_OK(a.CreateNamespace(ns, {{"owner", "a"}}));
  CONTRACT_EXPECT_OK(a.CreateTable(t, "a-v0"));

  CONTRACT_ASSIGN(auto top, b.ListNamespaces({}));
  CONTRACT_EXPECT(std::find(top.begin(), top.end(), root) == top.end(), "catalog B lists A's namespace");
  CONTRACT_EXPECT_CODE(b.LoadTable(t), kNotFound);
  CONTRACT_EXPECT_CODE(b.LoadNamespaceProperties(ns), kNotFound);
  CONTRACT_EXPECT_CODE(b.SwapMetadataLocation(t, "a-v0", "b"), kNotFound);

  // The same names in catalog B are separate entries.
  CONTRACT_EXPECT_OK(b.CreateNamespace(ns, {{"owner", "b"}}));
  CONTRACT_EXPECT_OK(b.CreateTable(t, "b-v0"));
  CONTRACT_EXPECT_OK(b.SwapMetadataLocation(t, "b-v0", "b-v1"));
  CONTRACT_ASSIGN(auto rec, a.LoadTable(t));
  CONTRACT_EXPECT(rec.metadata_location == "a-v0", "catalog B's swap changed A's table to " + rec.metadata_location);
  CONTRACT_ASSIGN(auto props, a.LoadNamespaceProperties(ns));
  CONTRACT_EXPECT((props == Properties{{"owner", "a"}}), "A's properties " + Show(props));

  Status drop_b_table = b.DropTable(t);
  Status drop_b_ns = b.DropNamespace(ns);
  CONTRACT_EXPECT_OK(drop_b_table);
  CONTRACT_EXPECT_OK(drop_b_ns);
  CONTRACT_ASSIGN(rec, a.LoadTable(t));
  CONTRACT_EXPECT(rec.metadata_location == "a-v0", "after B dropped its copy, A's table is at " + rec.metadata_location);
  return Status::OK();
}

// Drops every table and namespace at or below `ns`. A namespace that existed only through
// its children disappears with them, so its own DropNamespace may find nothing.
Status RemoveTree(Catalog& c, const Namespace& ns) {
  auto tables = c.ListTables(ns);
  if (tables.status().code() == StatusCode::kNotFound) return Status::OK();
  FLOE_RETURN_IF_ERROR(tables.status());
  for (const auto& t : *tables) FLOE_RETURN_IF_ERROR(c.DropTable(t));
  FLOE_ASSIGN_OR_RETURN(auto children, c.ListNamespaces(ns));
  for (const auto& child : children) FLOE_RETURN_IF_ERROR(RemoveTree(c, child));
  Status dropped = c.DropNamespace(ns);
  if (dropped.code() == StatusCode::kNotFound) return Status::OK();
  return dropped;
}

}  // namespace

const std::vector<ContractCheck>& CatalogContractChecks() {
  static const std::vector<ContractCheck> checks = {
      {"NamespaceLifecycle", false, NamespaceLifecycle},
      {"NamespaceListing", false, NamespaceListing},
      {"NamespaceProperties", false, NamespaceProperties},
      {"DropNonEmptyNamespace", false, DropNonEmptyNamespace},
      {"TableLifecycle", false, TableLifecycle},
      {"SwapMetadataLocation", false, SwapMetadataLocation},
      {"RenameTable", false, RenameTable},
      {"InvalidNames", false, InvalidNames},
      {"NamesAreData", false, NamesAreData},
      {"ConcurrentSwapOneInstance", false, ConcurrentSwapOneInstance},
      {"SharedStorageSeesCommits", true, SharedStorageSeesCommits},
      {"CatalogNameScoping", true, CatalogNameScoping},
      {"ConcurrentSwapAcrossInstances", true, ConcurrentSwapAcrossInstances},
  };
  return checks;
}

ContractCheckResult RunContractCheck(const ContractCheck& check, const ContractEnvironment& env) {
  ContractCheckResult result{check.name, ContractOutcome::kPassed, Status::OK()};
  if (check.needs_another_instance && !env.open_another) {
    result.outcome = ContractOutcome::kSkipped;
    result.status = Status::Unsupported("needs a second catalog instance on the same database");
    return result;
  }
  const Namespace root{env.run_id + "_" + check.name};
  Status s = check.run(env, root);
  Status cleanup = RemoveTree(*env.catalog, root);
  if (s.ok() && cleanup.ok() && env.catalog->LoadNamespaceProperties(root).status().code() != StatusCode::kNotFound) {
    cleanup = Status::Internal("namespace " + Show(root) + " still exists after dropping everything in it");
  }
  if (s.ok() && !cleanup.ok()) s = cleanup.WithContext("removing what the check created");
  if (!s.ok()) {
    result.outcome = ContractOutcome::kFailed;
    result.status = s;
  }
  return result;
}

std::string NewContractRunId() {
  std::random_device rd;
  std::mt19937_64 gen((static_cast<std::uint64_t>(rd()) << 32) ^ rd() ^
                      static_cast<std::uint64_t>(std::chrono::steady_clock::now().time_since_epoch().count()));
  static constexpr char kHex[] = "0123456789abcdef";
  std::string id = "contract_";
  std::uint64_t v = gen();
  for (int i = 0; i < 16; ++i) id += kHex[(v >> (i * 4)) & 15];
  return id;
}

}  // namespace floe::catalog
