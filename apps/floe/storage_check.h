#pragma once
// `floe validate --check-storage`: the start-up probe of `floe run`, on demand, with a report
// an operator can act on.
#include "floe/core/config.h"

namespace floe::cli {

// Writes, reads, lists and deletes a probe object in the warehouse and prints what the store
// supports (region, credential source — never a secret —, conditional creates) and whether
// the topics' table formats can be written there. Returns the exit code: 0 usable, 1 not.
int CheckStorage(const FloeConfig& config);

}  // namespace floe::cli
