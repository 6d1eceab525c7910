#pragma once
// Exporting a report file (JSON) as DICOM SR, PDF or JSON, with what each format needs loaded
// from the files the caller names: the CLI's `report export` and the app's Export share it.
//
// - Measurement report, SR: `image` (the DICOM series it was measured on: the SR joins its study
//   and lists its images) is required; `labels` (a label file with its segment table) gives the
//   segments' codes; `seg` (the DICOM SEG of the segments) adds references to its segments,
//   matched to the report's rows by segment name.
// - Mammography report, SR: `study` (a folder of the study's DICOM views) adds the image library
//   and each finding's reference to the view its CAD mark is on.
// - PDF: key images. Measurement report: from `image` + `labels`, each segment's largest
//   cross-section with its outline (segments deleted since, or empty, are left out). Mammography
//   report: from `study`, the views the findings' CAD marks are on (every view of the report's
//   study when no finding links to one), the marks drawn from `findings` (default: the study
//   folder's ai-findings.json when there is one, as `delineate-cli sample` and `detect --json`
//   write it). Without those inputs the PDF has no key images (a note says so).
// - JSON: the report file as this program writes it (checked on the way).
#include <filesystem>
#include <string>
#include <vector>

#include "core/jobs/ProgressSink.h"
#include "core/mammo/MammoFindings.h"
#include "core/mammo/MammoView.h"
#include "core/model/LabelMap.h"
#include "core/model/Volume.h"
#include "core/report/ReportFile.h"

namespace delineate::core::report {

enum class ExportFormat { Sr, Pdf, Json };

struct ExportRequest {
  std::filesystem::path report;  // the report file (JSON); for exportReport(request) only
  ExportFormat format = ExportFormat::Json;
  std::filesystem::path out;
  std::filesystem::path image, labels, seg, study, findings;  // empty: not given
};

struct ExportResult {
  std::vector<std::string> notes;  // what was left out and why (e.g. "no key images: ...")
};

// Throws Error naming the file that is missing, unreadable or of the wrong kind, or `out` when
// it cannot be written; Error(InvalidInput) when a required input is not given.
ExportResult exportReport(const ExportRequest& request, ProgressSink& progress);
// The same for a report in memory (the app's open report); errors name `request.out` or the
// input files.
ExportResult exportReport(const AnyReport& report, const ExportRequest& request,
                          ProgressSink& progress);

// What the app has loaded when it exports the report it shows: the image and label map of a
// measurement report (the image read from DICOM for an SR), the views (id = the file) and the
// AI findings of a mammography report. Null / empty: not there (as not given above).
struct LoadedReportInputs {
  const Volume* image = nullptr;
  const LabelMap* labels = nullptr;
  std::vector<mammo::MammoView> views;
  const mammo::StudyFindings* findings = nullptr;
};

ExportResult exportLoadedReport(const AnyReport& report, ExportFormat format,
                                const std::filesystem::path& out, const LoadedReportInputs& inputs,
                                ProgressSink& progress);

}  // namespace delineate::core::report
