// Writes AI findings as a Mammography CAD SR (tree in MammoCadSr.h and docs/cad-sr.md).
#include <dcmtk/config/osconfig.h>  // must come first
#include <dcmtk/dcmdata/dcdeftag.h>
#include <dcmtk/dcmdata/dcfilefo.h>
#include <dcmtk/dcmdata/dcitem.h>
#include <dcmtk/dcmsr/dsrdoc.h>

#include <algorithm>
#include <optional>

#include "core/Error.h"
#include "core/io/DicomCondition.h"
#include "core/io/DicomHeader.h"
#include "core/io/DicomSegSegment.h"
#include "core/report/CadSrCodes.h"
#include "core/report/MammoCadSr.h"
#include "core/report/SrContentTree.h"
#include "core/report/SrViewFiles.h"

namespace delineate::core::report {

namespace fs = std::filesystem;

namespace {

using namespace sr;
constexpr auto kContains = DSRTypes::RT_contains;
constexpr auto kConceptMod = DSRTypes::RT_hasConceptMod;
constexpr auto kProperties = DSRTypes::RT_hasProperties;
constexpr auto kInferred = DSRTypes::RT_inferredFrom;
constexpr auto kAcquisition = DSRTypes::RT_hasAcqContext;

// One view as the Image Library entry (TID 4020) needs it.
struct LibraryView {
  DicomFileHeader header;
  std::string imageLaterality;  // (0020,0062)
  std::optional<DSRCodedEntryValue> view;
  std::vector<DSRCodedEntryValue> viewModifiers;
  std::string orientationRow, orientationColumn;  // (0020,0020)
  std::string studyDate, studyTime;
  std::optional<double> rowSpacing, columnSpacing;  // mm, (0018,1164) else (0028,0030)
};

std::string stringOf(DcmItem& item, const DcmTagKey& tag, unsigned long pos = 0) {
  OFString value;
  return item.findAndGetOFString(tag, value, pos).good() ? value.c_str() : "";
}

std::optional<DSRCodedEntryValue> codeItem(DcmItem& item) {
  const std::string value = stringOf(item, DCM_CodeValue);
  const std::string scheme = stringOf(item, DCM_CodingSchemeDesignator);
  if (value.empty() || scheme.empty()) {
    return std::nullopt;
  }
  std::string meaning = stringOf(item, DCM_CodeMeaning);
  return code(value, scheme, meaning.empty() ? value : meaning);
}

// What the Image Library entry says of a view, from its file's header.
LibraryView readView(DicomFileHeader header) {
  LibraryView v;
  v.header = std::move(header);
  const fs::path file = v.header.path;
  DcmFileFormat ff;
  checkDicom(ff.loadFileUntilTag(file.c_str(), EXS_Unknown, EGL_noChange, DCM_MaxReadLength,
                                 ERM_autoDetect, DCM_PixelData),
             file.string(), "reading the view's header");
  DcmDataset& ds = *ff.getDataset();
  v.imageLaterality = stringOf(ds, DCM_ImageLaterality);
  DcmItem* viewItem = nullptr;
  if (ds.findAndGetSequenceItem(DCM_ViewCodeSequence, viewItem, 0).good() && viewItem) {
    v.view = codeItem(*viewItem);
    DcmItem* modifier = nullptr;
    for (signed long k = 0;
         viewItem->findAndGetSequenceItem(DCM_ViewModifierCodeSequence, modifier, k).good() &&
         modifier;
         ++k) {
      if (const auto c = codeItem(*modifier)) {
        v.viewModifiers.push_back(*c);
      }
    }
  }
  v.orientationRow = stringOf(ds, DCM_PatientOrientation, 0);
  v.orientationColumn = stringOf(ds, DCM_PatientOrientation, 1);
  v.studyDate = stringOf(ds, DCM_StudyDate);
  v.studyTime = stringOf(ds, DCM_StudyTime);
  for (const DcmTagKey& tag : {DCM_ImagerPixelSpacing, DCM_PixelSpacing}) {
    Float64 row = 0, column = 0;
    if (ds.findAndGetFloat64(tag, row, 0).good() && ds.findAndGetFloat64(tag, column, 1).good() &&
        row > 0 && column > 0) {
      v.rowSpacing = row;
      v.columnSpacing = column;
      break;
    }
  }
  return v;
}

std::string keyOf(const LibraryView& v) {
  return "image:" + v.header.sopInstanceUid;
}

Item spacingItem(const DSRCodedEntryValue& name, double mm) {
  Item n = numItem(name, mm, kMillimeter());
  n.relation = kAcquisition;
  return n;
}

Item libraryEntry(const LibraryView& v) {
  Item image =
      imageItem(kContains, DSRCodedEntryValue(), v.header.sopClassUid, v.header.sopInstanceUid);
  image.key = keyOf(v);
  if (v.imageLaterality == "R" || v.imageLaterality == "L") {
    image.add(coded(kAcquisition, kImageLaterality(),
                    v.imageLaterality == "R" ? kRightBreast() : kLeftBreast()));
  } else if (v.imageLaterality == "B") {
    image.add(coded(kAcquisition, kImageLaterality(), code("63762007", "SCT", "Both breasts")));
  }
  if (v.view) {
    Item& view = image.add(coded(kAcquisition, kImageView(), *v.view));
    for (const DSRCodedEntryValue& m : v.viewModifiers) {
      view.add(coded(kConceptMod, code("111032", "DCM", "Image View Modifier"), m));
    }
  }
  if (!v.orientationRow.empty() && !v.orientationColumn.empty()) {
    image.add(text(kAcquisition, kPatientOrientationRow(), v.orientationRow));
    image.add(text(kAcquisition, kPatientOrientationColumn(), v.orientationColumn));
  }
  if (!v.studyDate.empty()) {
    image.add(text(kAcquisition, kStudyDateConcept(), v.studyDate, DSRTypes::VT_Date));
  }
  if (!v.studyTime.empty()) {
    image.add(text(kAcquisition, kStudyTimeConcept(), v.studyTime, DSRTypes::VT_Time));
  }
  if (v.rowSpacing && v.columnSpacing) {
    image.add(spacingItem(kHorizontalPixelSpacing(), *v.columnSpacing));
    image.add(spacingItem(kVerticalPixelSpacing(), *v.rowSpacing));
  }
  return image;
}

Item percentItem(const DSRCodedEntryValue& name, double fraction) {
  Item n = numItem(name, fraction * 100.0, kPercent());
  n.relation = kProperties;
  return n;
}

void addAlgorithm(Item& parent, const std::string& name, const std::string& version) {
  parent.add(text(kProperties, kAlgorithmName(), name.empty() ? "Unnamed algorithm" : name));
  parent.add(text(kProperties, kAlgorithmVersion(), version.empty() ? "1" : version));
}

// DICOM spatial coordinates put (0, 0) at the outer corner of the first pixel; the findings put
// it at that pixel's centre.
std::pair<float, float> dicomPoint(double column, double row) {
  return {static_cast<float>(column + 0.5), static_cast<float>(row + 0.5)};
}

// The image a mark's coordinates are selected from: its Image Library entry by reference, or,
// for a mark on one frame of a stack, the image with that frame by value.
struct Place {
  const LibraryView* view = nullptr;
  std::optional<int> frame;
};

Item geometry(const DSRCodedEntryValue& name, DSRTypes::E_GraphicType type,
              std::vector<std::pair<float, float>> points, const Place& place) {
  Item s = scoordItem(kProperties, name, type, std::move(points));
  if (place.frame) {
    s.add(imageItem(DSRTypes::RT_selectedFrom, DSRCodedEntryValue(), place.view->header.sopClassUid,
                    place.view->header.sopInstanceUid, {}, *place.frame + 1));
  } else {
    s.add(reference(DSRTypes::RT_selectedFrom, keyOf(*place.view)));
  }
  return s;
}

// The mark's outline: its polygon (closed), else its box as an axis-aligned ellipse (major
// axis first), else none (a point).
std::optional<Item> outlineItem(const mammo::FindingMark& m, const Place& image) {
  if (m.outline.size() >= 3) {
    std::vector<std::pair<float, float>> points;
    for (const auto& p : m.outline) {
      points.push_back(dicomPoint(p[0], p[1]));
    }
    points.push_back(points.front());
    return geometry(kOutline(), DSRTypes::GT_Polyline, std::move(points), image);
  }
  if (m.x1 <= m.x0 || m.y1 <= m.y0) {
    return std::nullopt;
  }
  const double cx = 0.5 * (m.x0 + m.x1), cy = 0.5 * (m.y0 + m.y1);
  std::vector<std::pair<float, float>> horizontal{dicomPoint(m.x0, cy), dicomPoint(m.x1, cy)};
  std::vector<std::pair<float, float>> vertical{dicomPoint(cx, m.y0), dicomPoint(cx, m.y1)};
  if (m.y1 - m.y0 > m.x1 - m.x0) {
    std::swap(horizontal, vertical);
  }
  horizontal.insert(horizontal.end(), vertical.begin(), vertical.end());
  return geometry(kOutline(), DSRTypes::GT_Ellipse, std::move(horizontal), image);
}

Item impressionItem(const mammo::FindingMark& m, const Place& image, const std::string& algorithm,
                    const std::string& version) {
  Item impression = container(kInferred, kIndividualImpression());
  impression.add(coded(kConceptMod, kRenderingIntent(), codeOf(m.intent)));
  const auto kindCode = findingCodeOf(m.kind);
  Item& finding = impression.add(
      coded(kContains, kSingleImageFinding(), kindCode ? *kindCode : kSelectedRegion()));
  finding.add(coded(kConceptMod, kRenderingIntent(), codeOf(m.intent)));
  addAlgorithm(finding, algorithm, version);
  if (m.scored) {
    finding.add(percentItem(kCertaintyOfFinding(), m.score));
  }
  if (m.probability) {
    finding.add(percentItem(kProbabilityOfCancer(), *m.probability));
  }
  finding.add(geometry(kCenter(), DSRTypes::GT_Point, {dicomPoint(m.column, m.row)}, image));
  if (auto outline = outlineItem(m, image)) {
    finding.add(std::move(*outline));
  }
  if (!kindCode) {
    finding.add(text(kProperties, kSelectedRegionDescription(), m.kind));
  }
  return impression;
}

Item detectionsItem(const std::vector<std::string>& kinds, const std::vector<LibraryView>& views,
                    const std::string& algorithm, const std::string& version) {
  if (kinds.empty()) {
    return coded(kContains, kSummaryOfDetections(), kNotAttempted());
  }
  Item summary = coded(kContains, kSummaryOfDetections(), kSucceeded());
  Item& done = summary.add(container(kInferred, kSuccessfulDetections()));
  for (const std::string& kind : kinds) {
    const auto c = findingCodeOf(kind);
    Item& detection = done.add(coded(kContains, kDetectionPerformed(), c ? *c : kSelectedRegion()));
    addAlgorithm(detection, algorithm, version);
    for (const LibraryView& v : views) {
      detection.add(reference(kProperties, keyOf(v)));
    }
  }
  return summary;
}

bool needsUtf8(const mammo::StudyFindings& findings, const DicomFileHeader& first) {
  if (hasNonAscii(findings.source) || hasNonAscii(first.patientName)) {
    return true;
  }
  for (const mammo::ImageFindings& image : findings.images) {
    for (const mammo::FindingMark& m : image.marks) {
      if (hasNonAscii(m.kind)) {
        return true;
      }
    }
  }
  return false;
}

}  // namespace

void writeMammographyCadSr(const mammo::StudyFindings& findings,
                           const std::vector<fs::path>& viewFiles, const fs::path& out,
                           const CadSrOptions& options) {
  const std::string where = out.string();
  const std::vector<DicomFileHeader> headers = readViewHeaders(viewFiles);
  std::vector<LibraryView> views;
  for (const DicomFileHeader& h : headers) {
    views.push_back(readView(h));
  }
  if (views.empty()) {
    throw Error(ErrorKind::InvalidInput, where,
                "no view of the study was given: a CAD report refers to its images");
  }

  Item root = container(DSRTypes::RT_isRoot, kMammographyCadReport());
  root.templateId = "4000";
  root.add(coded(kConceptMod, kLanguage(), kEnglishUs()));
  Item& library = root.add(container(kContains, kImageLibrary()));
  for (const LibraryView& v : views) {
    library.add(libraryEntry(v));
  }

  std::size_t markCount = 0;
  std::vector<std::string> kinds = options.detectionsPerformed;
  for (const mammo::ImageFindings& image : findings.images) {
    markCount += image.marks.size();
    for (const mammo::FindingMark& m : image.marks) {
      if (options.detectionsPerformed.empty() &&
          std::find(kinds.begin(), kinds.end(), m.kind) == kinds.end()) {
        kinds.push_back(m.kind);
      }
    }
  }
  Item& summary = root.add(coded(kContains, kCadSummary(), kAllSucceeded(markCount > 0)));
  if (findings.demonstration) {
    summary.add(text(kProperties, kImpressionDescription(), kDemonstrationComment));
    addAlgorithm(summary, findings.source, options.algorithmVersion);
  }
  for (const mammo::ImageFindings& image : findings.images) {
    const auto index = viewNamed(image.imageId, headers);
    const LibraryView* view = index ? &views[*index] : nullptr;
    if (view == nullptr && !image.marks.empty()) {
      throw Error(ErrorKind::InvalidInput, where,
                  "the findings' image " + image.imageId +
                      " is not among the study's views given, so its marks cannot be placed");
    }
    for (const mammo::FindingMark& m : image.marks) {
      // A frame only for a multi-frame image (DICOM forbids one for a single frame).
      const std::optional<int> frame = view->header.frames > 1 ? m.frame : std::nullopt;
      summary.add(impressionItem(m, {view, frame}, findings.source, options.algorithmVersion));
    }
  }
  root.add(detectionsItem(kinds, views, findings.source, options.algorithmVersion));
  root.add(coded(kContains, kSummaryOfAnalyses(), kNotAttempted()));

  const DicomFileHeader& first = views.front().header;
  DSRDocument doc(DSRTypes::DT_MammographyCadSR);
  if (needsUtf8(findings, first)) {
    checkDicom(doc.setSpecificCharacterSetType(DSRTypes::CS_UTF8), where,
               "setting the character set");
  }
  checkDicom(doc.createNewSeriesInStudy(first.studyInstanceUid.c_str(), OFFalse), where,
             "placing the CAD report in the study");
  setReportHeader(doc, {first.patientName, first.patientId, first.patientBirthDate,
                        first.patientSex, first.studyDate, first.studyDescription,
                        first.accessionNumber, options.seriesDescription, options.seriesNumber});
  emitDocument(doc.getTree(), root, where);
  listEvidence(doc, headers, where);
  checkDicom(doc.completeDocument(), where, "completing the CAD report");
  saveSrDocument(doc, out);
}

}  // namespace delineate::core::report
