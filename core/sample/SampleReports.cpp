// The sample reports: the demonstration detector's draft for the screening study and the brain
// MR's measurement report.
#include "core/sample/SampleReports.h"

#include <algorithm>

#include "core/Error.h"
#include "core/io/DicomHeader.h"
#include "core/mammo/ChestWallSide.h"
#include "core/mammo/DemoMammoDetector.h"
#include "core/mammo/ImagePyramid.h"
#include "core/mammo/MammoFindings.h"
#include "core/mammo/MammoStudyLoader.h"
#include "core/mammo/MammoViewDicom.h"
#include "core/report/MammographyDraft.h"

namespace delineate::core::sample {

namespace fs = std::filesystem;

namespace {

report::ReportSubject subjectOf(const VolumeInfo& info) {
  report::ReportSubject s;
  s.patientName = info.patientName;
  s.patientId = info.patientId;
  s.birthDate = info.patientBirthDate;
  s.studyInstanceUid = info.studyInstanceUid;
  s.accessionNumber = info.accessionNumber;
  return s;
}

std::vector<fs::path> dicomFiles(const fs::path& dir) {
  std::vector<fs::path> files;
  std::error_code ec;
  for (const auto& entry : fs::directory_iterator(dir, ec)) {
    if (entry.is_regular_file() && entry.path().extension() == ".dcm") {
      files.push_back(entry.path());
    }
  }
  std::sort(files.begin(), files.end());
  return files;
}

}  // namespace

report::MammographyReport draftSampleMammographyReport(const fs::path& dicomDir,
                                                       const fs::path& findingsOut,
                                                       ProgressSink& progress) {
  const std::vector<fs::path> files = dicomFiles(dicomDir);
  std::vector<mammo::DetectorImage> inputs;
  std::vector<report::ImageFacts> facts;
  for (std::size_t i = 0; i < files.size(); ++i) {
    progress.throwIfCancelled();
    progress.report(0.5 * double(i) / double(files.size()), "Reading the sample mammograms");
    const DicomFileHeader header = readDicomHeader(files[i].string());
    if (header.modality != "MG" && header.modality != "DX") {
      continue;
    }
    NullProgress quiet;
    VolumePtr image = mammo::loadMammoFile(files[i].string(), quiet);
    mammo::MammoView view = mammo::mammoViewOf(header, header.sopInstanceUid);
    report::ImageFacts f;
    f.imageId = view.id;
    f.view = view;
    f.columns = image->geometry().size[0];
    f.rows = image->geometry().size[1];
    f.spacingMm = image->geometry().spacing[0];
    f.chestWall = mammo::storedChestWall(*mammo::ImagePyramid::create(image),
                                         header.photometric == "MONOCHROME1", view.laterality);
    facts.push_back(f);
    inputs.push_back({std::move(image), std::move(view)});
  }
  if (inputs.empty()) {
    throw Error(ErrorKind::InvalidInput, dicomDir.string(), "no mammograms (DX/MG DICOM) here");
  }
  SubProgress detecting(progress, 0.5, 1.0);
  const mammo::StudyFindings findings = mammo::DemoMammoDetector().run(inputs, detecting);
  mammo::writeStudyFindings(findings, findingsOut);
  report::MammographyReport draft = report::draftFromFindings(findings, facts);
  draft.setSubject(subjectOf(inputs.front().image->info()));
  return draft;
}

report::MeasurementReport sampleMeasurementReport(const LabelMap& labels, const Volume& image,
                                                  ProgressSink& progress) {
  report::MeasurementReport r = report::MeasurementReport::measure(labels, &image, progress);
  r.setSubject(subjectOf(image.info()));
  return r;
}

}  // namespace delineate::core::sample
