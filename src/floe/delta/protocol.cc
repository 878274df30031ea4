#include "floe/delta/protocol.h"

#include <algorithm>
#include <functional>

namespace floe::delta {
namespace {

bool UsesTimestampNtz(const schema::Type& type) {
  if (type.id() == schema::TypeId::kTimestamp) return true;
  return std::any_of(type.fields().begin(), type.fields().end(),
                     [](const schema::NestedField& f) { return UsesTimestampNtz(*f.type); });
}

// Features a legacy (pre-table-features) version pair implies, for converting it to the
// explicit form when a table moves to (3, 7): nothing it allowed may be lost.
void AddLegacyFeatures(const Protocol& p, std::set<std::string>& readers, std::set<std::string>& writers) {
  if (p.min_reader_version >= 2 && p.min_reader_version < 3) readers.insert("columnMapping");
  if (p.min_writer_version >= 7) return;
  if (p.min_writer_version >= 2) writers.insert({"appendOnly", "invariants"});
  if (p.min_writer_version >= 3) writers.insert("checkConstraints");
  if (p.min_writer_version >= 4) writers.insert({"changeDataFeed", "generatedColumns"});
  if (p.min_writer_version >= 5) writers.insert("columnMapping");
  if (p.min_writer_version >= 6) writers.insert("identityColumns");
}

}  // namespace

Protocol RequiredProtocol(const schema::Schema& schema, bool column_mapping) {
  Protocol p;
  if (UsesTimestampNtz(*schema.AsStruct())) {
    p.min_reader_version = 3;
    p.min_writer_version = 7;
    p.reader_features.insert("timestampNtz");
    p.writer_features.insert("timestampNtz");
    if (column_mapping) {
      p.reader_features.insert("columnMapping");
      p.writer_features.insert("columnMapping");
    }
  } else if (column_mapping) {
    p.min_reader_version = 2;
    p.min_writer_version = 5;
  }
  return p;
}

Protocol MergeProtocols(const Protocol& current, const Protocol& required) {
  const bool features = current.min_writer_version >= 7 || required.min_writer_version >= 7;
  if (!features) {
    return Protocol{std::max(current.min_reader_version, required.min_reader_version),
                    std::max(current.min_writer_version, required.min_writer_version), {}, {}};
  }
  Protocol out;
  out.min_writer_version = 7;
  out.writer_features = current.writer_features;
  out.writer_features.insert(required.writer_features.begin(), required.writer_features.end());
  out.reader_features = current.reader_features;
  out.reader_features.insert(required.reader_features.begin(), required.reader_features.end());
  AddLegacyFeatures(current, out.reader_features, out.writer_features);
  AddLegacyFeatures(required, out.reader_features, out.writer_features);
  const bool reader_features = current.min_reader_version >= 3 || required.min_reader_version >= 3;
  if (reader_features) {
    out.min_reader_version = 3;
  } else {
    // Reader features are listed only with reader version 3; a legacy reader version stays.
    out.min_reader_version = std::max(current.min_reader_version, required.min_reader_version);
    out.reader_features.clear();
  }
  return out;
}

Status CheckWritable(const Protocol& protocol, const std::map<std::string, std::string>& configuration,
                     const std::string& schema_string) {
  if (protocol.min_writer_version > 7) {
    return Status::Unsupported("Delta writer version " + std::to_string(protocol.min_writer_version) +
                               " is newer than Floe supports (7)");
  }
  // Features an append either needs nothing for, or that Floe implements.
  static const std::set<std::string> kSupported = {
      "appendOnly",     "invariants",    "checkConstraints", "changeDataFeed",      "generatedColumns",
      "columnMapping",  "identityColumns", "timestampNtz",   "deletionVectors",     "domainMetadata",
      "vacuumProtocolCheck", "checkpointProtection", "typeWidening", "typeWidening-preview"};
  for (const auto& f : protocol.writer_features) {
    if (!kSupported.count(f)) return Status::Unsupported("Delta table feature '" + f + "' is not supported by Floe's writer");
  }
  // Supported features that are also active need work an append does not do.
  for (const auto& [k, v] : configuration) {
    if (k.rfind("delta.constraints.", 0) == 0) {
      return Status::Unsupported("Delta table has CHECK constraint '" + k.substr(18) + "', which Floe does not evaluate");
    }
  }
  for (const char* marker : {"delta.invariants", "delta.generationExpression", "delta.identity."}) {
    if (schema_string.find(marker) != std::string::npos) {
      return Status::Unsupported(std::string("Delta table schema uses '") + marker +
                                 "' (invariants, generated or identity columns), which Floe does not honour");
    }
  }
  return Status::OK();
}

}  // namespace floe::delta
