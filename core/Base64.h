#pragma once
// Base64 (RFC 4648, standard alphabet, '=' padding) for binary arrays inside JSON files, e.g. the
// float32 heatmaps of a findings file.
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace delineate::core {

std::string base64Encode(const std::uint8_t* data, std::size_t size);
// nullopt when `text` is not base64 (a character outside the alphabet, a length that is not a
// multiple of 4, padding in the middle). Whitespace is not accepted.
std::optional<std::vector<std::uint8_t>> base64Decode(std::string_view text);

}  // namespace delineate::core
