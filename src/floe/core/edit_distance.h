#pragma once
// Did-you-mean suggestions for misspelled config keys and choices.
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace floe {

std::size_t EditDistance(std::string_view a, std::string_view b);
// The candidate nearest to `word`, if it is near enough to be a plausible typo.
std::optional<std::string> ClosestMatch(std::string_view word, const std::vector<std::string>& candidates);

}  // namespace floe
