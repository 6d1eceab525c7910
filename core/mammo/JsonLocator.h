#pragma once
// Where in a JSON text a value is written, for error messages that name "<file>:<line>".
// nlohmann::json (3.11) keeps no positions, so the text that parsed is walked again along a JSON
// pointer ("/images/0/marks/2/score") to the value's first byte.
#include <cstddef>
#include <string>
#include <string_view>

namespace delineate::core::mammo {

// The 1-based line of byte `offset` of `text` (offsets past the end count as the end).
int lineAtOffset(std::string_view text, std::size_t offset);

// The 1-based line where the value at `pointer` starts in `text`, which must be valid JSON; when
// the path does not exist (a missing member), the line of its nearest existing ancestor. Of
// duplicate members the last counts, as when nlohmann::json parses. 0 when the text is no JSON.
int lineOfPointer(std::string_view text, const std::string& pointer);

}  // namespace delineate::core::mammo
