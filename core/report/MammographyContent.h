#pragma once
// What a BI-RADS mammography report says: breast composition, findings (kind, location, size,
// descriptors, the CAD mark or segment they were computed from), the assessment category per
// breast and overall, management and impression. Every field carries its provenance (ReportField).
// Location and size are computed from the linked object (BreastLocation), not typed.
#include <optional>
#include <string>
#include <vector>

#include "core/mammo/MammoView.h"
#include "core/report/BiRads.h"
#include "core/report/FieldListing.h"
#include "core/report/ReportField.h"
#include "core/report/ReportLink.h"

namespace delineate::core::report {

struct MammoFinding {
  int id = 0;  // stable within the report; named "F<id>" in field paths and messages
  ReportField<FindingKind> kind;
  ReportField<std::string> description;  // free text; for kind Other, what the finding is
  ReportField<mammo::Laterality> laterality;
  ReportField<int> clockPosition;  // 1..12, see BreastLocation.h for the convention
  ReportField<Depth> depth;
  ReportField<double> sizeMm;  // largest extent
  ReportField<MassShape> massShape;
  ReportField<MassMargin> massMargin;
  ReportField<MassDensity> massDensity;
  ReportField<CalcificationMorphology> calcificationMorphology;
  ReportField<CalcificationDistribution> calcificationDistribution;
  ReportLink link;
  mammo::ViewCode view = mammo::ViewCode::Unknown;  // the view the linked mark is on
  std::optional<double> aiScore;                    // the CAD mark's score
  // The same lesion seen in the other view of the breast (a CC and an MLO finding stay two
  // findings): that finding's id, 0 for none.
  int otherViewFinding = 0;
  bool operator==(const MammoFinding&) const = default;
};

struct MammographyContent {
  ReportField<BreastComposition> composition;
  std::vector<MammoFinding> findings;
  ReportField<AssessmentCategory> assessmentRight;
  ReportField<AssessmentCategory> assessmentLeft;
  ReportField<AssessmentCategory> assessmentOverall;
  ReportField<std::string> management;  // management / recommendation
  ReportField<std::string> impression;
  bool operator==(const MammographyContent&) const = default;

  MammoFinding* finding(int id);
  // Appends a finding with the next free id and returns it.
  MammoFinding& addFinding();
  bool removeFinding(int id);
};

// "F3"
std::string findingName(int id);

// Calls f(key, field) for each field of a finding (MammoFinding or const MammoFinding), in
// listing and file order; the key is also the field path's last part.
template <class Finding, class F>
void eachFindingField(Finding& x, F&& f) {
  f("kind", x.kind);
  f("description", x.description);
  f("laterality", x.laterality);
  f("clockPosition", x.clockPosition);
  f("depth", x.depth);
  f("sizeMm", x.sizeMm);
  f("massShape", x.massShape);
  f("massMargin", x.massMargin);
  f("massDensity", x.massDensity);
  f("calcificationMorphology", x.calcificationMorphology);
  f("calcificationDistribution", x.calcificationDistribution);
}

// Every field by path: "composition", "assessment/right", "assessment/left",
// "assessment/overall", "management", "impression", "findings/F<id>/<field>" (kind, description,
// laterality, clockPosition, depth, sizeMm, massShape, massMargin, massDensity,
// calcificationMorphology, calcificationDistribution, link).
FieldListing listFields(const MammographyContent& content);

// What signing needs and lacks: "breast composition", "assessment category" (overall), each
// finding without a kind or laterality ("finding F2: kind"), "management", and every field still
// holding an unreviewed AI proposal ("finding F1: clockPosition (AI proposal not reviewed)").
std::vector<std::string> missingForSignature(const MammographyContent& content);

// Accepts every AI proposal unchanged (the reader's explicit "accept all").
void acceptAllProposals(MammographyContent& content);

}  // namespace delineate::core::report
