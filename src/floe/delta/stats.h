#pragma once
// Per-file statistics for `add` actions (PROTOCOL.md, "Per-file Statistics"), from the
// footer of a Parquet file Floe wrote. Engines skip files with these, so every bound is
// exact or a safe widening, or left out — never narrower than the data.
#include <string>

#include "floe/core/result.h"
#include "floe/schema/types.h"

namespace parquet {
class FileMetaData;
}

namespace floe::delta {

// {"numRecords":…,"minValues":{…},"maxValues":{…},"nullCount":{…}} keyed by the file's
// column names, which are the table's physical names; struct children nest. Columns are
// matched to `schema` by Parquet field id for their types. Left out: columns inside lists
// and maps (Delta keeps no stats there), min/max of boolean, binary, uuid and fixed columns,
// and min/max of a column when some row group has no statistics for it. Strings keep 32
// code points: the min is cut to them, a longer max is left out. Timestamps are written
// with millisecond precision, the min rounded down and the max rounded up.
Result<std::string> StatsJson(const parquet::FileMetaData& footer, const schema::Schema& schema);

}  // namespace floe::delta
