#pragma once
// Which labels of a reference and a test label map are the same structure. By segment name when
// both maps come with a segment table (so that maps numbering their labels differently still
// pair up), else by label value. The test map is then renumbered onto the reference's values.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "core/model/LabelMap.h"

namespace delineate::core {

struct MatchedLabel {
  std::string name;
  std::uint16_t referenceValue = 0;  // its value in the reference map; 0: not in its scheme
  std::uint16_t testValue = 0;       // its value in the test map; 0: not in its scheme
  std::uint16_t value = 0;  // its value in the compared maps (after renumbering); 0: in neither
};

struct LabelMatching {
  bool byName = false;
  std::vector<MatchedLabel> labels;
  // Differences between the two label schemes, one sentence each (names only in one map, values
  // that differ for one name, names given twice).
  std::vector<std::string> notes;
};

// `referenceHasTable` / `testHasTable`: whether the segment names come from the file (a segment
// JSON, a DICOM SEG) rather than defaults. `wanted`: segment names to keep, in this order (a
// name in neither map is kept with value 0); empty: every segment of either map.
LabelMatching matchLabels(const LabelMap& reference, bool referenceHasTable, const LabelMap& test,
                          bool testHasTable, const std::vector<std::string>& wanted);

// The test map with each matched label's testValue replaced by its value and every other value
// by 0; nullopt when that changes nothing.
std::optional<LabelMap> renumberTest(const LabelMap& test, const LabelMatching& matching);

}  // namespace delineate::core
