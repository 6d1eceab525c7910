// Small string helpers that several parsers share (file names, protocol fields).
#pragma once

#include <algorithm>
#include <string_view>

namespace delineate::core {

inline bool endsWith(std::string_view s, std::string_view suffix) {
  return s.size() >= suffix.size() && s.substr(s.size() - suffix.size()) == suffix;
}

// ASCII case folding only: protocol tokens and keywords, not user text.
inline bool equalsIgnoreCase(std::string_view a, std::string_view b) {
  const auto lower = [](char c) {
    return (c >= 'A' && c <= 'Z') ? static_cast<char>(c - 'A' + 'a') : c;
  };
  return a.size() == b.size() && std::equal(a.begin(), a.end(), b.begin(),
                                            [&](char x, char y) { return lower(x) == lower(y); });
}

}  // namespace delineate::core
