// Any DICOM SR as a plain display tree (SrDocument.h).
#include "core/report/SrDocument.h"
#include "core/Text.h"

#include <dcmtk/config/osconfig.h>  // must come first
#include <dcmtk/dcmdata/dcuid.h>
#include <dcmtk/dcmsr/dsrdoc.h>
#include <dcmtk/dcmsr/dsrreftn.h>

#include <cctype>
#include <map>

#include "core/Error.h"
#include "core/io/DicomWriterAttributes.h"
#include "core/report/MammoSrCodes.h"
#include "core/report/SrContentTree.h"

namespace delineate::core::report {

namespace fs = std::filesystem;

namespace {

using namespace sr;

// DCMTK's names of enumerated values are null for values it does not know.
std::string nameOr(const char* name, const char* fallback) {
  return name ? name : fallback;
}

CodedConcept conceptOrEmpty(const DSRCodedEntryValue& c) {
  return c.getCodeValue().empty() ? CodedConcept{} : conceptOf(c);
}

// "093000.5" -> "09:30:00.5"; "0930" -> "09:30".
std::string dicomTime(const std::string& tm) {
  std::size_t digits = 0;
  while (digits < tm.size() && digits < 6 && std::isdigit(static_cast<unsigned char>(tm[digits]))) {
    ++digits;
  }
  if (digits < 4 || digits % 2 != 0) {
    return tm;
  }
  std::string out = tm.substr(0, 2);
  for (std::size_t k = 2; k < digits; k += 2) {
    out += ":" + tm.substr(k, 2);
  }
  return out + tm.substr(digits);
}

std::string referenceText(const std::string& sopClass, const std::string& sopInstance) {
  const char* name = dcmFindNameOfUID(sopClass.c_str());
  return std::string(name ? name : sopClass) + " " + sopInstance;
}

// Reads the current item of `tree` and its descendants; counts the items of each value type
// that the display only shows as text.
class TreeReader {
 public:
  explicit TreeReader(DSRDocumentTree& tree) : tree_(tree) {}

  SrNode read() {
    SrNode n = current();
    ++count_;
    if (tree_.goDown() > 0) {
      do {
        n.children.push_back(read());
      } while (tree_.gotoNext() > 0);
      tree_.goUp();
    }
    return n;
  }

  std::size_t count() const { return count_; }

  std::vector<std::string> notShown() const {
    std::vector<std::string> lines;
    for (const auto& [type, n] : asText_) {
      lines.push_back(std::to_string(n) + (n == 1 ? " item" : " items") + " of value type " + type +
                      " shown as text");
    }
    if (references_ > 0) {
      lines.push_back(std::to_string(references_) + " by-reference relationship" +
                      (references_ == 1 ? "" : "s") +
                      " shown as a reference to the content item's position");
    }
    return lines;
  }

 private:
  SrNode current() {
    const DSRContentItem& item = tree_.getCurrentContentItem();
    SrNode n;
    const DSRTypes::E_RelationshipType relation = item.getRelationshipType();
    n.relationship = relation == DSRTypes::RT_isRoot
                         ? ""
                         : nameOr(DSRTypes::relationshipTypeToDefinedTerm(relation), "UNKNOWN");
    const DSRTypes::E_ValueType type = item.getValueType();
    n.valueType = type == DSRTypes::VT_byReference
                      ? "BY REFERENCE"
                      : nameOr(DSRTypes::valueTypeToDefinedTerm(type), "UNKNOWN");
    n.name = conceptOrEmpty(item.getConceptName());
    switch (type) {
      case DSRTypes::VT_Text:
      case DSRTypes::VT_UIDRef:
      case DSRTypes::VT_PName:
      case DSRTypes::VT_DateTime:
        n.value = item.getStringValue().c_str();
        break;
      case DSRTypes::VT_Date:
        n.value = core::isoDateOfDicom(item.getStringValue().c_str());
        break;
      case DSRTypes::VT_Time:
        n.value = dicomTime(item.getStringValue().c_str());
        break;
      case DSRTypes::VT_Code:
        n.code = conceptOf(item.getCodeValue());
        n.value = n.code->meaning;
        break;
      case DSRTypes::VT_Num: {
        const DSRNumericMeasurementValue& num = item.getNumericValue();
        if (!num.isEmpty()) {
          n.number = numberOf(num);
          n.unit = conceptOf(num.getMeasurementUnit());
          n.value = decimalString(*n.number) + " " + n.unit.value;
        }
        break;
      }
      case DSRTypes::VT_Image:
      case DSRTypes::VT_Composite: {
        const DSRCompositeReferenceValue& ref =
            type == DSRTypes::VT_Image
                ? static_cast<const DSRCompositeReferenceValue&>(item.getImageReference())
                : item.getCompositeReference();
        n.referencedSopInstanceUid = ref.getSOPInstanceUID().c_str();
        n.value = referenceText(ref.getSOPClassUID().c_str(), n.referencedSopInstanceUid);
        break;
      }
      case DSRTypes::VT_Waveform: {
        const DSRWaveformReferenceValue& ref = item.getWaveformReference();
        n.referencedSopInstanceUid = ref.getSOPInstanceUID().c_str();
        n.value = referenceText(ref.getSOPClassUID().c_str(), n.referencedSopInstanceUid);
        ++asText_[n.valueType];
        break;
      }
      case DSRTypes::VT_SCoord: {
        DSRSpatialCoordinatesValue s = item.getSpatialCoordinates();
        n.value = nameOr(DSRTypes::graphicTypeToEnumeratedValue(s.getGraphicType()), "?") + " (" +
                  std::to_string(s.getGraphicDataList().getNumberOfItems()) + " points)";
        ++asText_[n.valueType];
        break;
      }
      case DSRTypes::VT_SCoord3D: {
        DSRSpatialCoordinates3DValue s = item.getSpatialCoordinates3D();
        n.value = nameOr(DSRTypes::graphicType3DToEnumeratedValue(s.getGraphicType()), "?") + " (" +
                  std::to_string(s.getGraphicDataList().getNumberOfItems()) +
                  " points), frame of reference " + s.getFrameOfReferenceUID().c_str();
        ++asText_[n.valueType];
        break;
      }
      case DSRTypes::VT_TCoord: {
        const DSRTemporalCoordinatesValue& t = item.getTemporalCoordinates();
        n.value =
            nameOr(DSRTypes::temporalRangeTypeToEnumeratedValue(t.getTemporalRangeType()), "?");
        ++asText_[n.valueType];
        break;
      }
      case DSRTypes::VT_byReference: {
        const auto* ref = dynamic_cast<const DSRByReferenceTreeNode*>(tree_.getCurrentNode());
        n.value = std::string("see content item ") +
                  (ref ? ref->getReferencedContentItem().c_str() : "elsewhere in the tree");
        ++references_;
        break;
      }
      case DSRTypes::VT_Container:
        break;
      default:
        n.value = "(value not read)";
        ++asText_[n.valueType];
        break;
    }
    return n;
  }

