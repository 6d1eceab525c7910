// Writes the mammography report as a Comprehensive SR (tree in MammographyReportSr.h).
#include "core/report/MammographyReportSr.h"

#include <dcmtk/config/osconfig.h>  // must come first
#include <dcmtk/dcmsr/dsrdoc.h>

#include <optional>
#include <utility>

#include "core/Error.h"
#include "core/io/DicomCondition.h"
#include "core/io/DicomHeader.h"
#include "core/io/DicomSegSegment.h"
#include "core/io/DicomUid.h"
#include "core/report/MammoSrCodes.h"
#include "core/report/SrContentTree.h"
#include "core/report/SrViewFiles.h"

namespace delineate::core::report {

namespace fs = std::filesystem;

namespace {

using namespace sr;
constexpr auto kContains = DSRTypes::RT_contains;
constexpr auto kConceptMod = DSRTypes::RT_hasConceptMod;
constexpr auto kObsContext = DSRTypes::RT_hasObsContext;

// The view a CAD mark is on: imageId is a SOP Instance UID or a path.
const DicomFileHeader* viewOf(const ReportLink& link, const std::vector<DicomFileHeader>& views) {
  if (link.kind != ReportLink::Kind::CadMark) {
    return nullptr;
  }
  const auto i = viewNamed(link.imageId, views);
  return i ? &views[*i] : nullptr;
}

template <class E>
void addCoded(Item& parent, const DSRCodedEntryValue& name, const std::optional<E>& value) {
  if (value) {
    if (const auto c = codeOf(*value)) {
      parent.add(coded(kContains, name, *c));
    }
  }
}

Item findingItem(const MammoFinding& f, const std::vector<DicomFileHeader>& views) {
  Item item = container(kContains, kFinding());
  item.add(text(kObsContext, kTrackingId(), findingName(f.id)));
  if (const auto& side = f.laterality.value()) {
    if (const auto c = codeOf(*side)) {
      item.add(coded(kConceptMod, kLaterality(), *c));
    }
  }
  if (const auto& kind = f.kind.value()) {
    if (const auto c = codeOf(*kind)) {
      item.add(coded(kContains, kFinding(), *c));
    } else {
      item.add(text(kContains, kFinding(), kOtherFinding));
    }
  }
  if (const auto& d = f.description.value(); d && !d->empty()) {
    item.add(text(kContains, kComment(), *d));
  }
  addCoded(item, kClockfaceOrRegion(), f.clockPosition.value());
  addCoded(item, kDepth(), f.depth.value());
  if (const auto& size = f.sizeMm.value()) {
    item.add(numItem(kDiameter(), *size, kMillimeter(), kMaximum()));
  }
  addCoded(item, kShape(), f.massShape.value());
  addCoded(item, kMargins(), f.massMargin.value());
  addCoded(item, kLesionDensity(), f.massDensity.value());
  addCoded(item, kCalcificationType(), f.calcificationMorphology.value());
  addCoded(item, kCalcificationDistribution(), f.calcificationDistribution.value());
  if (f.aiScore) {
    item.add(numItem(kCertaintyOfFinding(), *f.aiScore, kNoUnits()));
  }
  if (const DicomFileHeader* v = viewOf(f.link, views)) {
    item.add(imageItem(kContains, DSRCodedEntryValue(), v->sopClassUid, v->sopInstanceUid));
  }
  return item;
}

Item assessmentItem(AssessmentCategory category, std::optional<mammo::Laterality> side) {
  Item a = coded(kContains, kAssessmentCategory(), *codeOf(category));
  if (side) {
    a.add(coded(kConceptMod, kLaterality(), *codeOf(*side)));
  }
  return a;
}

Item contentTree(const MammographyReport& report, const std::vector<DicomFileHeader>& views) {
  const MammographyContent& c = report.content();
  const auto& signature = report.signOff().signature();
  Item root = container(DSRTypes::RT_isRoot, kBreastImagingReport());
  root.add(coded(kConceptMod, kLanguage(), kEnglishUs()));
  if (signature) {
    root.add(coded(kObsContext, kObserverType(), kPerson()));
    root.add(
        text(kObsContext, kPersonObserverName(), personName(signature->name), DSRTypes::VT_PName));
  } else {
    root.add(coded(kObsContext, kObserverType(), kDevice()));
    root.add(text(kObsContext, kDeviceObserverUid(),
                  derivedDicomUid("2.25.1", "Delineate device observer"), DSRTypes::VT_UIDRef));
    root.add(text(kObsContext, kDeviceObserverName(), "Delineate"));
  }
  root.add(coded(kConceptMod, kProcedureReported(), kBreastFfdMammogram()));

  if (!views.empty()) {
    Item& library = root.add(container(kContains, kImageLibrary()));
    for (const DicomFileHeader& v : views) {
      library.add(imageItem(kContains, DSRCodedEntryValue(), v.sopClassUid, v.sopInstanceUid));
    }
  }

  Item& narrative = root.add(container(kContains, kNarrativeSummary()));
  if (const auto& t = c.impression.value(); t && !t->empty()) {
    narrative.add(text(kContains, kImpression(), *t));
  }
  if (const auto& t = c.management.value(); t && !t->empty()) {
    narrative.add(text(kContains, kRecommendation(), *t));
  }
  for (const Addendum& a : report.signOff().addenda()) {
    Item& comment = narrative.add(text(kContains, kComment(), a.text));
    comment.observationDateTime = dicomDateTime(a.signature.time);
    comment.add(
        text(kObsContext, kPersonObserverName(), personName(a.signature.name), DSRTypes::VT_PName));
  }

  Item& data = root.add(container(kContains, kSupplementaryData()));
  addCoded(data, kBreastComposition(), c.composition.value());
  for (const MammoFinding& f : c.findings) {
    data.add(findingItem(f, views));
  }

  Item& assessment = root.add(container(kContains, kOverallAssessment()));
  if (const auto& a = c.assessmentOverall.value()) {
    assessment.add(assessmentItem(*a, std::nullopt));
  }
  if (const auto& a = c.assessmentRight.value()) {
    assessment.add(assessmentItem(*a, mammo::Laterality::Right));
  }
  if (const auto& a = c.assessmentLeft.value()) {
    assessment.add(assessmentItem(*a, mammo::Laterality::Left));
  }

  if (const auto& ai = report.aiOrigin()) {
    Item& cad = root.add(container(kContains, kMammographyCad()));
    if (!ai->source.empty()) {
      cad.add(text(kContains, kAlgorithmName(), ai->source));
    }
    if (ai->demonstration) {
      cad.add(text(kContains, kComment(), kDemonstrationComment));
    }
    if (ai->riskScore) {
      cad.add(numItem(kProbabilityOfCancer(), *ai->riskScore, kNoUnits()));
    }
  }
  return root;
}

// True when a text the SR holds needs UTF-8.
bool needsUtf8(const MammographyReport& report, const ReportSubject& subject,
               const MammoSrOptions& options) {
  const MammographyContent& c = report.content();
  std::vector<std::string> texts{subject.patientName, options.seriesDescription,
                                 options.organization, c.impression.value().value_or(""),
                                 c.management.value().value_or("")};
  for (const MammoFinding& f : c.findings) {
    texts.push_back(f.description.value().value_or(""));
  }
  if (const auto& s = report.signOff().signature()) {
    texts.push_back(s->name);
  }
  for (const Addendum& a : report.signOff().addenda()) {
    texts.insert(texts.end(), {a.text, a.signature.name});
  }
  if (const auto& ai = report.aiOrigin()) {
    texts.push_back(ai->source);
  }
  for (const std::string& t : texts) {
    if (hasNonAscii(t)) {
      return true;
    }
  }
  return false;
}

std::string orElse(const std::string& value, const std::string& fallback) {
  return value.empty() ? fallback : value;
}

}  // namespace

void writeMammographyReportSr(const MammographyReport& report, const MammoSrSource& source,
                              const fs::path& out, const MammoSrOptions& options) {
  const std::string where = out.string();
  const std::vector<DicomFileHeader> views = readViewHeaders(source.viewFiles);
  const DicomFileHeader first = views.empty() ? DicomFileHeader{} : views.front();
  const ReportSubject& s = report.subject();
  ReportSubject subject{orElse(s.patientName, first.patientName),
                        orElse(s.patientId, first.patientId),
                        orElse(s.birthDate, first.patientBirthDate),
                        orElse(s.studyInstanceUid, first.studyInstanceUid),
                        orElse(s.accessionNumber, first.accessionNumber)};
  if (subject.studyInstanceUid.empty()) {
    throw Error(ErrorKind::InvalidInput, where,
                "no study: the report's subject names no Study Instance UID and no DICOM view of "
                "the study was given");
  }

  const Item root = contentTree(report, views);

  DSRDocument doc(DSRTypes::DT_ComprehensiveSR);
  if (needsUtf8(report, subject, options)) {
    checkDicom(doc.setSpecificCharacterSetType(DSRTypes::CS_UTF8), where,
               "setting the character set");
  }
  checkDicom(doc.createNewSeriesInStudy(subject.studyInstanceUid.c_str(), OFFalse), where,
             "placing the report in the study");
  setReportHeader(doc, {subject.patientName, subject.patientId, subject.birthDate, first.patientSex,
                        first.studyDate, first.studyDescription, subject.accessionNumber,
                        options.seriesDescription, options.seriesNumber});
  emitDocument(doc.getTree(), root, where);

  listEvidence(doc, views, where);

  if (const auto& signature = report.signOff().signature()) {
    checkDicom(doc.completeDocument(), where, "completing the report");
    checkDicom(doc.verifyDocument(personName(signature->name).c_str(),
                                  options.organization.substr(0, 64).c_str(),
                                  dicomDateTime(signature->time).c_str(), OFFalse),
               where, "verifying the report");
  }
  saveSrDocument(doc, out);
}

}  // namespace delineate::core::report
