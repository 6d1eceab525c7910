#include "core/sample/SampleWriter.h"

#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <fstream>

#include "core/Error.h"
#include "core/io/DicomSeriesWriter.h"
#include "core/io/LabelMapFileIO.h"
#include "core/io/SegmentTableJson.h"
#include "core/io/VolumeFileIO.h"
#include "core/report/MammographyReportJson.h"
#include "core/report/MeasurementReportJson.h"
#include "core/sample/DceMrSample.h"
#include "core/sample/SampleCase.h"
#include "core/sample/SampleRandom.h"
#include "core/sample/SampleReaders.h"
#include "core/sample/SampleReports.h"
#include "core/sample/UltrasoundCineSample.h"

namespace delineate::core::sample {

namespace fs = std::filesystem;

namespace {

constexpr const char* kStampName = ".delineate-sample-v4";

void writeVolumetricCase(const SampleCase& c, const fs::path& dir, ProgressSink& progress) {
  fs::create_directories(dir / "dicom");
  DicomWriteOptions options;
  options.filePrefix = c.image->info().modality;
  SubProgress dicomProgress(progress, 0.0, 0.8);
  writeDicomSeries(*c.image, dir / "dicom", options, dicomProgress);
  progress.report(0.8, "Writing NIfTI");
  writeVolumeFile(*c.image, dir / (c.name + ".nii.gz"));
  writeVolumeFile(*c.labels, dir / (c.name + "_labels.nii.gz"));
  writeSegmentTable(c.segments, dir / (c.name + "_labels.json"));
  progress.report(1.0, "Done");
}

std::vector<std::pair<std::string, std::string>> mammoAttributes(const SampleCase& c) {
  const auto& info = c.image->info();
  const bool right = info.laterality == "R";
  const bool mlo = info.viewPosition == "MLO";
  // Rows run from nipple to chest wall (R: toward posterior) and columns top to bottom.
  std::string orientation = right ? "P\\" : "A\\";
  orientation += mlo ? "F" : (right ? "L" : "R");
  const std::string spacing = "0.13\\0.13";
  return {{"ImageLaterality", info.laterality}, {"ViewPosition", info.viewPosition},
          {"PatientOrientation", orientation},  {"PresentationIntentType", "FOR PRESENTATION"},
          {"BodyPartExamined", "BREAST"},       {"ImagerPixelSpacing", spacing},
          {"BurnedInAnnotation", "NO"}};
}

// The same image stored the other way round: MONOCHROME1, 4095 - value, its own UIDs.
VolumePtr asMonochrome1(const Volume& v, std::uint64_t seed) {
  auto voxels = std::make_shared<VoxelBuffer>(ScalarType::UInt16, v.voxels().count());
  const auto* in = v.data<std::uint16_t>();
  auto* out = voxels->as<std::uint16_t>();
  for (std::size_t i = 0; i < voxels->count(); ++i) {
    out[i] = static_cast<std::uint16_t>(4095 - std::min<std::uint16_t>(in[i], 4095));
  }
  VolumeInfo info = v.info();
  info.photometric = "MONOCHROME1";
  info.studyInstanceUid = deterministicUid(seed, info.studyInstanceUid + "/m1");
  info.seriesInstanceUid = deterministicUid(seed, info.seriesInstanceUid + "/m1");
  info.accessionNumber += "M1";
  info.studyDescription += " (MONOCHROME1)";
  for (auto& w : info.windows) {
    w.center = 4095 - w.center;
  }
  return std::make_shared<const Volume>(v.geometry(), std::move(voxels), std::move(info));
}

void writeMammoStudy(const fs::path& dir, std::uint64_t seed, bool prior, bool monochrome1,
                     ProgressSink& progress) {
  fs::create_directories(dir / "dicom");
  fs::create_directories(dir / "labels");
  const char* views[4][2] = {{"R", "CC"}, {"L", "CC"}, {"R", "MLO"}, {"L", "MLO"}};
  std::vector<Segment> segments;
  for (int v = 0; v < 4; ++v) {
    progress.throwIfCancelled();
    progress.report(v / 4.0, "Mammography views");
    SampleCase c = makeMammogram(seed, views[v][0], views[v][1], prior);
    DicomWriteOptions options;
    options.filePrefix = c.name;
    options.attributes = mammoAttributes(c);
    options.bitsStored = 12;
    VolumePtr image = monochrome1 ? asMonochrome1(*c.image, seed) : c.image;
    NullProgress quiet;
    writeDicomSeries(*image, dir / "dicom", options, quiet);
    writeVolumeFile(*c.labels, dir / "labels" / (c.name + "_labels.nii.gz"));
    segments = c.segments;
  }
  writeSegmentTable(segments, dir / "labels" / "segments.json");
}

// reports/brain-mr-measurements.json: over the label map as the app opens it (its name is the
// label file's stem, so the report's links match the segments there).
void writeBrainMeasurementReport(const SampleCase& brain, const fs::path& outDir,
                                 ProgressSink& progress) {
  progress.report(0.3, "Brain MR measurement report");
  const LabelMap labels = readLabelMapFiles(outDir / "brain-mr" / "brain-mr_labels.nii.gz");
  SubProgress p(progress, 0.3, 0.35);
  fs::create_directories(outDir / "reports");
  report::writeMeasurementReport(sampleMeasurementReport(labels, *brain.image, p),
                                 outDir / "reports" / "brain-mr-measurements.json");
}

}  // namespace

void writeSampleData(const fs::path& outDir, std::uint64_t seed, ProgressSink& progress) {
  std::error_code ec;
  fs::create_directories(outDir, ec);
  if (ec) {
    throw Error(ErrorKind::Io, outDir.string(), "cannot create folder: " + ec.message());
  }
  progress.report(0.0, "Brain MR");
  {
    SubProgress p(progress, 0.0, 0.3);
    const SampleCase brain = makeBrainMr(seed);
    writeVolumetricCase(brain, outDir / "brain-mr", p);
    fs::create_directories(outDir / "brain-mr" / "readers");
    for (const LabelMap& reader : sampleReaders(brain)) {
      writeLabelMapFiles(reader, outDir / "brain-mr" / "readers" / (reader.name() + ".nii.gz"));
    }
    writeBrainMeasurementReport(brain, outDir, progress);
  }
  progress.throwIfCancelled();
  progress.report(0.35, "Abdominal CT");
  {
    SubProgress p(progress, 0.35, 0.7);
    writeVolumetricCase(makeAbdomenCt(seed), outDir / "abdomen-ct", p);
  }
  {
    SubProgress p(progress, 0.7, 0.8);
    writeMammoStudy(outDir / "mammo" / "screening-2026", seed, false, false, p);
  }
  {
    SubProgress p(progress, 0.8, 0.9);
    writeMammoStudy(outDir / "mammo" / "screening-2026-monochrome1", seed, false, true, p);
  }
  {
    SubProgress p(progress, 0.9, 0.95);
    writeMammoStudy(outDir / "mammo" / "screening-2024", seed, true, false, p);
  }
  progress.report(0.95, "Ultrasound cine and DCE MR");
  writeUltrasoundCine(outDir / "ultrasound" / "carotid-cine.dcm", seed);
  writeDceMrSeries(outDir / "dce-mr" / "dicom", seed);
  {
    SubProgress p(progress, 0.96, 1.0);
    const fs::path study = outDir / "mammo" / "screening-2026";
    report::writeMammographyReport(
        draftSampleMammographyReport(study / "dicom", study / "ai-findings.json", p),
        outDir / "reports" / "screening-2026-mammography.json");
  }
  std::ofstream(outDir / "README.txt")
      << "Delineate synthetic sample data (seed " << seed << "). Not patient data.\n"
      << "brain-mr/    T1-like brain MR with grey/white matter, ventricles and a two-part\n"
      << "             hippocampus on each side (DICOM, NIfTI, label map + segment JSON);\n"
      << "             readers/: two more readers' label maps of it, for Analysis > Readers\n"
      << "abdomen-ct/  contrast CT with liver, spleen, kidneys and lesions; a metal skin\n"
      << "             marker lies on the patient's LEFT\n"
      << "mammo/       4-view screening mammography (current, MONOCHROME1 copy, prior);\n"
      << "             screening-2026/ai-findings.json: the demonstration detector's findings\n"
      << "ultrasound/  a colour Doppler cine loop (RGB, 25 frames a second) to play\n"
      << "dce-mr/      a 4-D dynamic contrast breast MR (8 time points): play it, plot the\n"
      << "             lesion's wash-in and wash-out in the frame curve\n"
      << "reports/     an AI-drafted mammography report (DEMONSTRATION, not a diagnosis) and\n"
      << "             the brain MR's measurement report, to open, edit, sign and export\n";
  std::ofstream(outDir / kStampName) << seed << "\n";
  progress.report(1.0, "Done");
}

fs::path defaultSampleRoot() {
  if (const char* env = std::getenv("DELINEATE_SAMPLE_DIR"); env && *env) {
    return env;
  }
  fs::path base;
  if (const char* xdg = std::getenv("XDG_CACHE_HOME"); xdg && *xdg) {
    base = xdg;
  } else if (const char* home = std::getenv("HOME"); home && *home) {
    base = fs::path(home) / ".cache";
  } else {
    base = fs::temp_directory_path();
  }
  return base / "delineate" / "sample-v2";
}

fs::path ensureSampleAt(const fs::path& root, ProgressSink& progress) {
  if (fs::exists(root / kStampName)) {
    return root;
  }
  std::error_code ec;
  fs::create_directories(root.parent_path(), ec);
  const fs::path lockPath = root.string() + ".lock";
  const int lock = ::open(lockPath.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0644);
  if (lock < 0) {
    throw Error(ErrorKind::Io, lockPath.string(), std::string("cannot open: ") + strerror(errno));
  }
  struct Unlock {
    int fd;
    ~Unlock() { ::close(fd); }  // closing releases the lock
  } unlock{lock};
  while (::flock(lock, LOCK_EX) != 0) {
    if (errno != EINTR) {
      throw Error(ErrorKind::Io, lockPath.string(), std::string("cannot lock: ") + strerror(errno));
    }
  }
  if (fs::exists(root / kStampName)) {
    return root;  // written by another process while this one waited
  }
  const fs::path partial = root.string() + ".partial";
  fs::remove_all(partial, ec);
  fs::remove_all(root, ec);  // an incomplete copy (no stamp) of an older run
  writeSampleData(partial, kDefaultSeed, progress);
  fs::rename(partial, root, ec);
  if (ec) {
    throw Error(ErrorKind::Io, root.string(), "cannot move the sample into place: " + ec.message());
  }
  return root;
}

fs::path ensureDefaultSample(ProgressSink& progress) {
  return ensureSampleAt(defaultSampleRoot(), progress);
}

fs::path defaultSamplePath() {
  return defaultSampleRoot() / "brain-mr" / "dicom";
}

}  // namespace delineate::core::sample
