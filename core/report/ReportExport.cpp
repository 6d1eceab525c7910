// Report export: loads what the format needs (from files, or as the app has it) and calls the
// writer.
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
#include "core/report/ReportPdf.h"

namespace delineate::core::report {

namespace fs = std::filesystem;

namespace {

// Key images: two to a row on A4, sharp when printed.
constexpr int kKeyImageWidth = 480;
constexpr int kKeyImageHeight = 600;
constexpr std::size_t kMaxKeyImages = 12;

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

void writeMeasurementSr(const MeasurementReport& report, const fs::path& out,
                        const LoadedReportInputs& inputs, const std::optional<SegReference>& seg) {
  if (inputs.image == nullptr) {
    throw Error(ErrorKind::InvalidInput, out.string(),
                "a measurement report's SR needs the DICOM series it was measured on (--image)");
  }
  if (inputs.image->info().sourceFiles.empty()) {
    throw Error(ErrorKind::InvalidInput, out.string(),
                "the image was not read from DICOM: the SR must refer to the DICOM images it "
                "was measured on (export a PDF or JSON instead)");
  }
  MeasurementSrOptions options;
  if (inputs.labels) {
    options.segments = inputs.labels->segments();
  }
  writeMeasurementReportSr(report, *inputs.image, seg, out, options);
}

std::vector<KeyImage> measurementKeyImages(const MeasurementReport& report,
                                           const LoadedReportInputs& inputs, ProgressSink& progress,
                                           ExportResult& result) {
  if (inputs.image == nullptr || inputs.labels == nullptr) {
    result.notes.push_back("no key images: give the image (--image) and the label map (--labels)");
    return {};
  }
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
      images.push_back(
          measurementKeyImage(row, *inputs.labels, *inputs.image, kKeyImageWidth, kKeyImageHeight));
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
                                           const LoadedReportInputs& inputs, ProgressSink& progress,
                                           ExportResult& result) {
  if (inputs.views.empty()) {
    result.notes.push_back("no key images: give the study's folder (--study)");
    return {};
  }
  if (inputs.findings == nullptr) {
    result.notes.push_back("no CAD marks on the key images: give the findings file (--findings)");
  }
  std::vector<std::pair<mammo::MammoView, std::string>> chosen;  // view, the id links use
  for (const mammo::MammoView& v : inputs.views) {
    if (std::string id = linkedId(report, v); !id.empty()) {
      chosen.emplace_back(v, std::move(id));
    }
  }
  if (chosen.empty()) {  // no finding on an image: the study's views
    for (const mammo::MammoView& v : inputs.views) {
      if (!v.forProcessing) {
        chosen.emplace_back(v, v.id);
      }
    }
  }
  std::sort(chosen.begin(), chosen.end(), [](const auto& a, const auto& b) {
    return std::pair(int(a.first.view), int(a.first.laterality)) <
           std::pair(int(b.first.view), int(b.first.laterality));
  });
  chosen.resize(std::min(chosen.size(), kMaxKeyImages));
  std::vector<KeyImage> images;
  for (std::size_t i = 0; i < chosen.size(); ++i) {
    SubProgress loading(progress, double(i) / double(chosen.size()),
                        double(i + 1) / double(chosen.size()));
    const VolumePtr volume = mammo::loadMammoFile(chosen[i].first.id, loading);
    const auto pyramid = mammo::ImagePyramid::create(volume, volume->geometry().size[2] / 2);
    pyramid->buildLevels(loading);
    mammo::MammoView named = chosen[i].first;
    named.id = chosen[i].second;
    mammo::ImageFindings marks;
    if (inputs.findings) {
      for (const mammo::ImageFindings& f : inputs.findings->images) {
        if (mammo::namesImage(chosen[i].first, f.imageId)) {
          marks = f;
        }
      }
    }
    marks.imageId = named.id;
    images.push_back(mammographyKeyImage(report, named, marks, *pyramid,
                                         mammo::defaultDisplaySettings(*volume), kKeyImageWidth,
                                         kKeyImageHeight));
  }
  return images;
}

void exportLoaded(const AnyReport& report, ExportFormat format, const fs::path& out,
                  const LoadedReportInputs& inputs, const std::optional<SegReference>& seg,
                  ProgressSink& progress, ExportResult& result) {
  const auto* mammography = std::get_if<MammographyReport>(&report);
  const auto* measurements = std::get_if<MeasurementReport>(&report);
  switch (format) {
    case ExportFormat::Json:
      writeReport(report, out);
      break;
    case ExportFormat::Sr:
      if (measurements) {
        writeMeasurementSr(*measurements, out, inputs, seg);
      } else {
        MammoSrSource source;
        for (const mammo::MammoView& v : inputs.views) {
          if (!v.forProcessing) {
            source.viewFiles.emplace_back(v.id);
          }
        }
        writeMammographyReportSr(*mammography, source, out);
      }
      break;
    case ExportFormat::Pdf:
      if (measurements) {
        writeMeasurementReportPdf(
            *measurements, measurementKeyImages(*measurements, inputs, progress, result), out);
      } else {
        writeMammographyReportPdf(
            *mammography, mammographyKeyImages(*mammography, inputs, progress, result), out);
      }
      break;
  }
  progress.report(1.0, "Done");
}

}  // namespace

ExportResult exportReport(const ExportRequest& request, ProgressSink& progress) {
  return exportReport(readReport(request.report), request, progress);
}

ExportResult exportReport(const AnyReport& report, const ExportRequest& request,
                          ProgressSink& progress) {
  ExportResult result;
  const bool measurements = std::holds_alternative<MeasurementReport>(report);
  const bool needsImages = request.format != ExportFormat::Json;
  LoadedReportInputs inputs;
  VolumePtr image;
  std::optional<LabelMap> labels;
  std::optional<mammo::StudyFindings> findings;
  std::optional<SegReference> seg;
  SubProgress loading(progress, 0, 0.5);
  if (needsImages && measurements && !request.image.empty()) {
    image = openPath(request.image, loading).volume;
    inputs.image = image.get();
  }
  if (needsImages && measurements && !request.labels.empty()) {
    labels = image ? readLabelMapFiles(request.labels, &image->geometry())
                   : readLabelMapFiles(request.labels);
    inputs.labels = &*labels;
  }
  if (request.format == ExportFormat::Sr && measurements && !request.seg.empty() &&
      !request.image.empty()) {
    seg = segReference(request.seg, std::get<MeasurementReport>(report), loading, result);
  }
  if (needsImages && !measurements && !request.study.empty()) {
    inputs.views = studyViews(std::get<MammographyReport>(report), request.study, loading);
    fs::path file = request.findings;
    if (file.empty() && fs::exists(request.study / "ai-findings.json")) {
      file = request.study / "ai-findings.json";
    }
    if (!file.empty()) {
      findings = mammo::readStudyFindings(file);
      inputs.findings = &*findings;
    }
  }
  SubProgress writing(progress, 0.5, 1.0);
  exportLoaded(report, request.format, request.out, inputs, seg, writing, result);
  return result;
}

ExportResult exportLoadedReport(const AnyReport& report, ExportFormat format, const fs::path& out,
                                const LoadedReportInputs& inputs, ProgressSink& progress) {
  ExportResult result;
  exportLoaded(report, format, out, inputs, std::nullopt, progress, result);
  return result;
}

}  // namespace delineate::core::report
