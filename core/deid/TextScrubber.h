#pragma once
// The "clean" of PS3.15 for free text: the identifiers a file itself holds (names, IDs, the birth
// date, institution, UIDs) are taken out of the descriptions and comments that an option keeps.
// It cannot find an identifier that appears only in the text; that limit is why text is removed
// unless an option asks for it to be kept.
#include <string>
#include <string_view>
#include <vector>

namespace delineate::core::deid {

class TextScrubber {
 public:
  static constexpr std::string_view kReplacement = "***";

  // Records a whole identifying value (an ID, an institution name, a UID).
  void addValue(std::string_view value);
  // Records a person name: the whole name and each of its components and words.
  void addPersonName(std::string_view name);
  // Records a DA date ("YYYYMMDD") and the ways it is commonly written in text.
  void addDate(std::string_view date);

  // `text` with every recorded identifier that stands as a whole word (case-insensitive)
  // replaced by kReplacement.
  std::string clean(std::string_view text) const;

  bool empty() const { return tokens_.empty(); }

 private:
  void addToken(std::string_view token);
  std::vector<std::string> tokens_;  // lower case, longest first
};

}  // namespace delineate::core::deid
