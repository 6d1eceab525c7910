#include "core/report/MeasurementReportSr.h"

#include <dcmtk/config/osconfig.h>  // must come first
#include <dcmtk/dcmdata/dcfilefo.h>
#include <dcmtk/dcmsr/dsrdoc.h>

#include <set>
#include <utility>

#include "core/Error.h"
#include "core/io/DicomCondition.h"
#include "core/io/DicomHeader.h"
#include "core/io/DicomSegSegment.h"
#include "core/io/DicomUid.h"
#include "core/report/SrCodes.h"
#include "core/report/SrContentTree.h"

namespace delineate::core::report {

namespace fs = std::filesystem;

namespace {

using namespace sr;

struct SourceInstance {
  std::string sopClassUid, sopInstanceUid, seriesInstanceUid;
};

SrValue valueOf(const DSRNumericMeasurementValue& num) {
  SrValue v;
  v.value = numberOf(num);
  v.unit = num.getMeasurementUnit().getCodeValue().c_str();
  return v;
}

SrMeasurementGroup readGroup(const Node& group) {
  SrMeasurementGroup g;
  for (const Node& c : group.children) {
    if (same(c.name, kTrackingId())) {
      g.trackingId = c.text;
    } else if (same(c.name, kTrackingUid())) {
      g.trackingUid = c.text;
    } else if (same(c.name, kFindingCategory())) {
      g.findingCategory = conceptOf(c.code);
    } else if (same(c.name, kFinding())) {
      g.finding = conceptOf(c.code);
    } else if (same(c.name, kReferencedSegment())) {
      g.segSopInstanceUid = c.image.getSOPInstanceUID().c_str();
      if (!c.image.getSegmentList().isEmpty()) {
        g.segmentNumber = c.image.getSegmentList().getItem(1);
      }
    } else if (c.type == DSRTypes::VT_Num) {
      DSRCodedEntryValue derivation;
      for (const Node& m : c.children) {
        if (same(m.name, kDerivation())) {
          derivation = m.code;
        }
      }
      if (same(c.name, kVolume())) {
        g.volume = valueOf(c.number);
      } else if (same(c.name, kDiameter())) {
        g.largestDiameter = valueOf(c.number);
      } else if (same(derivation, kMean())) {
        g.mean = valueOf(c.number);
      } else if (same(derivation, kStandardDeviation())) {
        g.sd = valueOf(c.number);
      }
    }
  }
  return g;
}

}  // namespace

void writeMeasurementReportSr(const MeasurementReport& report, const Volume& image,
                              const std::optional<SegReference>& seg, const fs::path& out,
                              const MeasurementSrOptions& options) {
  const std::string where = out.string();
  const VolumeInfo& info = image.info();
  if (info.sourceFiles.empty()) {
    throw Error(ErrorKind::InvalidInput, where,
                "the image was not read from DICOM: a DICOM SR needs the source series as read "
                "from DICOM (its study and the images it refers to)");
  }
  // The source instances, once each, in slice order.
  std::vector<SourceInstance> sources;
  std::set<std::string> seen;
  DicomFileHeader first;
  for (const std::string& file : info.sourceFiles) {
    if (!seen.insert(file).second) {
      continue;
    }
    DicomFileHeader h = readDicomHeader(file);
    if (h.sopClassUid.empty() || h.sopInstanceUid.empty()) {
      throw Error(ErrorKind::InvalidInput, file,
                  "no SOP Class or SOP Instance UID, so a report cannot refer to it");
    }
    sources.push_back({h.sopClassUid, h.sopInstanceUid, h.seriesInstanceUid});
    if (sources.size() == 1) {
      first = std::move(h);
    }
  }
  const std::string studyUid = first.studyInstanceUid;
  const std::string seriesUid = first.seriesInstanceUid;
  std::map<std::uint16_t, const Segment*> segments;
  for (const Segment& s : options.segments) {
    segments[s.label] = &s;
  }

  // Texts of this report, for the character set.
  const auto& signature = report.signOff().signature();
  std::vector<std::string> texts{first.patientName, first.studyDescription,
                                 options.seriesDescription, options.organization};
  if (signature) {
    texts.push_back(signature->name);
  }
  for (const MeasurementRow& row : report.rows()) {
    texts.push_back(row.name);
  }
  for (const Segment& s : options.segments) {
    texts.insert(texts.end(), {s.category.meaning, s.type.meaning});
  }
  texts.push_back(report.notes().impression.value().value_or(""));
  texts.push_back(report.notes().recommendations.value().value_or(""));
  for (const Addendum& a : report.signOff().addenda()) {
    texts.insert(texts.end(), {a.text, a.signature.name});
  }
  bool utf8 = false;
  for (const std::string& t : texts) {
    utf8 = utf8 || hasNonAscii(t);
  }

  // ---- Content ----
  Item root = container(DSRTypes::RT_isRoot, kReportTitle());
  root.templateId = "1500";
  root.add(coded(DSRTypes::RT_hasConceptMod, kLanguage(), kEnglishUs()));
  if (signature) {
    root.add(coded(DSRTypes::RT_hasObsContext, kObserverType(), kPerson()));
    root.add(text(DSRTypes::RT_hasObsContext, kPersonObserverName(), personName(signature->name),
                  DSRTypes::VT_PName));
  } else {
    root.add(coded(DSRTypes::RT_hasObsContext, kObserverType(), kDevice()));
    root.add(text(DSRTypes::RT_hasObsContext, kDeviceObserverUid(),
                  derivedDicomUid("2.25.1", "Delineate device observer"), DSRTypes::VT_UIDRef));
    root.add(text(DSRTypes::RT_hasObsContext, kDeviceObserverName(), "Delineate"));
  }
  root.add(coded(DSRTypes::RT_hasConceptMod, kProcedureReported(), procedureFor(first.modality)));

  Item& library = root.add(container(DSRTypes::RT_contains, kImageLibrary()))
                      .add(container(DSRTypes::RT_contains, kImageLibraryGroup()));
  for (const SourceInstance& s : sources) {
    library.add(
        imageItem(DSRTypes::RT_contains, DSRCodedEntryValue(), s.sopClassUid, s.sopInstanceUid));
  }

  const auto [intensity, intensityUnit] = intensityConcept(first.modality);
  Item& measurements = root.add(container(DSRTypes::RT_contains, kImagingMeasurements()));
  for (const MeasurementRow& row : report.rows()) {
    Item& group = measurements.add(container(DSRTypes::RT_contains, kMeasurementGroup()));
    group.templateId = "1411";
    group.add(text(DSRTypes::RT_hasObsContext, kTrackingId(), row.name.substr(0, 64)));
    group.add(text(DSRTypes::RT_hasObsContext, kTrackingUid(),
                   derivedDicomUid(seriesUid, "measurement group " + row.link.labelMap + "#" +
                                                  std::to_string(row.label)),
                   DSRTypes::VT_UIDRef));
    const auto known = segments.find(row.label);
    const Segment* s = known == segments.end() ? nullptr : known->second;
    group.add(
        coded(DSRTypes::RT_contains, kFindingCategory(), s ? orTissue(s->category) : kTissue()));
    group.add(coded(DSRTypes::RT_contains, kFinding(), s ? orTissue(s->type) : kTissue()));
    const auto segNumber = seg ? seg->segmentNumbers.find(row.label)
                               : std::map<std::uint16_t, std::uint16_t>::const_iterator{};
    if (seg && segNumber != seg->segmentNumbers.end()) {
      group.add(imageItem(DSRTypes::RT_contains, kReferencedSegment(), seg->sopClassUid,
                          seg->sopInstanceUid, segNumber->second));
      group.add(text(DSRTypes::RT_contains, kSourceSeriesForSegmentation(), seriesUid,
                     DSRTypes::VT_UIDRef));
    } else {
      group.add(imageItem(DSRTypes::RT_contains, kSourceOfMeasurement(),
                          sources.front().sopClassUid, sources.front().sopInstanceUid));
    }
    group.add(numItem(kVolume(), row.volumeMl, kMilliliter()));
    if (row.mean) {
      group.add(numItem(intensity, *row.mean, intensityUnit, kMean()));
    }
    if (row.sd) {
      group.add(numItem(intensity, *row.sd, intensityUnit, kStandardDeviation()));
    }
    group.add(numItem(kDiameter(), row.largestDiameterMm, kMillimeter(), kMaximum()));
  }

  const std::string impression = report.notes().impression.value().value_or("");
  const std::string recommendations = report.notes().recommendations.value().value_or("");
  if (!impression.empty() || !recommendations.empty() || !report.signOff().addenda().empty()) {
    Item& evaluations = root.add(container(DSRTypes::RT_contains, kQualitativeEvaluations()));
    if (!impression.empty()) {
      evaluations.add(text(DSRTypes::RT_contains, kImpression(), impression));
    }
    if (!recommendations.empty()) {
      evaluations.add(text(DSRTypes::RT_contains, kRecommendation(), recommendations));
    }
    for (const Addendum& a : report.signOff().addenda()) {
      evaluations.add(
          text(DSRTypes::RT_contains, kComment(),
               "Addendum by " + a.signature.name + " at " + a.signature.time + ": " + a.text));
    }
  }

  // ---- Document ----
  DSRDocument doc(DSRTypes::DT_ComprehensiveSR);
  if (utf8) {
    checkDicom(doc.setSpecificCharacterSetType(DSRTypes::CS_UTF8), where,
               "setting the character set");
  }
  checkDicom(doc.createNewSeriesInStudy(studyUid.c_str(), OFFalse), where,
             "placing the report in the study");
  setReportHeader(doc, {first.patientName, first.patientId, first.patientBirthDate,
                        first.patientSex, first.studyDate, first.studyDescription,
                        first.accessionNumber, options.seriesDescription, options.seriesNumber});
  emitDocument(doc.getTree(), root, where);

  for (const SourceInstance& s : sources) {
    checkDicom(doc.getCurrentRequestedProcedureEvidence().addItem(
                   studyUid.c_str(), s.seriesInstanceUid.c_str(), s.sopClassUid.c_str(),
                   s.sopInstanceUid.c_str(), OFFalse),
               where, "listing the evidence");
  }
  if (seg) {
    checkDicom(doc.getCurrentRequestedProcedureEvidence().addItem(
                   studyUid.c_str(), seg->seriesInstanceUid.c_str(), seg->sopClassUid.c_str(),
                   seg->sopInstanceUid.c_str(), OFFalse),
               where, "listing the segmentation as evidence");
  }

  if (signature) {
    checkDicom(doc.completeDocument(), where, "completing the report");
    checkDicom(doc.verifyDocument(personName(signature->name).c_str(),
                                  options.organization.substr(0, 64).c_str(),
                                  dicomDateTime(signature->time).c_str(), OFFalse),
               where, "verifying the report");
  }

  saveSrDocument(doc, out);
}

MeasurementReportSrContent readMeasurementReportSr(const fs::path& path) {
  const std::string where = path.string();
  DcmFileFormat file;
  checkDicom(file.loadFile(path.c_str()), where, "reading the report");
  DSRDocument doc;
  checkDicom(doc.read(*file.getDataset()), where, "reading the structured report");
  DSRDocumentTree& tree = doc.getTree();
  if (tree.gotoRoot() == 0) {
    throw Error(ErrorKind::InvalidInput, where, "the structured report has no content");
  }
  const Node root = readNode(tree);
  if (!same(root.name, kReportTitle())) {
    throw Error(ErrorKind::InvalidInput, where,
                std::string("not an Imaging Measurement Report (TID 1500) but \"") +
                    root.name.getCodeMeaning().c_str() + "\"");
  }

  MeasurementReportSrContent c;
  OFString value;
  doc.getSOPInstanceUID(value);
  c.sopInstanceUid = value.c_str();
  doc.getStudyInstanceUID(value);
  c.studyInstanceUid = value.c_str();
  c.complete = doc.getCompletionFlag() == DSRTypes::CF_Complete;
  c.verified = doc.getVerificationFlag() == DSRTypes::VF_Verified;
  if (doc.getNumberOfVerifyingObservers() > 0) {
    OFString dateTime, name, organization;
    checkDicom(doc.getVerifyingObserver(1, dateTime, name, organization), where,
               "reading the verifying observer");
    c.verifyingObserver = name.c_str();
    c.verificationDateTime = dateTime.c_str();
  }
  for (const Node& n : root.children) {
    if (same(n.name, kPersonObserverName())) {
      c.personObserver = n.text;
    } else if (same(n.name, kImageLibrary())) {
      for (const Node& g : n.children) {
        for (const Node& i : g.children) {
          if (i.type == DSRTypes::VT_Image) {
            c.referencedImages.push_back(i.image.getSOPInstanceUID().c_str());
          }
        }
      }
    } else if (same(n.name, kImagingMeasurements())) {
      for (const Node& g : n.children) {
        if (same(g.name, kMeasurementGroup())) {
          c.groups.push_back(readGroup(g));
        }
      }
    } else if (same(n.name, kQualitativeEvaluations())) {
      for (const Node& e : n.children) {
        if (same(e.name, kImpression())) {
          c.impression = e.text;
        } else if (same(e.name, kRecommendation())) {
          c.recommendations = e.text;
        } else if (same(e.name, kComment())) {
          c.comments.push_back(e.text);
        }
      }
    }
  }
  return c;
}

}  // namespace delineate::core::report
