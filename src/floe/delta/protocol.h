#pragma once
// Delta protocol versions and table features: the minimal (reader, writer) pair for the
// features a Floe table uses, and the check that Floe may write a table someone else made.
#include <map>
#include <set>
#include <string>

#include "floe/core/result.h"
#include "floe/schema/types.h"

namespace floe::delta {

struct Protocol {
  int min_reader_version = 1;
  int min_writer_version = 2;
  std::set<std::string> reader_features;  // only with reader version 3
  std::set<std::string> writer_features;  // only with writer version 7

  bool operator==(const Protocol&) const = default;
};

// Features in use -> minimal protocol: none (1, 2); column mapping (2, 5); timestamp_ntz
// anywhere in the schema needs table features (3, 7), and then every feature is listed.
Protocol RequiredProtocol(const schema::Schema& schema, bool column_mapping);

// The smallest protocol that satisfies both (a table's protocol never goes down).
Protocol MergeProtocols(const Protocol& current, const Protocol& required);

// kUnsupported when appending to the table would need something Floe does not do: a writer
// feature it does not implement (row tracking, in-commit timestamps, v2 checkpoints, …) or
// an active constraint, invariant, generated or identity column that an append must honour.
// `configuration` and `schema_string` are the table's metaData.
Status CheckWritable(const Protocol& protocol, const std::map<std::string, std::string>& configuration,
                     const std::string& schema_string);

}  // namespace floe::delta
