#include "core/net/Http.h"

#include <algorithm>
#include <cctype>

namespace delineate::core::net {

std::string headerValue(const Headers& headers, const std::string& name) {
  for (const auto& [key, value] : headers) {
    if (key.size() == name.size() &&
        std::equal(key.begin(), key.end(), name.begin(), [](char a, char b) {
          return std::tolower(static_cast<unsigned char>(a)) ==
                 std::tolower(static_cast<unsigned char>(b));
        })) {
      return value;
    }
  }
  return {};
}

std::string joinUrl(const std::string& base, const std::string& path) {
  std::string b = base;
  while (!b.empty() && b.back() == '/') {
    b.pop_back();
  }
  std::size_t start = 0;
  while (start < path.size() && path[start] == '/') {
    ++start;
  }
  return b + "/" + path.substr(start);
}

}  // namespace delineate::core::net
