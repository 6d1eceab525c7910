#include "core/report/SrCodes.h"

namespace delineate::core::report::sr {

// ---- Codes (sources in the comments; DCM = PS3.16 Annex D, SCT = SNOMED CT as used by the
// DICOM templates named) ----

DSRCodedEntryValue code(const std::string& value, const std::string& scheme,
                        const std::string& meaning) {
  return DSRCodedEntryValue(value.c_str(), scheme.c_str(), meaning.c_str(), DSRTypes::CVT_auto,
                            OFExplicitBool(OFFalse));
}

// TID 1500
const DSRCodedEntryValue kReportTitle() {
  return code("126000", "DCM", "Imaging Measurement Report");
}
const DSRCodedEntryValue kLanguage() {
  return code("121049", "DCM", "Language of Content Item and Descendants");
}
const DSRCodedEntryValue kEnglishUs() {
  return code("en-US", "RFC5646", "English (United States)");
}
const DSRCodedEntryValue kProcedureReported() {
  return code("121058", "DCM", "Procedure reported");
}
const DSRCodedEntryValue kImageLibrary() {
  return code("111028", "DCM", "Image Library");
}
const DSRCodedEntryValue kImageLibraryGroup() {
  return code("126200", "DCM", "Image Library Group");
}
const DSRCodedEntryValue kImagingMeasurements() {
  return code("126010", "DCM", "Imaging Measurements");
}
const DSRCodedEntryValue kQualitativeEvaluations() {
  return code("C0034375", "UMLS", "Qualitative Evaluations");
}
// TID 1002 / 1003 / 1004 observer context
const DSRCodedEntryValue kObserverType() {
  return code("121005", "DCM", "Observer Type");
}
const DSRCodedEntryValue kPerson() {
  return code("121006", "DCM", "Person");
}
const DSRCodedEntryValue kDevice() {
  return code("121007", "DCM", "Device");
}
const DSRCodedEntryValue kPersonObserverName() {
  return code("121008", "DCM", "Person Observer Name");
}
const DSRCodedEntryValue kDeviceObserverUid() {
  return code("121012", "DCM", "Device Observer UID");
}
const DSRCodedEntryValue kDeviceObserverName() {
  return code("121013", "DCM", "Device Observer Name");
}
// TID 1411 / 1419
const DSRCodedEntryValue kMeasurementGroup() {
  return code("125007", "DCM", "Measurement Group");
}
const DSRCodedEntryValue kTrackingId() {
  return code("112039", "DCM", "Tracking Identifier");
}
const DSRCodedEntryValue kTrackingUid() {
  return code("112040", "DCM", "Tracking Unique Identifier");
}
const DSRCodedEntryValue kFindingCategory() {
  return code("276214006", "SCT", "Finding category");
}
const DSRCodedEntryValue kFinding() {
  return code("121071", "DCM", "Finding");
}
const DSRCodedEntryValue kReferencedSegment() {
  return code("121191", "DCM", "Referenced Segment");
}
const DSRCodedEntryValue kSourceSeriesForSegmentation() {
  return code("121232", "DCM", "Source series for segmentation");
}
const DSRCodedEntryValue kSourceOfMeasurement() {
  return code("121112", "DCM", "Source of Measurement");
}
const DSRCodedEntryValue kTissue() {
  return code("85756007", "SCT", "Tissue");
}
const DSRCodedEntryValue kVolume() {
  return code("118565006", "SCT", "Volume");
}
const DSRCodedEntryValue kDiameter() {
  return code("81827009", "SCT", "Diameter");
}
const DSRCodedEntryValue kDerivation() {
  return code("121401", "DCM", "Derivation");
}
const DSRCodedEntryValue kMean() {
  return code("373098007", "SCT", "Mean");
}
const DSRCodedEntryValue kStandardDeviation() {
  return code("386136009", "SCT", "Standard Deviation");
}
const DSRCodedEntryValue kMaximum() {
  return code("56851009", "SCT", "Maximum");
}
// Qualitative evaluations
const DSRCodedEntryValue kImpression() {
  return code("121073", "DCM", "Impression");
}
const DSRCodedEntryValue kRecommendation() {
  return code("121075", "DCM", "Recommendation");
}
const DSRCodedEntryValue kComment() {
  return code("121106", "DCM", "Comment");
}
// UCUM units
const DSRCodedEntryValue kMilliliter() {
  return code("ml", "UCUM", "milliliter");
}
const DSRCodedEntryValue kMillimeter() {
  return code("mm", "UCUM", "millimeter");
}

// The intensity measured inside a segment, by modality: CT attenuation in HU (TID 1419 / dcmqi
// use 112031 with a Derivation modifier), MR signal intensity, else a unitless intensity.
std::pair<DSRCodedEntryValue, DSRCodedEntryValue> intensityConcept(const std::string& modality) {
  if (modality == "CT") {
    return {code("112031", "DCM", "Attenuation Coefficient"),
            code("[hnsf'U]", "UCUM", "Hounsfield unit")};
  }
  if (modality == "MR") {
    return {code("110852", "DCM", "MR signal intensity"), code("1", "UCUM", "no units")};
  }
  return {code("110852", "DCM", "MR signal intensity"), code("1", "UCUM", "no units")};
}

// CID 100 "Quantitative Diagnostic Imaging Procedures".
DSRCodedEntryValue procedureFor(const std::string& modality) {
  if (modality == "CT") {
    return code("77477000", "SCT", "CT");
  }
  if (modality == "MR") {
    return code("113091000", "SCT", "MRI");
  }
  return code("363679005", "SCT", "Imaging procedure");
}

bool same(const DSRCodedEntryValue& a, const DSRCodedEntryValue& b) {
  return a.getCodeValue() == b.getCodeValue() &&
         a.getCodingSchemeDesignator() == b.getCodingSchemeDesignator();
}

CodedConcept conceptOf(const DSRCodedEntryValue& c) {
  return {c.getCodeValue().c_str(), c.getCodingSchemeDesignator().c_str(),
          c.getCodeMeaning().c_str()};
}

DSRCodedEntryValue orTissue(const CodedConcept& c) {
  return c.empty() ? kTissue() : code(c.value, c.scheme, c.meaning);
}

}  // namespace delineate::core::report::sr
