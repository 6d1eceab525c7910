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

}  // namespace delineate::core::net
