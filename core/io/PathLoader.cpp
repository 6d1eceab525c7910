#include "core/io/PathLoader.h"

#include <algorithm>
#include <cctype>

#include "core/Error.h"
#include "core/io/DicomScanner.h"
#include "core/io/DicomSeriesLoader.h"
#include "core/io/VolumeFileIO.h"

namespace delineate::core {

namespace fs = std::filesystem;

std::optional<std::size_t> largestSeries(const DicomScanResult& scan) {
  const auto all = scan.allSeries();
  std::optional<std::size_t> best;
  for (std::size_t i = 0; i < all.size(); ++i) {
    if (!best || all[i]->frames > all[*best]->frames) {
      best = i;
    }
  }
  return best;
}

OpenedPath openPath(const fs::path& path, ProgressSink& progress) {
  std::error_code ec;
  OpenedPath out;
  if (!fs::exists(path, ec)) {
    throw Error(ErrorKind::Io, path.string(), "no such file or folder");
  }
  if (fs::is_regular_file(path, ec) && isVolumeFile(path)) {
    out.volume = readVolumeFile(path, progress);
    return out;
  }
  // A DICOMDIR opens the media it indexes: the files lie in its folder and below.
  std::string name = path.filename().string();
  std::transform(name.begin(), name.end(), name.begin(),
                 [](unsigned char c) { return static_cast<char>(std::toupper(c)); });
  const bool folder = fs::is_directory(path, ec) || name == "DICOMDIR";
  const fs::path scanRoot = fs::is_directory(path, ec) ? path : path.parent_path();
  {
    SubProgress scanProgress(progress, 0.0, 0.2);
    out.scan = scanDicomFolder(scanRoot, scanProgress);
  }
  const auto all = out.scan.allSeries();
  if (all.empty()) {
    std::string why = folder ? "no DICOM images or image files found" : "not a DICOM or image file";
    if (!out.scan.problems.empty()) {
      why += "; first problem: " + out.scan.problems.front().file + ": " +
             out.scan.problems.front().message;
    }
    throw Error(ErrorKind::InvalidInput, path.string(), why);
  }
  if (folder) {
    out.shownSeries = largestSeries(out.scan);
  } else {
    const fs::path wanted = fs::weakly_canonical(path, ec);
    for (std::size_t i = 0; i < all.size() && !out.shownSeries; ++i) {
      for (const auto& f : all[i]->files) {
        if (fs::weakly_canonical(f, ec) == wanted) {
          out.shownSeries = i;
          break;
        }
      }
    }
    if (!out.shownSeries) {
      std::string why = "not a readable DICOM image";
      for (const auto& p : out.scan.problems) {
        if (fs::weakly_canonical(p.file, ec) == wanted) {
          why = p.message;
        }
      }
      throw Error(ErrorKind::InvalidInput, path.string(), why);
    }
  }
  SubProgress loadProgress(progress, 0.2, 1.0);
  out.volume = loadDicomSeries(*all[*out.shownSeries], loadProgress);
  return out;
}

}  // namespace delineate::core
