// Reads a mammography report SR written by writeMammographyReportSr (tree in
// MammographyReportSr.h) back into plain values.
#include <dcmtk/config/osconfig.h>  // must come first
#include <dcmtk/dcmsr/dsrdoc.h>

#include <cctype>
#include <string>

#include "core/Error.h"
#include "core/io/DicomCondition.h"
#include "core/report/MammoSrCodes.h"
#include "core/report/MammographyReportSr.h"
#include "core/report/SrContentTree.h"

namespace delineate::core::report {

namespace fs = std::filesystem;

namespace {

using namespace sr;

// "F12" -> 12; 0 when not of that form.
int findingId(const std::string& name) {
  if (name.size() < 2 || name[0] != 'F' || name.size() > 10) {
    return 0;
  }
  for (std::size_t i = 1; i < name.size(); ++i) {
    if (!std::isdigit(static_cast<unsigned char>(name[i]))) {
      return 0;
    }
  }
  return std::stoi(name.substr(1));
}

MammoSrFinding readFinding(const Node& n, std::string& image) {
  MammoSrFinding f;
  for (const Node& c : n.children) {
    if (same(c.name, kTrackingId())) {
      f.id = findingId(c.text);
    } else if (same(c.name, kLaterality())) {
      f.laterality = valueOf<mammo::Laterality>(c.code);
    } else if (same(c.name, kFinding())) {
      if (c.type == DSRTypes::VT_Code) {
        f.kind = valueOf<FindingKind>(c.code);
      } else if (c.text == kOtherFinding) {
        f.kind = FindingKind::Other;
      }
    } else if (same(c.name, kComment())) {
      f.description = c.text;
    } else if (same(c.name, kClockfaceOrRegion())) {
      f.clockPosition = valueOf<int>(c.code);
    } else if (same(c.name, kDepth())) {
      f.depth = valueOf<Depth>(c.code);
    } else if (same(c.name, kDiameter()) && c.type == DSRTypes::VT_Num) {
      f.sizeMm = numberOf(c.number);
    } else if (same(c.name, kShape())) {
      f.massShape = valueOf<MassShape>(c.code);
    } else if (same(c.name, kMargins())) {
      f.massMargin = valueOf<MassMargin>(c.code);
    } else if (same(c.name, kLesionDensity())) {
      f.massDensity = valueOf<MassDensity>(c.code);
    } else if (same(c.name, kCalcificationType())) {
      f.calcificationMorphology = valueOf<CalcificationMorphology>(c.code);
    } else if (same(c.name, kCalcificationDistribution())) {
      f.calcificationDistribution = valueOf<CalcificationDistribution>(c.code);
    } else if (same(c.name, kCertaintyOfFinding()) && c.type == DSRTypes::VT_Num) {
      f.aiScore = numberOf(c.number);
    } else if (c.type == DSRTypes::VT_Image) {
      image = c.image.getSOPInstanceUID().c_str();
    }
  }
  return f;
}

void readNarrative(const Node& n, MammographySrValues& v) {
  for (const Node& c : n.children) {
    if (same(c.name, kImpression())) {
      v.impression = c.text;
    } else if (same(c.name, kRecommendation())) {
      v.management = c.text;
    } else if (same(c.name, kComment())) {
      Addendum a;
      a.text = c.text;
      a.signature.time = isoDateTime(c.observationDateTime);
      for (const Node& m : c.children) {
        if (same(m.name, kPersonObserverName())) {
          a.signature.name = m.text;
        }
      }
      v.addenda.push_back(std::move(a));
    }
  }
}

void readSupplementaryData(const Node& n, MammographySrContent& content) {
  MammographySrValues& v = content.values;
  for (const Node& c : n.children) {
    if (same(c.name, kBreastComposition())) {
      v.composition = valueOf<BreastComposition>(c.code);
    } else if (same(c.name, kFinding()) && c.type == DSRTypes::VT_Container) {
      std::string image;
      v.findings.push_back(readFinding(c, image));
      if (v.findings.back().id == 0) {
        v.findings.back().id = static_cast<int>(v.findings.size());
      }
      if (!image.empty()) {
        content.findingImages[v.findings.back().id] = image;
      }
    }
  }
}

void readAssessment(const Node& n, MammographySrValues& v) {
  for (const Node& c : n.children) {
    if (!same(c.name, kAssessmentCategory())) {
      continue;
    }
    std::optional<mammo::Laterality> side;
    for (const Node& m : c.children) {
      if (same(m.name, kLaterality())) {
        side = valueOf<mammo::Laterality>(m.code);
      }
    }
    const auto category = valueOf<AssessmentCategory>(c.code);
    if (!side) {
      v.assessmentOverall = category;
    } else if (*side == mammo::Laterality::Right) {
      v.assessmentRight = category;
    } else {
      v.assessmentLeft = category;
    }
  }
}

AiOrigin readAiOrigin(const Node& n) {
  AiOrigin ai;
  for (const Node& c : n.children) {
    if (same(c.name, kAlgorithmName())) {
      ai.source = c.text;
    } else if (same(c.name, kComment()) && c.text == kDemonstrationComment) {
      ai.demonstration = true;
    } else if (same(c.name, kProbabilityOfCancer()) && c.type == DSRTypes::VT_Num) {
      ai.riskScore = numberOf(c.number);
    }
  }
  return ai;
}

std::string documentText(OFCondition (DSRDocument::*get)(OFString&, const signed long) const,
                         const DSRDocument& doc) {
  OFString value;
  (doc.*get)(value, 0);
  return value.c_str();
}

}  // namespace

MammographySrContent readMammographyReportSr(const fs::path& path) {
  const std::string where = path.string();
  DSRDocument doc;
  loadSrDocument(path, doc);
  DSRDocumentTree& tree = doc.getTree();
  if (tree.gotoRoot() == 0) {
    throw Error(ErrorKind::InvalidInput, where, "the structured report has no content");
  }
  const Node root = readNode(tree);
  if (!same(root.name, kBreastImagingReport())) {
    throw Error(ErrorKind::InvalidInput, where,
                std::string("not a Breast Imaging Report but \"") +
                    root.name.getCodeMeaning().c_str() + "\"");
  }

  MammographySrContent c;
  c.sopInstanceUid = documentText(&DSRDocument::getSOPInstanceUID, doc);
  c.subject.patientName = documentText(&DSRDocument::getPatientName, doc);
  c.subject.patientId = documentText(&DSRDocument::getPatientID, doc);
  c.subject.birthDate = documentText(&DSRDocument::getPatientBirthDate, doc);
  c.subject.studyInstanceUid = documentText(&DSRDocument::getStudyInstanceUID, doc);
  c.subject.accessionNumber = documentText(&DSRDocument::getAccessionNumber, doc);
  c.complete = doc.getCompletionFlag() == DSRTypes::CF_Complete;
  c.verified = doc.getVerificationFlag() == DSRTypes::VF_Verified;
  if (c.verified && doc.getNumberOfVerifyingObservers() > 0) {
    OFString dateTime, name, organization;
    checkDicom(doc.getVerifyingObserver(1, dateTime, name, organization), where,
               "reading the verifying observer");
    c.verificationDateTime = dateTime.c_str();
    c.values.signature = Signature{name.c_str(), isoDateTime(dateTime.c_str())};
  }
  for (const Node& n : root.children) {
    if (same(n.name, kImageLibrary())) {
      for (const Node& i : n.children) {
        if (i.type == DSRTypes::VT_Image) {
          c.referencedImages.push_back(i.image.getSOPInstanceUID().c_str());
        }
      }
    } else if (same(n.name, kNarrativeSummary())) {
      readNarrative(n, c.values);
    } else if (same(n.name, kSupplementaryData())) {
      readSupplementaryData(n, c);
    } else if (same(n.name, kOverallAssessment())) {
      readAssessment(n, c.values);
    } else if (same(n.name, kMammographyCad())) {
      c.values.aiOrigin = readAiOrigin(n);
    }
  }
  return c;
}

}  // namespace delineate::core::report
