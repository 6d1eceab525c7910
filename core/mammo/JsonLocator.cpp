#include "core/mammo/JsonLocator.h"

#include <algorithm>
#include <nlohmann/json.hpp>
#include <vector>

namespace delineate::core::mammo {

namespace {

constexpr std::size_t kNone = std::string_view::npos;

bool isSpace(char c) {
  return c == ' ' || c == '\t' || c == '\n' || c == '\r';
}

std::size_t skipSpace(std::string_view t, std::size_t p) {
  while (p < t.size() && isSpace(t[p])) {
    ++p;
  }
  return p;
}

// `p` at an opening quote: the position after the closing one (kNone when unterminated).
std::size_t skipString(std::string_view t, std::size_t p) {
  for (++p; p < t.size(); ++p) {
    if (t[p] == '\\') {
      ++p;
    } else if (t[p] == '"') {
      return p + 1;
    }
  }
  return kNone;
}

// `p` at a value: the position after it. Iterative, so that deep nesting cannot overflow.
std::size_t skipValue(std::string_view t, std::size_t p) {
  if (p >= t.size()) {
    return kNone;
  }
  if (t[p] == '"') {
    return skipString(t, p);
  }
  if (t[p] != '{' && t[p] != '[') {
    while (p < t.size() && !isSpace(t[p]) && t[p] != ',' && t[p] != '}' && t[p] != ']') {
      ++p;
    }
    return p;
  }
  std::size_t depth = 0;
  while (p < t.size()) {
    const char c = t[p];
    if (c == '"') {
      p = skipString(t, p);
      if (p == kNone) {
        return kNone;
      }
      continue;
    }
    if (c == '{' || c == '[') {
      ++depth;
    } else if ((c == '}' || c == ']') && --depth == 0) {
      return p + 1;
    }
    ++p;
  }
  return kNone;
}

std::string keyText(std::string_view token) {  // token with its quotes
  if (token.find('\\') == std::string_view::npos) {
    return std::string(token.substr(1, token.size() - 2));
  }
  try {
    return nlohmann::json::parse(token).get<std::string>();
  } catch (const nlohmann::json::exception&) {
    return {};
  }
}

std::vector<std::string> pointerTokens(const std::string& pointer) {
  std::vector<std::string> tokens;
  std::size_t p = 0;
  while (p < pointer.size() && pointer[p] == '/') {
    const std::size_t next = std::min(pointer.find('/', p + 1), pointer.size());
    std::string token = pointer.substr(p + 1, next - p - 1);
    std::string unescaped;
    for (std::size_t i = 0; i < token.size(); ++i) {
      if (token[i] == '~' && i + 1 < token.size() && (token[i + 1] == '0' || token[i + 1] == '1')) {
        unescaped += token[i + 1] == '0' ? '~' : '/';
        ++i;
      } else {
        unescaped += token[i];
      }
    }
    tokens.push_back(std::move(unescaped));
    p = next;
  }
  return tokens;
}

// `p` at an object or array: where its member `token` starts; kNone when it has none.
std::size_t memberStart(std::string_view t, std::size_t p, const std::string& token) {
  if (t[p] == '{') {
    std::size_t found = kNone;
    p = skipSpace(t, p + 1);
    while (p < t.size() && t[p] == '"') {
      const std::size_t keyEnd = skipString(t, p);
      if (keyEnd == kNone) {
        return kNone;
      }
      const std::string key = keyText(t.substr(p, keyEnd - p));
      p = skipSpace(t, keyEnd);
      if (p >= t.size() || t[p] != ':') {
        return kNone;
      }
      p = skipSpace(t, p + 1);
      if (key == token) {
        found = p;  // the last of duplicates, as nlohmann::json keeps
      }
      p = skipSpace(t, skipValue(t, p));
      if (p >= t.size() || t[p] != ',') {
        break;
      }
      p = skipSpace(t, p + 1);
    }
    return found;
  }
  if (t[p] != '[' || token.empty() ||
      !std::all_of(token.begin(), token.end(), [](char c) { return c >= '0' && c <= '9'; }) ||
      token.size() > 9) {
    return kNone;
  }
  std::size_t index = std::stoul(token);
  p = skipSpace(t, p + 1);
  while (p < t.size() && t[p] != ']') {
    if (index-- == 0) {
      return p;
    }
    p = skipSpace(t, skipValue(t, p));
    if (p >= t.size() || t[p] != ',') {
      return kNone;
    }
    p = skipSpace(t, p + 1);
  }
  return kNone;
}

}  // namespace

int lineAtOffset(std::string_view text, std::size_t offset) {
  offset = std::min(offset, text.size());
  return 1 + int(std::count(text.begin(), text.begin() + std::ptrdiff_t(offset), '\n'));
}

int lineOfPointer(std::string_view text, const std::string& pointer) {
  std::size_t p = skipSpace(text, 0);
  if (p >= text.size()) {
    return 0;
  }
  for (const std::string& token : pointerTokens(pointer)) {
    if (text[p] != '{' && text[p] != '[') {
      break;
    }
    const std::size_t next = memberStart(text, p, token);
    if (next == kNone || next >= text.size()) {
      break;
    }
    p = next;
  }
  return lineAtOffset(text, p);
}

}  // namespace delineate::core::mammo
