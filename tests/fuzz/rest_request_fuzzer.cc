// Fuzz target: the REST catalog's request bodies and names, as its routes read them before
// the catalog is touched (server/rest_requests_internal.h). Each input is a body that every
// table and namespace route's parser reads, and a {namespace} path parameter; each must
// accept it or refuse it with kInvalidArgument or kUnsupported (a 400 or 406 with the Iceberg
// ErrorModel), never throw.
#include "floe/server/rest_requests_internal.h"
#include "fuzz_check.h"

namespace {

template <typename T>
void CheckParsed(const floe::Result<T>& r, std::string_view what) {
  if (r.ok()) return;
  // 400, or 406 for a transform or type Floe does not know (ErrorFromStatus).
  const floe::StatusCode code = r.status().code();
  floe::fuzz::Check(code == floe::StatusCode::kInvalidArgument || code == floe::StatusCode::kUnsupported, what);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace floe;
  using namespace floe::server;
  using floe::fuzz::Check;
  using floe::fuzz::CheckOk;
  const std::vector<fuzz::Record> records = fuzz::SplitRecords(data, size);
  HttpRequest request;
  request.method = "POST";
  request.body = std::string(records.front().payload);
  const catalog::Namespace ns{"db"};
  const catalog::TableIdentifier id{ns, "t"};
  CheckParsed(ParseCreateNamespaceRequest(request), "create namespace: 400 or accepted");
  CheckParsed(ParsePropertiesUpdateRequest(request), "namespace properties: 400 or accepted");
  auto create = ParseCreateTableRequest(ns, request);
  CheckParsed(create, "create table: 400 or accepted");
  if (create.ok()) CheckOk(ValidateName(create->table.id.name, "table"), "a created table's name is valid");
  CheckParsed(ParseRegisterTableRequest(ns, request), "register table: 400 or accepted");
  CheckParsed(ParseCommitTableRequest(id, request), "commit table: 400 or accepted");
  auto transaction = ParseCommitTransactionRequest(request);
  CheckParsed(transaction, "commit transaction: 400 or accepted");
  if (transaction.ok()) {
    for (const auto& change : *transaction) {
      CheckOk(ValidateName(change.id.name, "table"), "a transaction's table names are valid");
      for (const auto& level : change.id.ns) CheckOk(ValidateName(level, "namespace"), "and its namespaces");
    }
  }
  CheckParsed(ParseRenameRequest(request), "rename: 400 or accepted");
  // The second record, when there is one, is a {namespace} path parameter (already decoded).
  if (records.size() > 1) {
    auto path = ParseNamespacePath(std::string(records[1].payload));
    CheckParsed(path, "namespace path: 400 or accepted");
    if (path.ok()) {
      for (const auto& level : *path) CheckOk(ValidateName(level, "namespace"), "path namespaces are valid");
    }
  }
  return 0;
}