  DSRDocumentTree& tree_;
  std::size_t count_ = 0;
  std::map<std::string, std::size_t> asText_;
  std::size_t references_ = 0;
};

std::string getString(OFCondition (DSRDocument::*get)(OFString&, const signed long) const,
                      const DSRDocument& doc) {
  OFString value;
  (doc.*get)(value, 0);
  return value.c_str();
}

// The person observer, else the device observer, named in the root's observation context.
std::string contextObserver(const SrNode& root) {
  std::string device;
  for (const SrNode& c : root.children) {
    if (c.relationship != "HAS OBS CONTEXT") {
      continue;
    }
    if (c.name.value == "121008" && c.name.scheme == "DCM") {
      return c.value;
    }
    if (c.name.value == "121013" && c.name.scheme == "DCM") {
      device = c.value;
    }
  }
  return device;
}

SrKind kindOf(const SrDocument& d) {
  if (d.manufacturer != "Delineate") {
    return SrKind::Foreign;
  }
  const auto is = [&](const DSRCodedEntryValue& title) {
    return d.titleCode.value == title.getCodeValue().c_str() &&
           d.titleCode.scheme == title.getCodingSchemeDesignator().c_str();
  };
  if (is(kReportTitle())) {
    return SrKind::OurMeasurementReport;
  }
  if (is(kBreastImagingReport())) {
    return SrKind::OurMammographyReport;
  }
  return SrKind::Foreign;
}

}  // namespace

const char* toString(SrKind kind) {
  switch (kind) {
    case SrKind::OurMeasurementReport:
      return "measurement report";
    case SrKind::OurMammographyReport:
      return "mammography report";
    case SrKind::Foreign:
      return "foreign";
  }
  return "?";
}

SrDocument readSrDocument(const fs::path& path) {
  const std::string where = path.string();
  DSRDocument doc;
  loadSrDocument(path, doc);

  SrDocument d;
  d.sopClassUid = getString(&DSRDocument::getSOPClassUID, doc);
  const char* className = dcmFindNameOfUID(d.sopClassUid.c_str());
  d.sopClassName = className ? className : d.sopClassUid;
  d.sopInstanceUid = getString(&DSRDocument::getSOPInstanceUID, doc);
  d.manufacturer = getString(&DSRDocument::getManufacturer, doc);
  d.patientName = getString(&DSRDocument::getPatientName, doc);
  d.studyInstanceUid = getString(&DSRDocument::getStudyInstanceUID, doc);
  d.complete = doc.getCompletionFlag() == DSRTypes::CF_Complete;
  d.verified = doc.getVerificationFlag() == DSRTypes::VF_Verified;

  DSRDocumentTree& tree = doc.getTree();
  if (tree.gotoRoot() == 0) {
    throw Error(ErrorKind::InvalidInput, where, "the structured report has no content");
  }
  TreeReader reader(tree);
  d.root = reader.read();
  d.itemCount = reader.count();
  d.notShown = reader.notShown();
  d.titleCode = d.root.name;
  d.title = d.root.name.meaning;

  if (d.verified && doc.getNumberOfVerifyingObservers() > 0) {
    OFString dateTime, name, organization;
    if (doc.getVerifyingObserver(1, dateTime, name, organization).good()) {
      d.observer = name.c_str();
      d.verificationDateTime = dateTime.c_str();
    }
  }
  if (d.observer.empty()) {
    d.observer = contextObserver(d.root);
  }
  d.kind = kindOf(d);
  return d;
}

}  // namespace delineate::core::report
