#include "core/deid/DeidBatch.h"

#include <dcmtk/config/osconfig.h>  // must come first
#include <dcmtk/dcmdata/dcdatset.h>
#include <dcmtk/dcmdata/dcfilefo.h>
#include <dcmtk/dcmdata/dcxfer.h>

#include <algorithm>
#include <cctype>
#include <cstring>
#include <fstream>
#include <map>
#include <memory>
#include <nlohmann/json.hpp>

#include "core/Error.h"
#include "core/deid/DeidentificationRecord.h"
#include "core/deid/Deidentifier.h"
#include "core/deid/NiftiDeidentifier.h"
#include "core/deid/ReidentificationMap.h"
#include "core/io/AtomicFile.h"
#include "core/io/DicomCodecs.h"
#include "core/io/DicomCondition.h"

namespace delineate::core::deid {

namespace fs = std::filesystem;
using nlohmann::json;
using Status = DeidResult::Status;

namespace {

fs::path normalised(const fs::path& p) {
  std::error_code ec;
  fs::path out = fs::weakly_canonical(fs::absolute(p, ec), ec);
  return ec ? fs::absolute(p).lexically_normal() : out;
}

bool isInside(const fs::path& path, const fs::path& folder) {
  const fs::path p = normalised(path);
  const fs::path f = normalised(folder);
  auto pi = p.begin();
  for (auto fi = f.begin(); fi != f.end(); ++fi, ++pi) {
    if (fi->empty()) {
      continue;  // trailing separator
    }
    if (pi == p.end() || *pi != *fi) {
      return false;
    }
  }
  return true;
}

void checkMapOutside(const ReidentificationMap& map, const fs::path& outDir) {
  if (isInside(map.path(), outDir)) {
    throw Error(ErrorKind::InvalidInput, map.path().string(),
                "the re-identification map must stay on the workstation, not inside the output "
                "folder " +
                    outDir.string());
  }
}

bool hasDicomPrefix(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  char magic[132] = {};
  in.read(magic, sizeof magic);
  return in.gcount() == 132 && std::memcmp(magic + 128, "DICM", 4) == 0;
}

// Whether to read `path` as DICOM: the "DICM" prefix, a DICOM extension, or (files written
// without preamble) a first tag in group 0002 or 0008. Anything else is not an image: reported as
// skipped, so that the notes and label tables beside the images do not fail a batch.
bool looksLikeDicom(const fs::path& path) {
  if (hasDicomPrefix(path)) {
    return true;
  }
  std::string ext = path.extension().string();
  std::transform(ext.begin(), ext.end(), ext.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  if (ext == ".dcm" || ext == ".dicom" || ext == ".ima") {
    return true;
  }
  std::ifstream in(path, std::ios::binary);
  unsigned char head[8] = {};
  in.read(reinterpret_cast<char*>(head), sizeof head);
  return in.gcount() == 8 && (head[0] == 0x02 || head[0] == 0x08) && head[1] == 0x00 &&
         head[3] == 0x00;
}

DeidResult deidentifyDicom(const fs::path& input, const fs::path& outDir,
                           const DeidOptions& options, ReidentificationMap& map) {
  const std::string where = input.string();
  DeidResult result;
  result.input = input;
  DcmFileFormat file;
  const OFCondition loaded =
      file.loadFile(input.c_str(), EXS_Unknown, EGL_noChange, DCM_MaxReadLength, ERM_autoDetect);
  if (loaded.bad()) {
    if (!hasDicomPrefix(input)) {
      throw Error(ErrorKind::InvalidInput, where, "not a DICOM or NIfTI file");
    }
    throw dicomError(loaded, where, "reading the file");
  }
  const DatasetOutcome outcome = Deidentifier(options, map).apply(*file.getDataset(), where);
  if (outcome.heldBackReason) {
    result.status = Status::HeldBack;
    result.reason = *outcome.heldBackReason;
    return result;
  }
  // A fresh file around the data set: new meta header (no source AE title, no private meta
  // information) and an all-zero preamble, which PS3.15 E.1.1 asks for because either may hold
  // identifying bytes of the original.
  DcmDataset* dataset = file.getAndRemoveDataset();
  DcmFileFormat clean(dataset, OFFalse);
  E_TransferSyntax xfer = dataset->getOriginalXfer();
  if (xfer == EXS_Unknown) {
    xfer = EXS_LittleEndianExplicit;
  }
  const fs::path folder =
      outDir / outcome.patientPseudonym / outcome.studyInstanceUid / outcome.seriesInstanceUid;
  std::error_code ec;
  fs::create_directories(folder, ec);
  if (ec) {
    throw Error(ErrorKind::Io, folder.string(), "cannot create the output folder: " + ec.message());
  }
  const fs::path target = folder / (outcome.sopInstanceUid + ".dcm");
  const fs::path temporary = temporarySiblingPath(target);
  const OFCondition saved = clean.saveFile(temporary.c_str(), xfer, EET_ExplicitLength,
                                           EGL_recalcGL, EPD_noChange, 0, 0, EWM_createNewMeta);
  if (saved.bad()) {
    fs::remove(temporary, ec);
    throw dicomError(saved, target.string(), "writing the de-identified file");
  }
  commitAtomically(temporary, target);
  result.status = Status::Written;
  result.output = target;
  return result;
}

std::string niftiExtension(const fs::path& path) {
  const std::string name = path.filename().string();
  return name.size() > 3 && name.compare(name.size() - 3, 3, ".gz") == 0 ? ".nii.gz" : ".nii";
}

DeidResult deidentifyNifti(const fs::path& input, const fs::path& outDir,
                           ReidentificationMap& map) {
  DeidResult result;
  result.input = input;
  std::error_code ec;
  fs::create_directories(outDir, ec);
  if (ec) {
    throw Error(ErrorKind::Io, outDir.string(), "cannot create the output folder: " + ec.message());
  }
  const fs::path target = outDir / map.fileName(normalised(input).string(), niftiExtension(input));
  writeDeidentifiedNifti(input, target);
  result.status = Status::Written;
  result.output = target;
  return result;
}

}  // namespace

const char* toString(DeidResult::Status status) {
  switch (status) {
    case Status::Written:
      return "written";
    case Status::HeldBack:
      return "held back";
    case Status::Failed:
      return "failed";
    case Status::Skipped:
      return "skipped";
  }
  return "unknown";
}

DeidResult deidentifyFile(const fs::path& input, const fs::path& outDir, const DeidOptions& options,
                          ReidentificationMap& map) {
  checkMapOutside(map, outDir);
  ensureDicomCodecs();  // also sets the toolkit's log level, as everywhere in the workstation
  if (!isNiftiPath(input) && !looksLikeDicom(input)) {
    DeidResult skipped;
    skipped.status = Status::Skipped;
    skipped.input = input;
    skipped.reason = "not a DICOM or NIfTI file";
    return skipped;
  }
  try {
    return isNiftiPath(input) ? deidentifyNifti(input, outDir, map)
                              : deidentifyDicom(input, outDir, options, map);
  } catch (const CancelledError&) {
    throw;
  } catch (const Error& e) {
    // Messages name the file and the problem, never a value read from it.
    DeidResult failed;
    failed.input = input;
    failed.reason = e.where() == input.string() ? e.detail() : e.what();
    return failed;
  } catch (const std::bad_alloc&) {
    DeidResult failed;
    failed.input = input;
    failed.reason = "out of memory";
    return failed;
  }
}

std::size_t DeidSummary::count(Status status) const {
  return static_cast<std::size_t>(std::count_if(
      results.begin(), results.end(), [&](const DeidResult& r) { return r.status == status; }));
}

json DeidSummary::toJson() const {
  json out{{"written", json::array()},
           {"heldBack", json::array()},
           {"failed", json::array()},
           {"skipped", json::array()}};
  for (const DeidResult& r : results) {
    switch (r.status) {
      case Status::Written:
        out["written"].push_back({{"input", r.input.string()}, {"output", r.output.string()}});
        break;
      case Status::HeldBack:
        out["heldBack"].push_back({{"input", r.input.string()}, {"reason", r.reason}});
        break;
      case Status::Failed:
        out["failed"].push_back({{"input", r.input.string()}, {"reason", r.reason}});
        break;
      case Status::Skipped:
        out["skipped"].push_back({{"input", r.input.string()}, {"reason", r.reason}});
        break;
    }
  }
  out["counts"] = {{"written", count(Status::Written)},
                   {"heldBack", count(Status::HeldBack)},
                   {"failed", count(Status::Failed)},
                   {"skipped", count(Status::Skipped)}};
  return out;
}

DeidSummary deidentifyBatch(const fs::path& input, const fs::path& outDir,
                            const DeidOptions& options, ReidentificationMap& map,
                            ProgressSink& progress) {
  std::error_code ec;
  if (!fs::exists(input, ec)) {
    throw Error(ErrorKind::Io, input.string(), "no such file or folder");
  }
  checkMapOutside(map, outDir);
  checkRecordAllows(outDir, options);
  fs::create_directories(outDir, ec);
  if (ec) {
    throw Error(ErrorKind::Io, outDir.string(), "cannot create the output folder: " + ec.message());
  }

  std::vector<fs::path> files;
  if (fs::is_directory(input, ec)) {
    const fs::path out = normalised(outDir);
    for (auto it = fs::recursive_directory_iterator(
             input, fs::directory_options::skip_permission_denied, ec);
         !ec && it != fs::recursive_directory_iterator(); it.increment(ec)) {
      if (it->is_directory(ec) && normalised(it->path()) == out) {
        it.disable_recursion_pending();  // OUT inside IN: never read our own output
        continue;
      }
      if (it->is_regular_file(ec)) {
        files.push_back(it->path());
      }
    }
    if (ec) {
      throw Error(ErrorKind::Io, input.string(), "cannot list the folder: " + ec.message());
    }
    std::sort(files.begin(), files.end());
  } else {
    files.push_back(input);
  }

  DeidSummary summary;
  std::map<fs::path, fs::path> writtenFrom;  // output -> the input that produced it
  const fs::path mapPath = normalised(map.path());
  try {
    for (std::size_t i = 0; i < files.size(); ++i) {
      progress.throwIfCancelled();
      progress.report(
          double(i) / double(files.size()),
          "de-identifying file " + std::to_string(i + 1) + " of " + std::to_string(files.size()));
      const fs::path& file = files[i];
      DeidResult result;
      result.input = file;
      if (file.filename().string().front() == '.') {
        result.status = Status::Skipped;
        result.reason = "hidden file";
      } else if (normalised(file) == mapPath) {
        result.status = Status::Skipped;
        result.reason = "the re-identification map";
      } else {
        result = deidentifyFile(file, outDir, options, map);
      }
      if (result.status == Status::Written) {
        const auto [it, fresh] = writtenFrom.emplace(result.output, file);
        if (!fresh) {
          // Same SOP Instance UID: the earlier file's copy was just replaced by this one's.
          result.status = Status::Skipped;
          result.reason = "same SOP Instance UID as " + it->second.string();
          result.output.clear();
        }
      }
      summary.results.push_back(std::move(result));
    }
  } catch (...) {
    map.save();
    throw;
  }
  map.save();
  writeDeidentificationRecord(outDir, options, summary);
  progress.report(1.0, "de-identified");
  return summary;
}

}  // namespace delineate::core::deid
