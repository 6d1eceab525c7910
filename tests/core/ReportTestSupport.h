#pragma once
// Shared fixtures of the report tests: a left-breast study with the same mass on L CC and L MLO
// (upper outer quadrant), as CAD findings and image facts.
#include <vector>

#include "core/mammo/MammoFindings.h"
#include "core/report/BreastLocation.h"

namespace delineate::test {

// 2000 x 2500 images at 0.1 mm; left breast stored with its chest wall on the left edge, so the
// nipple (by default) is at column 2000, row 1250.
// L CC: mass centred at (1600, 950): 160 of the nipple's 200 mm from the chest wall (0.8:
//       anterior third), 30 mm above the nipple row = lateral on a CC; box 100 x 80 px = 10 mm.
// L MLO: mass at (1550, 1080): 17 mm above the nipple row = superior; box 60 x 60 px = 6 mm.
inline std::vector<delineate::core::report::ImageFacts> leftStudyFacts() {
  using namespace delineate::core;
  std::vector<report::ImageFacts> facts;
  for (const auto& [id, view] :
       {std::pair{"1.2.3.1", mammo::ViewCode::CC}, std::pair{"1.2.3.2", mammo::ViewCode::MLO}}) {
    report::ImageFacts f;
    f.imageId = id;
    f.view.id = id;
    f.view.laterality = mammo::Laterality::Left;
    f.view.view = view;
    f.columns = 2000;
    f.rows = 2500;
    f.spacingMm = 0.1;
    f.chestWall = mammo::ChestWall::Left;
    facts.push_back(f);
  }
  return facts;
}

inline delineate::core::mammo::StudyFindings leftStudyFindings(bool demonstration = true) {
  using namespace delineate::core::mammo;
  StudyFindings f;
  f.source = "Built-in demonstration detector (not a diagnosis)";
  f.demonstration = demonstration;
  f.riskScore = 0.62;
  f.images.push_back({"1.2.3.1", {{"mass", 1600, 950, 1550, 910, 1650, 990, 0.81}}, {}});
  f.images.push_back({"1.2.3.2", {{"mass", 1550, 1080, 1520, 1050, 1580, 1110, 0.74}}, {}});
  return f;
}

}  // namespace delineate::test
