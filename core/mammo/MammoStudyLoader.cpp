#include "core/mammo/MammoStudyLoader.h"

#include <atomic>
#include <mutex>

#include "core/Error.h"
#include "core/io/DicomHeader.h"
#include "core/io/DicomScanner.h"
#include "core/io/DicomSeriesLoader.h"
#include "core/jobs/ParallelFor.h"
#include "core/mammo/ChestWallSide.h"
#include "core/mammo/MammoViewDicom.h"

namespace delineate::core::mammo {

namespace {

constexpr const char* kMammographyCadSrClass = "1.2.840.10008.5.1.4.1.1.88.50";

bool isMammoModality(const std::string& modality) {
  return modality == "MG" || modality == "DX" || modality == "CR";
}

void addFile(const std::string& file, MammoStudyFiles& out) {
  try {
    const DicomFileHeader header = readDicomHeader(file);
    if (header.isImage && isMammoModality(header.modality)) {
      out.views.push_back(mammoViewOf(header, file));
    } else if (header.sopClassUid == kMammographyCadSrClass) {
      out.cadReports.push_back(file);
    }
  } catch (const Error& e) {
    out.problems.push_back(file + ": " + e.detail());
  }
}

}  // namespace

MammoStudyFiles scanMammoFiles(const std::vector<std::filesystem::path>& paths,
                               ProgressSink& progress) {
  MammoStudyFiles out;
  for (std::size_t i = 0; i < paths.size(); ++i) {
    SubProgress part(progress, static_cast<double>(i) / paths.size(),
                     static_cast<double>(i + 1) / paths.size());
    std::error_code ec;
    if (std::filesystem::is_regular_file(paths[i], ec)) {
      addFile(paths[i].string(), out);
      continue;
    }
    const DicomScanResult scan = scanDicomFolder(paths[i], part);
    for (const DicomSeries* series : scan.allSeries()) {
      if (!isMammoModality(series->modality)) {
        continue;
      }
      for (const std::string& file : series->files) {
        addFile(file, out);
      }
    }
    for (const DicomObjectFile& object : scan.nonImageObjects) {
      if (object.sopClassUid == kMammographyCadSrClass) {
        out.cadReports.push_back(object.file);
      }
    }
    for (const auto& p : scan.problems) {
      out.problems.push_back(p.file + ": " + p.message);
    }
  }
  return out;
}

VolumePtr loadMammoFile(const std::string& file, ProgressSink& progress) {
  DicomSeries series;
  series.files = {file};
  series.description = std::filesystem::path(file).filename().string();
  return loadDicomSeries(series, progress);
}

std::vector<std::string> loadMammoImages(
    const MammoStudyFiles& files, const std::vector<std::size_t>& indices, ProgressSink& progress,
    const std::function<void(const LoadedMammoImage&)>& ready) {
  std::vector<std::string> problems;
  std::mutex mutex;
  std::atomic<std::size_t> done{0};
  const double n = static_cast<double>(std::max<std::size_t>(1, indices.size()));
  parallelFor(indices.size(), std::min(2u, hardwareThreads()), progress, [&](std::size_t k) {
    const std::size_t index = indices[k];
    const MammoView& view = files.views.at(index);
    try {
      // Per-image progress would jump between the two threads: hold the study's fraction.
      const double at = static_cast<double>(done.load()) / n;
      SubProgress quiet(progress, at, at);
      VolumePtr volume = loadMammoFile(view.id, quiet);
      progress.throwIfCancelled();
      LoadedMammoImage image;
      image.index = index;
      image.monochrome1 = volume->info().photometric == "MONOCHROME1";
      // A tomosynthesis stack opens at its middle frame.
      const std::size_t frame = volume->geometry().size[2] / 2;
      auto preview = ImagePyramid::create(volume, frame);
      preview->buildPreview(3);
      image.storedWall = storedChestWall(*preview, image.monochrome1, view.laterality);
      image.pyramid = preview;
      ready(image);
      auto full = ImagePyramid::create(volume, frame);
      full->buildLevels(quiet);
      image.pyramid = full;
      ready(image);
    } catch (const CancelledError&) {
      throw;
    } catch (const Error& e) {
      std::lock_guard lock(mutex);
      problems.push_back(view.id + ": " + e.detail());
    } catch (const std::bad_alloc&) {
      std::lock_guard lock(mutex);
      problems.push_back(view.id + ": not enough memory to load it");
    }
    progress.report(static_cast<double>(++done) / n, "Loading the mammograms");
  });
  return problems;
}

}  // namespace delineate::core::mammo
