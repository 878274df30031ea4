#include "floe/delta/history.h"

#include <nlohmann/json.hpp>

#include <sstream>

#include "floe/core/json_depth.h"
#include "floe/delta/log_store_internal.h"
#include "floe/delta/schema_json_internal.h"

namespace floe::delta {
namespace {

std::int64_t Int(const nlohmann::json& object, const char* key) {
  auto it = object.find(key);
  return it != object.end() && it->is_number_integer() ? it->get<std::int64_t>() : 0;
}

// stats is JSON text inside the add action; a writer may leave it out or write it oddly.
std::int64_t NumRecords(const nlohmann::json& add) {
  auto it = add.find("stats");
  if (it == add.end() || !it->is_string()) return 0;
  auto stats = nlohmann::json::parse(it->get<std::string>(), nullptr, false);
  return stats.is_object() ? Int(stats, "numRecords") : 0;
}

Result<CommitSummary> Summarize(std::int64_t version, const std::string& text, const std::string& name) {
  CommitSummary out;
  out.version = version;
  std::istringstream lines(text);
  std::string line;
  while (std::getline(lines, line)) {
    if (line.find_first_not_of(" \t\r") == std::string::npos) continue;
    FLOE_RETURN_IF_ERROR(CheckJsonDepth(line, name));
    auto action = nlohmann::json::parse(line, nullptr, false);
    if (!action.is_object()) return Status::InvalidArgument(name + ": a line is not a JSON object");
    if (auto it = action.find("commitInfo"); it != action.end() && it->is_object()) {
      out.timestamp_ms = Int(*it, "timestamp");
      if (it->contains("operation") && (*it)["operation"].is_string()) out.operation = (*it)["operation"];
    } else if (auto add = action.find("add"); add != action.end() && add->is_object()) {
      ++out.added_files;
      out.added_records += NumRecords(*add);
    } else if (action.contains("remove")) {
      ++out.removed_files;
    } else if (auto meta = action.find("metaData"); meta != action.end() && meta->is_object()) {
      if (meta->contains("schemaString") && (*meta)["schemaString"].is_string()) {
        FLOE_ASSIGN_OR_RETURN(out.schema, ParseSchemaString((*meta)["schemaString"].get<std::string>()));
      }
    }
  }
  return out;
}

}  // namespace

Result<std::vector<CommitSummary>> ReadCommitHistory(storage::FileIO& io, std::size_t max_commits) {
  FLOE_ASSIGN_OR_RETURN(auto listing, ListLog(io));
  std::vector<CommitSummary> out;
  const std::size_t n = listing.commits.size();
  for (std::size_t i = n > max_commits ? n - max_commits : 0; i < n; ++i) {
    const std::string name = CommitFileName(listing.commits[i]);
    auto text = ReadText(io, name);
    // A commit cleaned up between listing and reading: the history simply starts later.
    if (!text.ok() && text.status().code() == StatusCode::kNotFound) continue;
    if (!text.ok()) return text.status();
    FLOE_ASSIGN_OR_RETURN(auto summary, Summarize(listing.commits[i], *text, name));
    out.push_back(std::move(summary));
  }
  return out;
}

}  // namespace floe::delta
