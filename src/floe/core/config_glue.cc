// catalog.type glue: the table-name rules over the topics (docs/catalog.md, "AWS Glue").
// Checked here so that `floe validate` and the start refuse them, not the first commit.
#include <algorithm>
#include <map>
#include <regex>

#include "floe/core/config_reader_internal.h"

namespace floe::config_internal {
namespace {

// sink::DeltaRegistryName's suffix: a topic with formats [iceberg, delta] registers its Delta
// table as <table>_delta beside the Iceberg table <table>.
constexpr std::string_view kDeltaSuffix = "_delta";
constexpr std::size_t kMaxGlueTableName = 255;

bool Has(const TopicConfig& t, TableFormat format) {
  return std::find(t.formats.begin(), t.formats.end(), format) != t.formats.end();
}

}  // namespace

void CheckGlueTableNames(ConfigReader& r, const YAML::Node& root, const FloeConfig& c) {
  static const std::regex kGlueName("[a-z0-9_]{1,252}");    // databases
  static const std::regex kGlueTable("[a-z0-9_]{1,255}");
  const std::string rule = "with catalog.type glue, names are one database and one table of lower-case letters, "
                           "digits and underscores (docs/catalog.md, \"AWS Glue\")";
  if (!std::regex_match(c.defaults.namespace_name, kGlueName)) {
    r.Error(root["defaults"] ? root["defaults"] : root, "defaults.namespace",
            "'" + c.defaults.namespace_name + "': " + rule);
  }
  // The Glue name each table takes ("<database>.<table>") -> which topic's table, which format:
  // an Iceberg and a Delta table of different topics must not meet under one name.
  struct Owner {
    std::size_t topic;
    TableFormat format;
  };
  std::map<std::string, Owner> taken;
  for (std::size_t i = 0; i < c.topics.size(); ++i) {
    const TopicConfig& t = c.topics[i];
    const std::string path = "topics[" + std::to_string(i) + "].table";
    std::string database = c.defaults.namespace_name;
    std::string name = SanitizeTableName(t.name);
    if (!t.table.empty()) {
      const auto dot = t.table.find('.');
      if (dot == std::string::npos || !std::regex_match(t.table.substr(0, dot), kGlueName) ||
          !std::regex_match(t.table.substr(dot + 1), kGlueTable)) {
        r.Error(root["topics"][i], path, "'" + t.table + "': " + rule);
        continue;
      }
      database = t.table.substr(0, dot);
      name = t.table.substr(dot + 1);
    } else if (!t.pattern.empty()) {
      continue;  // names of topics a pattern matches are known only at run time
    }
    const bool iceberg = Has(t, TableFormat::kIceberg);
    const bool delta = Has(t, TableFormat::kDelta);
    const std::string delta_name = iceberg && delta ? name + std::string(kDeltaSuffix) : name;
    if (delta_name.size() > kMaxGlueTableName) {
      r.Error(root["topics"][i], path,
              "'" + t.table + "': with formats [iceberg, delta] the Delta table is registered in Glue as '" +
                  delta_name + "', longer than Glue's 255 characters (use a table name of at most " +
                  std::to_string(kMaxGlueTableName - kDeltaSuffix.size()) + ")");
    }
    std::vector<std::pair<std::string, TableFormat>> names;
    if (iceberg) names.emplace_back(database + "." + name, TableFormat::kIceberg);
    if (delta) names.emplace_back(database + "." + delta_name, TableFormat::kDelta);
    for (const auto& [glue_name, format] : names) {
      auto [it, inserted] = taken.emplace(glue_name, Owner{i, format});
      if (inserted || it->second.format == format) continue;  // one table for two topics is refused elsewhere
      const auto kind = [](TableFormat f) { return f == TableFormat::kIceberg ? "an Iceberg" : "a Delta"; };
      r.Error(root["topics"][i], path,
              "Glue name '" + glue_name + "' would be both " + kind(it->second.format) + " table (topics[" +
                  std::to_string(it->second.topic) + "]) and " + kind(format) +
                  " table (this topic): choose another table name (docs/catalog.md, \"Delta tables in Glue\")");
    }
  }
}

}  // namespace floe::config_internal
