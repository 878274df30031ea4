#pragma once
// Iceberg's single-value binary serialization (spec Appendix D) of partition literals, used
// for manifest-list partition summaries; and the Avro type of a partition field.
#include <nlohmann/json.hpp>

#include <string>

#include "floe/core/result.h"
#include "floe/iceberg/data_file.h"
#include "floe/schema/types.h"

namespace floe::iceberg {

// int/date: 4-byte LE; long/time/timestamps: 8-byte LE; float/double: LE IEEE; boolean: one
// byte; string: UTF-8; binary/fixed/uuid: the bytes; decimal: the unscaled big-endian bytes.
Result<std::string> SingleValueBytes(const Literal& value, const schema::Type& type);
// -1/0/1 ordering of two literals of one partition type (for summaries' bounds).
int CompareLiterals(const Literal& a, const Literal& b);
// The Avro schema of a primitive Iceberg type as Iceberg writes it into manifests.
Result<nlohmann::json> AvroTypeOf(const schema::Type& type);

}  // namespace floe::iceberg
