#pragma once
// The Avro schemas of manifests and manifest lists, with the spec's field ids. Kept apart
// from the encoders so the field order both rely on is visible in one place.
#include <nlohmann/json.hpp>

#include "floe/core/result.h"
#include "floe/schema/partition.h"
#include "floe/schema/types.h"

namespace floe::iceberg {

// manifest_entry (format v2) for a spec's partition type.
Result<nlohmann::json> ManifestEntryAvroSchema(const schema::Schema& schema, const schema::PartitionSpec& spec);
nlohmann::json ManifestFileAvroSchema();

}  // namespace floe::iceberg
