#include "core/deid/TextScrubber.h"

#include <algorithm>
#include <cctype>

namespace delineate::core::deid {

namespace {

char lower(char c) {
  return static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
}

// Bytes of multi-byte characters count as word characters, so that a name in UTF-8 or Latin-1 is
// not matched inside a longer word.
bool isWordChar(char c) {
  const auto u = static_cast<unsigned char>(c);
  return std::isalnum(u) || u >= 0x80;
}

std::string_view trim(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\0')) {
    s.remove_prefix(1);
  }
  while (!s.empty() && (s.back() == ' ' || s.back() == '\0')) {
    s.remove_suffix(1);
  }
  return s;
}

template <typename F>
void split(std::string_view s, std::string_view separators, F f) {
  std::size_t start = 0;
  while (start <= s.size()) {
    const std::size_t end = s.find_first_of(separators, start);
    f(s.substr(start, end == std::string_view::npos ? s.npos : end - start));
    if (end == std::string_view::npos) {
      break;
    }
    start = end + 1;
  }
}

}  // namespace

void TextScrubber::addToken(std::string_view token) {
  token = trim(token);
  // One- or two-letter words ("Li", "Al") would mostly hit ordinary words in descriptions; such
  // names still go from the attributes that hold them, only not from free text.
  if (token.size() < 3) {
    return;
  }
  std::string t(token);
  std::transform(t.begin(), t.end(), t.begin(), lower);
  if (std::find(tokens_.begin(), tokens_.end(), t) == tokens_.end()) {
    // Longest first, so that a full name goes before its parts could leave pieces of it behind.
    const auto at = std::find_if(tokens_.begin(), tokens_.end(),
                                 [&](const std::string& other) { return other.size() < t.size(); });
    tokens_.insert(at, std::move(t));
  }
}

void TextScrubber::addValue(std::string_view value) {
  split(value, "\\", [&](std::string_view v) { addToken(v); });
}

void TextScrubber::addPersonName(std::string_view name) {
  split(name, "\\", [&](std::string_view one) {
    split(one, "=", [&](std::string_view group) {
      std::string spaced(trim(group));
      std::replace(spaced.begin(), spaced.end(), '^', ' ');
      addToken(spaced);
      split(group, "^ ,", [&](std::string_view word) { addToken(word); });
    });
  });
}

void TextScrubber::addDate(std::string_view date) {
  date = trim(date);
  if (date.size() != 8) {
    return;
  }
  const std::string y(date.substr(0, 4)), m(date.substr(4, 2)), d(date.substr(6, 2));
  for (const std::string& form :
       {y + m + d, y + "-" + m + "-" + d, y + "/" + m + "/" + d, d + "/" + m + "/" + y,
        m + "/" + d + "/" + y, d + "." + m + "." + y, d + "-" + m + "-" + y}) {
    addToken(form);
  }
}

std::string TextScrubber::clean(std::string_view text) const {
  std::string out(text);
  for (const std::string& token : tokens_) {
    std::string folded(out);
    std::transform(folded.begin(), folded.end(), folded.begin(), lower);
    std::string next;
    std::size_t from = 0;
    for (std::size_t at = folded.find(token); at != std::string::npos;
         at = folded.find(token, at + 1)) {
      const bool startsWord = at == 0 || !isWordChar(folded[at - 1]) || !isWordChar(token.front());
      const std::size_t end = at + token.size();
      const bool endsWord =
          end == folded.size() || !isWordChar(folded[end]) || !isWordChar(token.back());
      if (at >= from && startsWord && endsWord) {
        next.append(out, from, at - from);
        next += kReplacement;
        from = end;
      }
    }
    if (from > 0) {
      next.append(out, from, std::string::npos);
      out = std::move(next);
    }
  }
  return out;
}

}  // namespace delineate::core::deid
