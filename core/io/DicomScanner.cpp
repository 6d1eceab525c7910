#include "core/io/DicomScanner.h"

#include <dcmtk/config/osconfig.h>  // must come first
#include <dcmtk/dcmdata/dcuid.h>

#include <algorithm>
#include <atomic>
#include <cstring>
#include <fstream>
#include <map>
#include <optional>
#include <tuple>

#include "core/Error.h"
#include "core/io/DicomCodecs.h"
#include "core/io/DicomHeader.h"
#include "core/io/DicomSliceGeometry.h"
#include "core/jobs/ParallelFor.h"

namespace delineate::core {

namespace fs = std::filesystem;

std::vector<const DicomSeries*> DicomScanResult::allSeries() const {
  std::vector<const DicomSeries*> out;
  for (const auto& p : patients) {
    for (const auto& st : p.studies) {
      for (const auto& se : st.series) {
        out.push_back(&se);
      }
    }
  }
  return out;
}

namespace {

enum class Sniff { Part10, BareDataset, NotDicom };

// Cheap look at the first bytes: "DICM" after the 128-byte preamble, or a dataset without
// preamble that starts with a group 0002/0008 element (old ACR-NEMA style files).
Sniff sniff(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  unsigned char b[132] = {};
  in.read(reinterpret_cast<char*>(b), sizeof b);
  const auto got = static_cast<std::size_t>(in.gcount());
  if (got == sizeof b && std::memcmp(b + 128, "DICM", 4) == 0) {
    return Sniff::Part10;
  }
  if (got < 8) {
    return Sniff::NotDicom;
  }
  const unsigned group = b[0] | (b[1] << 8);
  const unsigned element = b[2] | (b[3] << 8);
  if ((group != 0x0002 && group != 0x0008) || element > 0x00ff) {
    return Sniff::NotDicom;
  }
  const bool explicitVr = b[4] >= 'A' && b[4] <= 'Z' && b[5] >= 'A' && b[5] <= 'Z';
  const unsigned long implicitLength = b[4] | (b[5] << 8) |
                                       (static_cast<unsigned long>(b[6]) << 16) |
                                       (static_cast<unsigned long>(b[7]) << 24);
  return explicitVr || implicitLength < 4096 ? Sniff::BareDataset : Sniff::NotDicom;
}

enum class Outcome { Image, NonImage, NotDicom, Problem };

struct FileResult {
  Outcome outcome = Outcome::NotDicom;
  std::optional<DicomFileHeader> header;
  std::string problem;
};

FileResult examine(const fs::path& path) {
  FileResult r;
  const Sniff kind = sniff(path);
  if (kind == Sniff::NotDicom) {
    return r;
  }
  const std::string file = path.string();
  try {
    DicomFileHeader h = readDicomHeader(file);
    if (h.sopClassUid == UID_MediaStorageDirectoryStorage ||
        (!h.isImage && !h.sopClassUid.empty())) {
      r.outcome = Outcome::NonImage;  // a valid object without pixels (SR, KO, PR, DICOMDIR)
      r.header = std::move(h);
      return r;
    }
    if (!h.isImage) {
      throw Error(ErrorKind::InvalidInput, file,
                  "neither an image (no Rows/Columns) nor any other object (no SOPClassUID)");
    }
    std::error_code ec;
    h.checkSizeAgainstFile(fs::file_size(path, ec));
    h.perFrame.resize(std::min<std::size_t>(h.perFrame.size(), 1));  // the scan needs frame 0
    r.header = std::move(h);
    r.outcome = Outcome::Image;
  } catch (const CancelledError&) {
    throw;
  } catch (const Error& e) {
    if (kind == Sniff::BareDataset) {
      r.outcome = Outcome::NotDicom;  // a guess that did not pan out: not worth a complaint
      return r;
    }
    r.outcome = Outcome::Problem;
    r.problem = e.detail();
  }
  return r;
}

std::vector<fs::path> listFiles(const fs::path& folder, ProgressSink& progress) {
  std::error_code ec;
  if (!fs::exists(folder, ec)) {
    throw Error(ErrorKind::Io, folder.string(), "no such folder");
  }
  if (!fs::is_directory(folder, ec)) {
    throw Error(ErrorKind::Io, folder.string(), "not a folder");
  }
  std::vector<fs::path> files;
  try {
    fs::recursive_directory_iterator it(folder, fs::directory_options::skip_permission_denied);
    for (const auto& entry : it) {
      if (files.size() % 256 == 0) {
        progress.throwIfCancelled();
      }
      std::error_code typeError;
      if (entry.is_regular_file(typeError)) {
        files.push_back(entry.path());
      }
    }
  } catch (const fs::filesystem_error& e) {
    throw Error(ErrorKind::Io, folder.string(), std::string("cannot list the folder: ") + e.what());
  }
  std::sort(files.begin(), files.end());
  return files;
}

// Files of one SeriesInstanceUID that share orientation and matrix size.
struct SeriesPart {
  std::optional<std::array<double, 6>> orientation;
  std::size_t rows = 0;
  std::size_t columns = 0;
  bool projection = false;  // one projection image (see isProjectionModality)
  std::vector<const DicomFileHeader*> files;
};

bool isProjectionModality(const std::string& modality) {
  return modality == "MG" || modality == "DX" || modality == "CR" || modality == "PX" ||
         modality == "IO";
}

std::string partSuffix(const SeriesPart& p, std::size_t part, std::size_t parts) {
  std::string s = " [part " + std::to_string(part) + "/" + std::to_string(parts) + ": ";
  if (p.projection) {
    const DicomFileHeader& h = *p.files.front();
    const std::string view = h.laterality + (h.laterality.empty() ? "" : " ") + h.viewPosition;
    return s + (view.empty() ? std::to_string(p.columns) + "x" + std::to_string(p.rows) : view) +
           "]";
  }
  s += std::to_string(p.columns) + "x" + std::to_string(p.rows);
  s += p.orientation ? " " + planeName(*p.orientation) : std::string(", no orientation");
  return s + "]";
}

DicomSeries makeSeries(const SeriesPart& part) {
  std::vector<const DicomFileHeader*> files = part.files;
  std::sort(files.begin(), files.end(), [](const auto* a, const auto* b) {
    return std::make_tuple(a->instanceNumber.value_or(0), a->path) <
           std::make_tuple(b->instanceNumber.value_or(0), b->path);
  });
  const DicomFileHeader& h = *files.front();
  DicomSeries s;
  s.seriesInstanceUid = h.seriesInstanceUid;
  s.modality = h.modality;
  s.description = h.seriesDescription;
  s.seriesNumber = h.seriesNumber;
  s.sopClassUid = h.sopClassUid;
  s.transferSyntaxUid = h.transferSyntaxUid;
  s.frameOfReferenceUid = h.frameOfReferenceUid;
  s.rows = h.rows;
  s.columns = h.columns;
  s.studyInstanceUid = h.studyInstanceUid;
  s.patientId = h.patientId;
  for (const auto* f : files) {
    s.frames += f->frames;
    s.files.push_back(f->path);
  }
  return s;
}

}  // namespace

DicomScanResult scanDicomFolder(const fs::path& folder, ProgressSink& progress) {
  ensureDicomCodecs();
  progress.report(0.0, "Listing files");
  const std::vector<fs::path> files = listFiles(folder, progress);

  std::vector<FileResult> results(files.size());
  std::atomic<std::size_t> done{0};
  parallelFor(files.size(), files.size() >= 16 ? std::min(hardwareThreads(), 4u) : 1, progress,
              [&](std::size_t i) {
                results[i] = examine(files[i]);
                const std::size_t k = done.fetch_add(1) + 1;
                if (k % 16 == 0 || k == files.size()) {
                  progress.report(
                      0.05 + 0.9 * static_cast<double>(k) / static_cast<double>(files.size()),
                      "Reading DICOM headers");
                }
              });

  DicomScanResult out;
  out.filesScanned = files.size();
  // patient key -> study uid -> series key -> parts
  std::map<std::string, std::map<std::string, std::map<std::string, std::vector<SeriesPart>>>> tree;
  std::map<std::string, const DicomFileHeader*> patientOf;
  std::map<std::string, const DicomFileHeader*> studyOf;
  for (std::size_t i = 0; i < files.size(); ++i) {
    FileResult& r = results[i];
    switch (r.outcome) {
      case Outcome::NotDicom:
        ++out.nonDicomFiles;
        continue;
      case Outcome::NonImage:
        ++out.nonDicomFiles;
        ++out.nonImageDicomFiles;
        if (r.header->sopClassUid != UID_MediaStorageDirectoryStorage) {
          out.nonImageObjects.push_back(
              {files[i].string(), r.header->sopClassUid, r.header->studyInstanceUid});
        }
        continue;
      case Outcome::Problem:
        out.problems.push_back({files[i].string(), r.problem});
        continue;
      case Outcome::Image:
        break;
    }
    const DicomFileHeader& h = *r.header;
    const std::string patientKey = h.patientName + '\x1f' + h.patientId;
    const std::string seriesKey = h.seriesInstanceUid.empty()
                                      ? "folder:" + files[i].parent_path().string()
                                      : h.seriesInstanceUid;
    patientOf.emplace(patientKey, &h);
    studyOf.emplace(patientKey + '\x1f' + h.studyInstanceUid, &h);
    auto& parts = tree[patientKey][h.studyInstanceUid][seriesKey];
    const auto orientation = h.frame(0).orientation;
    // Projection images (mammograms, radiographs) are separate pictures, never slices of one
    // volume: each file becomes its own part.
    const bool projection = isProjectionModality(h.modality);
    auto match = std::find_if(parts.begin(), parts.end(), [&](const SeriesPart& p) {
      if (projection || p.projection || p.rows != h.rows || p.columns != h.columns ||
          p.orientation.has_value() != orientation.has_value()) {
        return false;
      }
      return !orientation || sameOrientation(*p.orientation, *orientation);
    });
    if (match == parts.end()) {
      parts.push_back({orientation, h.rows, h.columns, projection, {}});
      match = parts.end() - 1;
    }
    match->files.push_back(&h);
  }

  for (const auto& [patientKey, studies] : tree) {
    const DicomFileHeader& ph = *patientOf.at(patientKey);
    DicomPatient patient{ph.patientName, ph.patientId, ph.patientBirthDate, ph.patientSex, {}};
    for (const auto& [studyUid, seriesMap] : studies) {
      const DicomFileHeader& sh = *studyOf.at(patientKey + '\x1f' + studyUid);
      DicomStudy study{studyUid, sh.studyDate, sh.studyDescription, sh.accessionNumber, {}};
      for (const auto& [seriesKey, parts] : seriesMap) {
        for (std::size_t p = 0; p < parts.size(); ++p) {
          DicomSeries s = makeSeries(parts[p]);
          if (parts.size() > 1) {
            s.part = static_cast<int>(p + 1);
            s.description += partSuffix(parts[p], p + 1, parts.size());
          }
          study.series.push_back(std::move(s));
        }
      }
      std::stable_sort(study.series.begin(), study.series.end(), [](const auto& a, const auto& b) {
        return std::tie(a.seriesNumber, a.description) < std::tie(b.seriesNumber, b.description);
      });
      patient.studies.push_back(std::move(study));
    }
    std::stable_sort(patient.studies.begin(), patient.studies.end(),
                     [](const auto& a, const auto& b) { return a.date < b.date; });
    out.patients.push_back(std::move(patient));
  }
  progress.report(1.0, "Done");
  return out;
}

}  // namespace delineate::core
