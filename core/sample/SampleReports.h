#pragma once
// The sample reports `delineate-cli sample` writes beside the sample studies, so that a newcomer
// can open, edit, sign and export a report at once:
// - an AI-drafted BI-RADS report for the 4-view screening study: the built-in demonstration
//   detector's findings on the written DICOM views (saved too, as the study's findings file),
//   turned into a draft by draftFromFindings; images are named by SOP Instance UID;
// - a measurement report over the brain MR's ground-truth segments (volumes, intensities,
//   diameters measured from the label map, not typed), unsigned, with the impression left to the
//   reader.
#include <filesystem>

#include "core/jobs/ProgressSink.h"
#include "core/model/LabelMap.h"
#include "core/model/Volume.h"
#include "core/report/MammographyReport.h"
#include "core/report/MeasurementReport.h"

namespace delineate::core::sample {

// Reads the display mammograms under `dicomDir` (one study), runs the demonstration detector,
// writes its findings to `findingsOut` and returns the drafted report (its subject filled from
// the images). Throws Error naming the folder when it holds no mammograms.
report::MammographyReport draftSampleMammographyReport(const std::filesystem::path& dicomDir,
                                                       const std::filesystem::path& findingsOut,
                                                       ProgressSink& progress);

// The measurement report of `labels` over `image`, with the image's patient and study.
report::MeasurementReport sampleMeasurementReport(const LabelMap& labels, const Volume& image,
                                                  ProgressSink& progress);

}  // namespace delineate::core::sample
