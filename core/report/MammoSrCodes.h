#pragma once
// The codes of the mammography report SR (MammographyReportSr.h): concept names of the DICOM
// Breast Imaging Report family (TID 4200) and the BI-RADS lexicon as coded entries, each enum value
// of BiRads.h with its DICOM code. Internal to core/report: only SR writers and readers include
// it. Sources (MammoSrCodes.cpp names each): DCM codes as DCMTK 3.6.7 lists them
// (dcmsr/codes/dcm.h, i.e. PS3.16 Annex D); SCT, NCIt, LN and BI codes as the DICOM context groups
// (PS3.16 CID 244, 6001, 6005, 6007, 6009, 6011, 6013, 6017, 6019, 6025, 6027, 6050, 6054) list
// them. Values with no DICOM code are absent from these tables (FindingKind::Other): the writer
// uses TEXT for them.
#include <optional>
#include <span>

#include "core/mammo/MammoView.h"
#include "core/report/BiRads.h"
#include "core/report/SrCodes.h"

namespace delineate::core::report::sr {

// ---- Concept names ----
const DSRCodedEntryValue kBreastImagingReport();  // document title (TID 4200)
const DSRCodedEntryValue kNarrativeSummary();
const DSRCodedEntryValue kSupplementaryData();
const DSRCodedEntryValue kOverallAssessment();
const DSRCodedEntryValue kAssessmentCategory();
const DSRCodedEntryValue kBreastComposition();
const DSRCodedEntryValue kLaterality();
const DSRCodedEntryValue kClockfaceOrRegion();
const DSRCodedEntryValue kDepth();
const DSRCodedEntryValue kShape();
const DSRCodedEntryValue kMargins();
const DSRCodedEntryValue kLesionDensity();
const DSRCodedEntryValue kCalcificationType();
const DSRCodedEntryValue kCalcificationDistribution();
const DSRCodedEntryValue kCertaintyOfFinding();   // a CAD mark's score, 0..1
const DSRCodedEntryValue kProbabilityOfCancer();  // the AI's case score, 0..1
const DSRCodedEntryValue kMammographyCad();       // heading of the AI origin
const DSRCodedEntryValue kAlgorithmName();
// Values
const DSRCodedEntryValue kBreastFfdMammogram();  // procedure reported (CID 6050)
const DSRCodedEntryValue kNoUnits();             // UCUM "1"

// The TEXT values of what has no code.
inline constexpr const char* kDemonstrationComment = "DEMONSTRATION FINDINGS, NOT A DIAGNOSIS";
inline constexpr const char* kOtherFinding = "Other finding";

// One enum value and its code.
template <class E>
struct CodeEntry {
  E value;
  const char* code;
  const char* scheme;
  const char* meaning;
};

// The table of E (specialised in MammoSrCodes.cpp for the types declared below).
template <class E>
std::span<const CodeEntry<E>> codeEntries();

template <>
std::span<const CodeEntry<BreastComposition>> codeEntries<BreastComposition>();
template <>
std::span<const CodeEntry<FindingKind>> codeEntries<FindingKind>();
template <>
std::span<const CodeEntry<MassShape>> codeEntries<MassShape>();
template <>
std::span<const CodeEntry<MassMargin>> codeEntries<MassMargin>();
template <>
std::span<const CodeEntry<MassDensity>> codeEntries<MassDensity>();
template <>
std::span<const CodeEntry<CalcificationMorphology>> codeEntries<CalcificationMorphology>();
template <>
std::span<const CodeEntry<CalcificationDistribution>> codeEntries<CalcificationDistribution>();
template <>
std::span<const CodeEntry<AssessmentCategory>> codeEntries<AssessmentCategory>();
template <>
std::span<const CodeEntry<Depth>> codeEntries<Depth>();
template <>
std::span<const CodeEntry<mammo::Laterality>> codeEntries<mammo::Laterality>();
// Clock positions 1..12 (CID 6019).
template <>
std::span<const CodeEntry<int>> codeEntries<int>();

// The code of `value`; nullopt for a value without a DICOM code.
template <class E>
std::optional<DSRCodedEntryValue> codeOf(E value) {
  for (const auto& e : codeEntries<E>()) {
    if (e.value == value) {
      return code(e.code, e.scheme, e.meaning);
    }
  }
  return std::nullopt;
}

// The value whose code is `c` (code value and scheme compared); nullopt for another code.
template <class E>
std::optional<E> valueOf(const DSRCodedEntryValue& c) {
  for (const auto& e : codeEntries<E>()) {
    if (c.getCodeValue() == e.code && c.getCodingSchemeDesignator() == e.scheme) {
      return e.value;
    }
  }
  return std::nullopt;
}

}  // namespace delineate::core::report::sr
