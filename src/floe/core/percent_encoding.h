#pragma once
// Percent-encoding (RFC 3986 §2.1), the one codec of the product: REST catalog URLs and form
// bodies, Schema Registry subjects, Delta log paths (add.path), and the path segments the
// HTTP server routes on.
//
// PercentEncode keeps ASCII letters, digits and the bytes of `keep`; every other byte becomes
// "%XX" (upper-case hex), one escape per byte, so UTF-8 text is escaped byte by byte and
// PercentDecode(PercentEncode(s, keep)) == s for every byte string s and every `keep`.
//
// PercentDecode turns each "%XX" (hex, either case) back into its byte and passes every other
// byte through; '+' is not a space (that is form decoding, which Floe never needs). A '%' not
// followed by two hex digits is kInvalidArgument naming its offset: the text was not
// percent-encoded, and guessing would make two different names decode alike.
#include <string>
#include <string_view>

#include "floe/core/result.h"

namespace floe {

// The unreserved characters of RFC 3986 besides letters and digits.
inline constexpr std::string_view kUnreservedPunctuation = "-._~";

std::string PercentEncode(std::string_view text, std::string_view keep = kUnreservedPunctuation);

Result<std::string> PercentDecode(std::string_view text);

}  // namespace floe
