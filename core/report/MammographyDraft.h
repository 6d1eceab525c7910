#pragma once
// An AI result (CAD marks, case risk score) turned into a draft BI-RADS report whose fields are
// AI-proposed, for the reader to accept or edit.
//
// - One finding per CAD mark, linked to it (image id + mark index); its kind from the mark's kind
//   (mass, calcification(s), asymmetry, architectural distortion, else Other with the label as
//   description), laterality from the image, depth and size from BreastLocation. The same lesion
//   seen on the CC and the MLO of a breast stays two findings: a CC and an MLO mark of one breast
//   and kind whose distances from the nipple agree (within 15 mm or 25 %) are taken as one lesion,
//   each names the other (otherViewFinding) and both get the clock position the two views give.
//   A mark seen on one view only gets no clock position (one view cannot tell it).
// - Suggested assessment (screening, so 0 or 1 only): a breast is 0 (recall) when one of its marks
//   scores at least kRecallScore, else 1 when it was imaged; the overall category is 0 when a
//   breast is 0 or the case risk score is at least kRecallScore, else 1 (none without either).
//   Management: BI-RADS's standard text for the category.
// - Breast composition and descriptors are left empty: the AI result does not say them.
// - The impression names the source and score; a demonstration result's impression starts with
//   "DEMONSTRATION FINDINGS, NOT A DIAGNOSIS."
#include <vector>

#include "core/mammo/MammoFindings.h"
#include "core/report/BreastLocation.h"
#include "core/report/MammographyReport.h"

namespace delineate::core::report {

constexpr double kRecallScore = 0.5;
constexpr const char* kDemonstrationNotice = "DEMONSTRATION FINDINGS, NOT A DIAGNOSIS.";

// Marks of images without facts become findings without location. Throws Error(InvalidInput)
// naming the image when its facts have no size or spacing.
MammographyReport draftFromFindings(const mammo::StudyFindings& findings,
                                    const std::vector<ImageFacts>& images);

// The finding kind a CAD mark's kind text names (case-insensitive); Other when none.
FindingKind findingKindOf(const std::string& markKind);

}  // namespace delineate::core::report
