#pragma once
// The spec's type strings ("long", "decimal(9,2)", "fixed[16]", …), shared by the JSON
// serializer, Type::ToString and error messages. Private to the schema module.
#include <string>
#include <string_view>

#include "floe/core/result.h"
#include "floe/schema/types.h"

namespace floe::schema {

// kVariant is the last TypeId; a new id after it must move this too.
inline constexpr int kTypeIdCount = static_cast<int>(TypeId::kVariant) + 1;
// The spec's limit: decimals are stored in at most 16 bytes.
inline constexpr int kMaxDecimalPrecision = 38;

// The type string of a primitive ("decimal(9,2)"); "struct"/"list"/"map" for nested types.
std::string PrimitiveTypeString(const Type& type);

// Parses a primitive type string, case-insensitively like Java's parser, allowing spaces
// inside "decimal( 9 , 2 )" and "fixed[ 16 ]" as Java and pyiceberg do.
Result<TypePtr> ParsePrimitiveTypeString(std::string_view text);

}  // namespace floe::schema
