#pragma once
// What a mammography report SR holds, as plain values without provenance: the values of a
// MammographyReport's content, AI origin and sign-off (MammographySrValues), and what the reader
// also finds in the document (UIDs, completion and verification, the image library and the image
// each finding's CAD mark is on). mammographySrValues() gives the values a report writes, so that
// a read-back SR can be compared with the report it came from.
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "core/mammo/MammoView.h"
#include "core/report/BiRads.h"
#include "core/report/MammographyReport.h"
#include "core/report/ReportSignOff.h"
#include "core/report/ReportSubject.h"

namespace delineate::core::report {

struct MammoSrFinding {
  int id = 0;  // "F<id>" in the SR
  std::optional<FindingKind> kind;
  std::string description;
  std::optional<mammo::Laterality> laterality;
  std::optional<int> clockPosition;
  std::optional<Depth> depth;
  std::optional<double> sizeMm;
  std::optional<MassShape> massShape;
  std::optional<MassMargin> massMargin;
  std::optional<MassDensity> massDensity;
  std::optional<CalcificationMorphology> calcificationMorphology;
  std::optional<CalcificationDistribution> calcificationDistribution;
  std::optional<double> aiScore;
  bool operator==(const MammoSrFinding&) const = default;
};

struct MammographySrValues {
  std::optional<BreastComposition> composition;
  std::vector<MammoSrFinding> findings;
  std::optional<AssessmentCategory> assessmentRight;
  std::optional<AssessmentCategory> assessmentLeft;
  std::optional<AssessmentCategory> assessmentOverall;
  std::string management;  // "" when none
  std::string impression;
  std::optional<AiOrigin> aiOrigin;
  std::optional<Signature> signature;
  std::vector<Addendum> addenda;
  bool operator==(const MammographySrValues&) const = default;
};

struct MammographySrContent {
  std::string sopInstanceUid;
  ReportSubject subject;                      // patient and study as the SR names them
  bool complete = false;                      // Completion Flag COMPLETE (else PARTIAL)
  bool verified = false;                      // Verification Flag VERIFIED (else UNVERIFIED)
  std::string verificationDateTime;           // DICOM DT
  std::vector<std::string> referencedImages;  // SOP Instance UIDs of the image library
  std::map<int, std::string> findingImages;   // finding id -> SOP Instance UID of its CAD mark
  MammographySrValues values;
};

// The values `report` writes: its content's values, AI origin, signature and addenda. Signer and
// addendum names as a DICOM person name holds them (no backslash, at most 64 characters), times
// as a DICOM DT holds them (to the second; "2024-05-02T09:30:00.5Z" -> "2024-05-02T09:30:00Z").
MammographySrValues mammographySrValues(const MammographyReport& report);

}  // namespace delineate::core::report
