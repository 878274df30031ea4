#pragma once
// Random identifiers: Iceberg table uuids and file names, Delta txn ids and file names,
// commit ids. Version 4 (RFC 4122 §4.4): 122 random bits, so two never collide in practice
// even across processes writing the same table.
#include <string>

namespace floe {

// A random version-4 UUID in canonical form: lower-case hex, 8-4-4-4-12
// ("xxxxxxxx-xxxx-4xxx-[89ab]xxx-xxxxxxxxxxxx"). Thread-safe.
std::string NewUuid();

}  // namespace floe
