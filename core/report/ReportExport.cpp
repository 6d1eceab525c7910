// Report export: loads what the format needs and calls the writer.
#include "core/report/ReportExport.h"

#include <algorithm>
#include <optional>

#include "core/Error.h"
#include "core/io/DicomHeader.h"
#include "core/io/DicomSegReader.h"
#include "core/io/LabelMapFileIO.h"
#include "core/io/PathLoader.h"
#include "core/mammo/DisplayLut.h"
#include "core/mammo/MammoStudyLoader.h"
#include "core/report/KeyImage.h"
#include "core/report/MammographyReportSr.h"
#include "core/report/MeasurementReportSr.h"
#include "core/report/ReportFile.h"
#include "core/report/ReportPdf.h"

namespace delineate::core::report {

namespace fs = std::filesystem;

namespace {

// Key images: two to a row on A4, sharp when printed.
constexpr int kKeyImageWidth = 480;
constexpr int kKeyImageHeight = 600;
constexpr std::size_t kMaxKeyImages = 12;

// The series the report was measured on; Error naming the path when it is not DICOM.
VolumePtr loadDicomImage(const fs::path& path, ProgressSink& progress) {
  VolumePtr image = openPath(path, progress).volume;
  if (image->info().sourceFiles.empty()) {
    throw Error(ErrorKind::InvalidInput, path.string(),
                "not a DICOM series: the SR must refer to the DICOM images it was measured on");
  }
  return image;
}

// The SEG's UIDs and, by segment name, the segment numbers of the report's rows.
SegReference segReference(const fs::path& seg, const MeasurementReport& report,
                          ProgressSink& progress, ExportResult& result) {
  const DicomFileHeader header = readDicomHeader(seg.string());
  SegReference ref;
  ref.sopInstanceUid = header.sopInstanceUid;
  ref.seriesInstanceUid = header.seriesInstanceUid;
  const LabelMap segLabels = readDicomSeg(seg, dicomSegGeometry(seg), progress);
  for (const MeasurementRow& row : report.rows()) {
    const auto s = std::find_if(segLabels.segments().begin(), segLabels.segments().end(),
                                [&](const Segment& x) { return x.name == row.name; });
    if (s != segLabels.segments().end()) {
      ref.segmentNumbers[row.label] = s->label;  // readDicomSeg: label = segment number
    } else {
      result.notes.push_back("segment \"" + row.name + "\" is not in " + seg.string() +
                             ": its measurements refer to the source images");
    }
  }
  return ref;
}

void exportMeasurementSr(const MeasurementReport& report, const ExportRequest& request,
                         ProgressSink& progress, ExportResult& result) {
  if (request.image.empty()) {
    throw Error(ErrorKind::InvalidInput, request.out.string(),
                "a measurement report's SR needs the DICOM series it was measured on (--image)");
  }
  SubProgress loading(progress, 0, 0.8);
  const VolumePtr image = loadDicomImage(request.image, loading);
  MeasurementSrOptions options;
  if (!request.labels.empty()) {
    options.segments = readLabelMapFiles(request.labels).segments();
  }
  std::optional<SegReference> seg;
  if (!request.seg.empty()) {
    SubProgress reading(progress, 0.8, 0.95);
    seg = segReference(request.seg, report, reading, result);
  }
  writeMeasurementReportSr(report, *image, seg, request.out, options);
}

std::vector<KeyImage> measurementKeyImages(const MeasurementReport& report,
                                           const ExportRequest& request, ProgressSink& progress,
                                           ExportResult& result) {
  if (request.image.empty() || request.labels.empty()) {
    result.notes.push_back("no key images: give the image (--image) and the label map (--labels)");
    return {};
  }
  SubProgress loading(progress, 0, 0.7);
  const VolumePtr image = openPath(request.image, loading).volume;
  const LabelMap labels = readLabelMapFiles(request.labels, &image->geometry());
  std::vector<KeyImage> images;
  for (const MeasurementRow& row : report.rows()) {
    progress.throwIfCancelled();
    if (row.link.broken || row.voxels == 0) {
      continue;
    }
    if (images.size() == kMaxKeyImages) {
      result.notes.push_back("key images of the first " + std::to_string(kMaxKeyImages) +
                             " segments only");
      break;
    }
    try {
      images.push_back(measurementKeyImage(row, labels, *image, kKeyImageWidth, kKeyImageHeight));
    } catch (const Error& e) {
      result.notes.push_back("no key image of \"" + row.name + "\": " + e.what());
    }
  }
  return images;
}

// The views of the report's study under `study` (all of them when the report names no study).
std::vector<mammo::MammoView> studyViews(const MammographyReport& report, const fs::path& study,
                                         ProgressSink& progress) {
  mammo::MammoStudyFiles files = mammo::scanMammoFiles({study}, progress);
  std::vector<mammo::MammoView> views;
  for (mammo::MammoView& v : files.views) {
    if (!v.forProcessing && (report.subject().studyInstanceUid.empty() ||
                             v.studyUid == report.subject().studyInstanceUid)) {
      views.push_back(std::move(v));
    }
  }
  if (views.empty()) {
    throw Error(
        ErrorKind::InvalidInput, study.string(),
        "no mammograms (DX/MG DICOM) of the report's study " + report.subject().studyInstanceUid);
  }
  return views;
}

// The id the report's links use for `view` ("" when no finding links to it).
std::string linkedId(const MammographyReport& report, const mammo::MammoView& view) {
  for (const MammoFinding& f : report.content().findings) {
    if (f.link.kind == ReportLink::Kind::CadMark && mammo::namesImage(view, f.link.imageId)) {
      return f.link.imageId;
    }
  }
  return {};
}

std::vector<KeyImage> mammographyKeyImages(const MammographyReport& report,
                                           const ExportRequest& request, ProgressSink& progress,
                                           ExportResult& result) {
  if (request.study.empty()) {
    result.notes.push_back("no key images: give the study's folder (--study)");
    return {};
  }
  SubProgress scanning(progress, 0, 0.2);
  std::vector<mammo::MammoView> views = studyViews(report, request.study, scanning);
  fs::path findingsFile = request.findings;
  if (findingsFile.empty() && fs::exists(request.study / "ai-findings.json")) {
    findingsFile = request.study / "ai-findings.json";
  }
  const mammo::StudyFindings findings =
      findingsFile.empty() ? mammo::StudyFindings{} : mammo::readStudyFindings(findingsFile);
  if (findingsFile.empty()) {
    result.notes.push_back("no CAD marks on the key images: give the findings file (--findings)");
  }
  std::vector<std::pair<mammo::MammoView, std::string>> chosen;  // view, the id links use
  for (const mammo::MammoView& v : views) {
    if (std::string id = linkedId(report, v); !id.empty()) {
      chosen.emplace_back(v, std::move(id));
    }
  }
  if (chosen.empty()) {
    for (const mammo::MammoView& v : views) {
      chosen.emplace_back(v, v.id);
    }
  }
  std::sort(chosen.begin(), chosen.end(), [](const auto& a, const auto& b) {
    return std::pair(int(a.first.view), int(a.first.laterality)) <
           std::pair(int(b.first.view), int(b.first.laterality));
  });
  chosen.resize(std::min(chosen.size(), kMaxKeyImages));
  std::vector<KeyImage> images;
  for (std::size_t i = 0; i < chosen.size(); ++i) {
    SubProgress loading(progress, 0.2 + 0.8 * double(i) / double(chosen.size()),
                        0.2 + 0.8 * double(i + 1) / double(chosen.size()));
    const VolumePtr volume = mammo::loadMammoFile(chosen[i].first.id, loading);
    const auto pyramid = mammo::ImagePyramid::create(volume, volume->geometry().size[2] / 2);
    pyramid->buildLevels(loading);
    mammo::ImageFindings marks;
    for (const mammo::ImageFindings& f : findings.images) {
      if (mammo::namesImage(chosen[i].first, f.imageId)) {
        marks = f;
      }
    }
    mammo::MammoView named = chosen[i].first;
    named.id = chosen[i].second;
    marks.imageId = named.id;
    images.push_back(mammographyKeyImage(report, named, marks, *pyramid,
                                         mammo::defaultDisplaySettings(*volume), kKeyImageWidth,
                                         kKeyImageHeight));
  }
  return images;
}

void exportMammographySr(const MammographyReport& report, const ExportRequest& request,
                         ProgressSink& progress) {
  MammoSrSource source;
  if (!request.study.empty()) {
    for (const mammo::MammoView& v : studyViews(report, request.study, progress)) {
      source.viewFiles.emplace_back(v.id);
    }
  }
  writeMammographyReportSr(report, source, request.out);
}

}  // namespace

ExportResult exportReport(const ExportRequest& request, ProgressSink& progress) {
  return exportReport(readReport(request.report), request, progress);
}

ExportResult exportReport(const AnyReport& report, const ExportRequest& request,
                          ProgressSink& progress) {
  ExportResult result;
  const auto* mammography = std::get_if<MammographyReport>(&report);
  const auto* measurements = std::get_if<MeasurementReport>(&report);
  switch (request.format) {
    case ExportFormat::Json:
      writeReport(report, request.out);
      break;
    case ExportFormat::Sr:
      if (measurements) {
        exportMeasurementSr(*measurements, request, progress, result);
      } else {
        exportMammographySr(*mammography, request, progress);
      }
      break;
    case ExportFormat::Pdf:
      if (measurements) {
        writeMeasurementReportPdf(*measurements,
                                  measurementKeyImages(*measurements, request, progress, result),
                                  request.out);
      } else {
        writeMammographyReportPdf(*mammography,
                                  mammographyKeyImages(*mammography, request, progress, result),
                                  request.out);
      }
      break;
  }
  progress.report(1.0, "Done");
  return result;
}

}  // namespace delineate::core::report
