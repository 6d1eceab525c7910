#include "core/io/DicomSegSegment.h"

#include <dcmtk/config/osconfig.h>  // must come first
#include <dcmtk/dcmdata/dcdeftag.h>
#include <dcmtk/dcmdata/dcitem.h>
#include <dcmtk/dcmdata/dcsequen.h>
#include <dcmtk/dcmiod/iodmacro.h>
#include <dcmtk/dcmseg/segment.h>

#include <algorithm>
#include <cctype>

#include "core/io/DicomCondition.h"
#include "core/io/DicomLabColor.h"

namespace delineate::core {

namespace {

// At most `limit` bytes, cut on a UTF-8 character boundary; backslashes (DICOM's value
// separator) become slashes in single-valued strings.
std::string limited(std::string text, std::size_t limit, bool singleValue) {
  if (singleValue) {
    std::replace(text.begin(), text.end(), '\\', '/');
  }
  if (text.size() > limit) {
    std::size_t cut = limit;
    while (cut > 0 && (static_cast<unsigned char>(text[cut]) & 0xC0) == 0x80) {
      --cut;
    }
    text.resize(cut);
  }
  return text;
}

void toMacro(const CodedConcept& code, CodeSequenceMacro& macro, const std::string& where,
             const std::string& what) {
  checkDicom(macro.set(code.value.c_str(), limited(code.scheme, 16, true).c_str(),
                       asciiOnly(limited(code.meaning, 64, true)).c_str()),
             where, "setting the " + what + " code " + code.value);
}

CodedConcept fromMacro(CodeSequenceMacro& macro) {
  OFString value, scheme, meaning;
  macro.getCodeValue(value);
  macro.getCodingSchemeDesignator(scheme);
  macro.getCodeMeaning(meaning);
  return {value.c_str(), scheme.c_str(), meaning.c_str()};
}

DcmSegTypes::E_SegmentAlgoType algorithmOf(const std::string& name) {
  std::string upper = name;
  std::transform(upper.begin(), upper.end(), upper.begin(),
                 [](unsigned char c) { return static_cast<char>(std::toupper(c)); });
  if (upper == "AUTOMATIC") {
    return DcmSegTypes::SAT_AUTOMATIC;
  }
  if (upper == "SEMIAUTOMATIC") {
    return DcmSegTypes::SAT_SEMIAUTOMATIC;
  }
  return DcmSegTypes::SAT_MANUAL;
}

}  // namespace

CodedConcept defaultSegmentCode() {
  return {"85756007", "SCT", "Tissue"};
}

std::string asciiOnly(std::string text) {
  for (char& c : text) {
    if (static_cast<unsigned char>(c) >= 0x80) {
      c = '?';
    }
  }
  return text;
}

namespace {

void putMeaning(DcmItem& item, const DcmTagKey& sequence, const CodedConcept& code,
                const std::string& where) {
  DcmItem* codeItem = nullptr;
  if (!code.empty() && item.findAndGetSequenceItem(sequence, codeItem, 0).good() && codeItem) {
    checkDicom(
        codeItem->putAndInsertString(DCM_CodeMeaning, limited(code.meaning, 64, true).c_str()),
        where, "writing a code meaning");
  }
}

}  // namespace

void putSegmentTexts(DcmItem& dataset, const std::vector<Segment>& segments,
                     const std::string& where) {
  for (std::size_t i = 0; i < segments.size(); ++i) {
    DcmItem* item = nullptr;
    checkDicom(
        dataset.findAndGetSequenceItem(DCM_SegmentSequence, item, static_cast<signed long>(i)),
        where, "finding segment " + std::to_string(i + 1));
    const Segment& s = segments[i];
    const std::string name = s.name.empty() ? "Segment " + std::to_string(s.label) : s.name;
    checkDicom(item->putAndInsertString(DCM_SegmentLabel, limited(name, 64, true).c_str()), where,
               "writing a segment label");
    if (!s.description.empty()) {
      checkDicom(item->putAndInsertString(DCM_SegmentDescription,
                                          limited(s.description, 1024, false).c_str()),
                 where, "writing a segment description");
    }
    putMeaning(*item, DCM_SegmentedPropertyCategoryCodeSequence, s.category, where);
    putMeaning(*item, DCM_SegmentedPropertyTypeCodeSequence, s.type, where);
    // The modifier lives in the type's item (PS3.3 C.8.20.2); older writers put it beside.
    DcmItem* type = nullptr;
    if (item->findAndGetSequenceItem(DCM_SegmentedPropertyTypeCodeSequence, type, 0).good() &&
        type) {
      putMeaning(*type, DCM_SegmentedPropertyTypeModifierCodeSequence, s.typeModifier, where);
    }
    putMeaning(*item, DCM_SegmentedPropertyTypeModifierCodeSequence, s.typeModifier, where);
  }
}

bool hasNonAscii(const std::string& text) {
  return std::any_of(text.begin(), text.end(),
                     [](char c) { return static_cast<unsigned char>(c) >= 0x80; });
}

std::unique_ptr<DcmSegment> makeDcmSegment(const Segment& s, const std::string& algorithmName,
                                           const std::string& where) {
  const std::string context = "segment " + std::to_string(s.label) + " \"" + s.name + "\"";
  CodeSequenceMacro category;
  CodeSequenceMacro type;
  toMacro(s.category.empty() ? defaultSegmentCode() : s.category, category, where,
          context + " category");
  toMacro(s.type.empty() ? defaultSegmentCode() : s.type, type, where, context + " type");
  const DcmSegTypes::E_SegmentAlgoType algorithm = algorithmOf(s.algorithmType);
  const std::string name = s.name.empty() ? "Segment " + std::to_string(s.label) : s.name;

  DcmSegment* raw = nullptr;
  checkDicom(
      DcmSegment::create(
          raw, limited(name, 64, true).c_str(), category, type, algorithm,
          algorithm == DcmSegTypes::SAT_MANUAL ? "" : limited(algorithmName, 64, true).c_str()),
      where, "creating " + context);
  std::unique_ptr<DcmSegment> segment(raw);
  if (!s.description.empty()) {
    checkDicom(
        segment->setSegmentDescription(asciiOnly(limited(s.description, 1024, false)).c_str()),
        where, "setting the description of " + context);
  }
  if (!s.typeModifier.empty()) {
    auto modifier = std::make_unique<CodeSequenceMacro>();
    toMacro(s.typeModifier, *modifier, where, context + " type modifier");
    segment->getSegmentedPropertyTypeModifierCode().push_back(modifier.release());
  }
  const DicomLab lab = srgbToDicomLab(s.color);
  checkDicom(segment->setRecommendedDisplayCIELabValue(lab[0], lab[1], lab[2]), where,
             "setting the colour of " + context);
  return segment;
}

Segment segmentFromDcm(DcmSegment& dcm, std::uint16_t label) {
  Segment s;
  s.label = label;
  OFString text;
  if (dcm.getSegmentLabel(text).good()) {
    s.name = text.c_str();
  }
  if (s.name.empty()) {
    s.name = "Segment " + std::to_string(label);
  }
  if (dcm.getSegmentDescription(text).good()) {
    s.description = text.c_str();
  }
  switch (dcm.getSegmentAlgorithmType()) {
    case DcmSegTypes::SAT_AUTOMATIC:
      s.algorithmType = "AUTOMATIC";
      break;
    case DcmSegTypes::SAT_SEMIAUTOMATIC:
      s.algorithmType = "SEMIAUTOMATIC";
      break;
    default:
      s.algorithmType = "MANUAL";
      break;
  }
  s.category = fromMacro(dcm.getSegmentedPropertyCategoryCode());
  s.type = fromMacro(dcm.getSegmentedPropertyTypeCode());
  const auto& modifiers = dcm.getSegmentedPropertyTypeModifierCode();
  if (!modifiers.empty() && modifiers.front() != nullptr) {
    s.typeModifier = fromMacro(*modifiers.front());
  }
  Uint16 l = 0, a = 0, b = 0;
  if (dcm.getRecommendedDisplayCIELabValue(l, a, b).good() && (l != 0 || a != 0 || b != 0)) {
    s.color = dicomLabToSrgb({l, a, b});
  } else {
    Uint16 grey = 0;
    if (dcm.getRecommendedDisplayGrayscaleValue(grey).good()) {
      const auto g = static_cast<std::uint8_t>(grey >> 8);
      s.color = {g, g, g};
    }
  }
  return s;
}

}  // namespace delineate::core
