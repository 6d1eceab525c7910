// Small string helpers that several parsers share (file names, protocol fields).
#pragma once

#include <algorithm>
#include <string>
#include <string_view>

namespace delineate::core {

// A DICOM date (DA, "20240502") as ISO 8601 ("2024-05-02"); anything but eight digits unchanged.
inline std::string isoDateOfDicom(const std::string& da) {
  if (da.size() != 8 ||
      !std::all_of(da.begin(), da.end(), [](char c) { return c >= '0' && c <= '9'; })) {
    return da;
  }
  return da.substr(0, 4) + "-" + da.substr(4, 2) + "-" + da.substr(6, 2);
}

// ASCII case folding of one character.
inline char asciiLower(char c) {
  return (c >= 'A' && c <= 'Z') ? static_cast<char>(c - 'A' + 'a') : c;
}

// Without leading and trailing spaces, tabs, CRs and LFs.
inline std::string_view trimWhitespace(std::string_view s) {
  const auto space = [](char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\n'; };
  while (!s.empty() && space(s.front())) {
    s.remove_prefix(1);
  }
  while (!s.empty() && space(s.back())) {
    s.remove_suffix(1);
  }
  return s;
}

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

// RFC 3986 percent-encoding of everything but unreserved characters (URL paths and queries)
// and those in `keep` (sub-delimiters a query value may carry as they are).
inline std::string percentEncode(std::string_view text, std::string_view keep = {}) {
  static const char hex[] = "0123456789ABCDEF";
  std::string out;
  for (const char c : text) {
    const auto u = static_cast<unsigned char>(c);
    if ((c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-' ||
        c == '.' || c == '_' || c == '~' || keep.find(c) != std::string_view::npos) {
      out += c;
    } else {
      out += '%';
      out += hex[u >> 4];
      out += hex[u & 0xf];
    }
  }
  return out;
}

}  // namespace delineate::core
