#pragma once
// `delineate-cli sample OUTDIR`: writes every synthetic study as DICOM and NIfTI with its ground
// truth label map and segment table.
#include <cstdint>
#include <filesystem>

#include "core/jobs/ProgressSink.h"

namespace delineate::core::sample {

constexpr std::uint64_t kDefaultSeed = 20261121;

// Layout under `outDir`:
//   brain-mr/dicom/*.dcm, brain-mr/brain-mr.nii.gz, brain-mr/brain-mr_labels.nii.gz,
//   brain-mr/brain-mr_labels.json                                  (likewise abdomen-ct/)
//   mammo/screening-2026/dicom/*.dcm + labels/*_labels.nii.gz + labels/segments.json
//   mammo/screening-2026-monochrome1/dicom/*.dcm   (same images stored as MONOCHROME1)
//   mammo/screening-2024/...                        (the prior exam of the same patient)
//   mammo/screening-2026/ai-findings.json           (the demonstration detector's findings)
//   ultrasound/carotid-cine.dcm                     (colour Doppler cine, UltrasoundCineSample.h)
//   dce-mr/dicom/*.dcm                              (4-D DCE breast MR, DceMrSample.h)
//   reports/screening-2026-mammography.json         (AI-drafted BI-RADS report, SampleReports.h)
//   reports/brain-mr-measurements.json              (measurement report of the brain MR)
// Deterministic: the same seed gives the same voxels and UIDs.
void writeSampleData(const std::filesystem::path& outDir, std::uint64_t seed,
                     ProgressSink& progress);

// The per-user folder holding the built-in sample ($XDG_CACHE_HOME or ~/.cache, /delineate/...).
std::filesystem::path defaultSampleRoot();
// Writes the sample (default seed) into `root` unless a complete copy is already there; returns
// `root`. Safe when several processes ask at once (two app windows on first start, tests run in
// parallel): the first writes the copy beside `root` and renames it into place while holding an
// exclusive lock on "<root>.lock"; the others wait for the lock and find the copy.
std::filesystem::path ensureSampleAt(const std::filesystem::path& root, ProgressSink& progress);
// ensureSampleAt(defaultSampleRoot()).
std::filesystem::path ensureDefaultSample(ProgressSink& progress);
// What the app opens when started without a path: the brain MR DICOM series of the default sample.
std::filesystem::path defaultSamplePath();

}  // namespace delineate::core::sample
