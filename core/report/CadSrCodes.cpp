// The Mammography CAD SR's codes (CadSrCodes.h). DCM code values and meanings as DCMTK 3.6.7
// defines them (dcmsr/codes/dcm.h); SNOMED CT codes from the context group named at each table.
#include "core/report/CadSrCodes.h"

#include <algorithm>
#include <cctype>

namespace delineate::core::report::sr {

const DSRCodedEntryValue kMammographyCadReport() {
  return code("111036", "DCM", "Mammography CAD Report");
}
const DSRCodedEntryValue kCadSummary() {
  return code("111017", "DCM", "CAD Processing and Findings Summary");
}
const DSRCodedEntryValue kIndividualImpression() {
  return code("111034", "DCM", "Individual Impression/Recommendation");
}
const DSRCodedEntryValue kRenderingIntent() {
  return code("111056", "DCM", "Rendering Intent");
}
const DSRCodedEntryValue kSingleImageFinding() {
  return code("111059", "DCM", "Single Image Finding");
}
const DSRCodedEntryValue kCompositeFeature() {
  return code("111015", "DCM", "Composite Feature");
}
const DSRCodedEntryValue kCertaintyOfFeature() {
  return code("111011", "DCM", "Certainty of Feature");
}
const DSRCodedEntryValue kAlgorithmVersion() {
  return code("111003", "DCM", "Algorithm Version");
}
const DSRCodedEntryValue kCenter() {
  return code("111010", "DCM", "Center");
}
const DSRCodedEntryValue kOutline() {
  return code("111041", "DCM", "Outline");
}
const DSRCodedEntryValue kImpressionDescription() {
  return code("111033", "DCM", "Impression Description");
}
const DSRCodedEntryValue kSelectedRegionDescription() {
  return code("111058", "DCM", "Selected Region Description");
}
const DSRCodedEntryValue kSummaryOfDetections() {
  return code("111064", "DCM", "Summary of Detections");
}
const DSRCodedEntryValue kSummaryOfAnalyses() {
  return code("111065", "DCM", "Summary of Analyses");
}
const DSRCodedEntryValue kSuccessfulDetections() {
  return code("111063", "DCM", "Successful Detections");
}
const DSRCodedEntryValue kFailedDetections() {
  return code("111025", "DCM", "Failed Detections");
}
const DSRCodedEntryValue kFailedAnalyses() {
  return code("111024", "DCM", "Failed Analyses");
}
const DSRCodedEntryValue kDetectionPerformed() {
  return code("111022", "DCM", "Detection Performed");
}
const DSRCodedEntryValue kImageLaterality() {
  return code("111027", "DCM", "Image Laterality");
}
const DSRCodedEntryValue kImageView() {
  return code("111031", "DCM", "Image View");
}
const DSRCodedEntryValue kPatientOrientationRow() {
  return code("111044", "DCM", "Patient Orientation Row");
}
const DSRCodedEntryValue kPatientOrientationColumn() {
  return code("111043", "DCM", "Patient Orientation Column");
}
const DSRCodedEntryValue kStudyDateConcept() {
  return code("111060", "DCM", "Study Date");
}
const DSRCodedEntryValue kStudyTimeConcept() {
  return code("111061", "DCM", "Study Time");
}
const DSRCodedEntryValue kHorizontalPixelSpacing() {
  return code("111026", "DCM", "Horizontal Pixel Spacing");
}
const DSRCodedEntryValue kVerticalPixelSpacing() {
  return code("111066", "DCM", "Vertical Pixel Spacing");
}

const DSRCodedEntryValue kPercent() {
  return code("%", "UCUM", "Percent");
}
const DSRCodedEntryValue kSucceeded() {
  return code("111222", "DCM", "Succeeded");
}
const DSRCodedEntryValue kNotAttempted() {
  return code("111225", "DCM", "Not Attempted");
}
const DSRCodedEntryValue kAllSucceeded(bool withFindings) {
  return withFindings ? code("111242", "DCM", "All algorithms succeeded; with findings")
                      : code("111241", "DCM", "All algorithms succeeded; without findings");
}
// CID 6022 "Side".
const DSRCodedEntryValue kRightBreast() {
  return code("73056007", "SCT", "Right breast");
}
const DSRCodedEntryValue kLeftBreast() {
  return code("80248007", "SCT", "Left breast");
}
const DSRCodedEntryValue kSelectedRegion() {
  return code("111099", "DCM", "Selected region");
}

namespace {

// CID 6034 "CAD Output Intended Use".
struct IntentCode {
  mammo::RenderingIntent intent;
  const char* value;
  const char* meaning;
};
constexpr IntentCode kIntents[] = {
    {mammo::RenderingIntent::Required, "111150",
     "Presentation Required: Rendering device is expected to present"},
    {mammo::RenderingIntent::Optional, "111151",
     "Presentation Optional: Rendering device may present"},
    {mammo::RenderingIntent::NotForPresentation, "111152",
     "Not for Presentation: Rendering device expected not to present"},
};

// Mark kinds and their finding codes: CID 6014 "Mammography Single Image Finding" (the first
// code of each kind is written), CID 6017 composite features, legacy SNOMED-RT equivalents.
struct KindCode {
  const char* kind;
  const char* value;
  const char* scheme;
  const char* meaning;
};
constexpr KindCode kKinds[] = {
    // A single-view mass candidate is a "density" in the CAD template's vocabulary.
    {"mass", "129793001", "SCT", "Mammography breast density"},
    {"calcification", "129769006", "SCT", "Calcification Cluster"},
    {"individual calcification", "129770007", "SCT", "Individual Calcification"},
    {"architectural distortion", "129792006", "SCT", "Architectural distortion of breast"},
    // CID 6017 (composite features); CID 6014 is extensible, so a single view may carry it.
    {"asymmetry", "129790003", "SCT", "Asymmetric breast tissue"},
    {"asymmetry", "129789007", "SCT", "Focal asymmetric breast tissue"},
    {"mass", "129788004", "SCT", "Mammographic breast mass"},
    {"mass with calcifications", "111459", "DCM", "Mass with calcifications"},
    {"mass", "F-01796", "SRT", "Mammography breast density"},
    {"calcification", "F-01775", "SRT", "Calcification Cluster"},
    {"individual calcification", "F-01776", "SRT", "Individual Calcification"},
    {"architectural distortion", "F-01795", "SRT", "Architectural distortion of breast"},
};

// Findings that are not marks on the image.
constexpr const char* kNotMarks[][2] = {
    {"129715009", "SCT"}, {"F-01710", "SRT"},  // breast composition
    {"111100", "DCM"},                         // breast geometry
    {"111101", "DCM"},                         // image quality
    {"111102", "DCM"},                         // non-lesion
};

bool is(const DSRCodedEntryValue& c, const char* value, const char* scheme) {
  return c.getCodeValue() == value && c.getCodingSchemeDesignator() == scheme;
}

}  // namespace

DSRCodedEntryValue codeOf(mammo::RenderingIntent intent) {
  for (const IntentCode& c : kIntents) {
    if (c.intent == intent) {
      return code(c.value, "DCM", c.meaning);
    }
  }
  return code(kIntents[0].value, "DCM", kIntents[0].meaning);
}

std::optional<mammo::RenderingIntent> renderingIntentOf(const DSRCodedEntryValue& c) {
  for (const IntentCode& i : kIntents) {
    if (is(c, i.value, "DCM")) {
      return i.intent;
    }
  }
  return std::nullopt;
}

std::optional<DSRCodedEntryValue> findingCodeOf(const std::string& kind) {
  for (const KindCode& k : kKinds) {
    if (kind == k.kind) {
      return code(k.value, k.scheme, k.meaning);
    }
  }
  return std::nullopt;
}

std::optional<std::string> markKindOf(const DSRCodedEntryValue& c) {
  for (const KindCode& k : kKinds) {
    if (is(c, k.value, k.scheme)) {
      return std::string(k.kind);
    }
  }
  for (const auto& n : kNotMarks) {
    if (is(c, n[0], n[1])) {
      return std::nullopt;
    }
  }
  std::string meaning = c.getCodeMeaning().c_str();
  std::transform(meaning.begin(), meaning.end(), meaning.begin(),
                 [](unsigned char ch) { return static_cast<char>(std::tolower(ch)); });
  return meaning.empty() ? std::string("finding") : meaning;
}

}  // namespace delineate::core::report::sr
