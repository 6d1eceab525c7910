#include "core/pacs/StudyCache.h"

#include <dcmtk/config/osconfig.h>  // must come first
#include <dcmtk/dcmdata/dcdeftag.h>
#include <dcmtk/dcmdata/dcfilefo.h>

#include <algorithm>
#include <fstream>
#include <map>

#include "core/io/DicomCodecs.h"
#include "core/pacs/DicomGet.h"

namespace delineate::core::pacs {

namespace fs = std::filesystem;

namespace {

constexpr const char* kLastUsed = ".last-used";

std::vector<fs::path> instanceFiles(const fs::path& seriesFolder) {
  std::vector<fs::path> files;
  std::error_code ec;
  for (fs::directory_iterator it(seriesFolder, ec), end; !ec && it != end; it.increment(ec)) {
    if (it->path().extension() == ".dcm" && it->is_regular_file(ec)) {
      files.push_back(it->path());
    }
  }
  std::sort(files.begin(), files.end());
  return files;
}

std::vector<fs::path> seriesFolders(const fs::path& studyFolder) {
  std::vector<fs::path> out;
  std::error_code ec;
  for (fs::directory_iterator it(studyFolder, ec), end; !ec && it != end; it.increment(ec)) {
    if (it->is_directory(ec)) {
      out.push_back(it->path());
    }
  }
  std::sort(out.begin(), out.end());
  return out;
}

std::string text(DcmDataset& d, const DcmTagKey& tag) {
  OFString v;
  d.findAndGetOFStringArray(tag, v);
  return v.c_str();
}

}  // namespace

fs::path StudyCache::studyFolder(const std::string& studyInstanceUid) const {
  return root_ / uidFileName(studyInstanceUid);  // as the retrieves write it
}

std::vector<CachedStudy> StudyCache::studies() const {
  std::vector<CachedStudy> out;
  std::error_code ec;
  for (fs::directory_iterator it(root_, ec), end; !ec && it != end; it.increment(ec)) {
    if (!it->is_directory(ec)) {
      continue;
    }
    CachedStudy s;
    s.studyInstanceUid = it->path().filename().string();
    s.folder = it->path();
    std::error_code timeError;
    const fs::path marker = it->path() / kLastUsed;
    s.lastUsed = fs::exists(marker, timeError) ? fs::last_write_time(marker, timeError)
                                               : fs::last_write_time(it->path(), timeError);
    std::error_code walk;
    for (fs::recursive_directory_iterator f(it->path(), walk), fend; !walk && f != fend;
         f.increment(walk)) {
      std::error_code sizeError;
      if (f->is_regular_file(sizeError)) {
        s.bytes += f->file_size(sizeError);
      }
    }
    out.push_back(std::move(s));
  }
  std::sort(out.begin(), out.end(),
            [](const CachedStudy& a, const CachedStudy& b) { return a.lastUsed > b.lastUsed; });
  return out;
}

std::uintmax_t StudyCache::totalBytes() const {
  std::uintmax_t total = 0;
  for (const CachedStudy& s : studies()) {
    total += s.bytes;
  }
  return total;
}

void StudyCache::touch(const std::string& studyInstanceUid) const {
  const fs::path folder = studyFolder(studyInstanceUid);
  std::error_code ec;
  if (!fs::is_directory(folder, ec)) {
    return;
  }
  std::ofstream(folder / kLastUsed, std::ios::trunc) << "\n";
  fs::last_write_time(folder / kLastUsed, fs::file_time_type::clock::now(), ec);
}

std::vector<std::string> StudyCache::evict(std::uintmax_t limitBytes,
                                           const std::set<std::string>& keep) const {
  std::vector<CachedStudy> all = studies();
  std::uintmax_t total = 0;
  for (const CachedStudy& s : all) {
    total += s.bytes;
  }
  std::vector<std::string> removed;
  for (auto it = all.rbegin(); it != all.rend() && total > limitBytes; ++it) {  // oldest first
    if (keep.count(it->studyInstanceUid) != 0) {
      continue;
    }
    std::error_code ec;
    fs::remove_all(it->folder, ec);
    if (!ec) {
      total -= std::min(total, it->bytes);
      removed.push_back(it->studyInstanceUid);
    }
  }
  return removed;
}

std::vector<SeriesRecord> StudyCache::seriesOf(const std::string& studyInstanceUid) const {
  ensureDicomCodecs();
  std::vector<SeriesRecord> out;
  for (const fs::path& folder : seriesFolders(studyFolder(studyInstanceUid))) {
    const std::vector<fs::path> files = instanceFiles(folder);
    if (files.empty()) {
      continue;
    }
    SeriesRecord s;
    s.studyInstanceUid = studyInstanceUid;
    s.seriesInstanceUid = folder.filename().string();
    s.instanceCount = int(files.size());
    DcmFileFormat f;
    if (f.loadFile(files.front().c_str(), EXS_Unknown, EGL_noChange, 256).good()) {
      DcmDataset& d = *f.getDataset();
      s.modality = text(d, DCM_Modality);
      s.seriesDescription = text(d, DCM_SeriesDescription);
      s.bodyPart = text(d, DCM_BodyPartExamined);
      Sint32 number = -1;
      if (d.findAndGetSint32(DCM_SeriesNumber, number).good()) {
        s.seriesNumber = number;
      }
    }
    out.push_back(std::move(s));
  }
  return out;
}

std::vector<StudyRecord> StudyCache::records(ProgressSink& progress) const {
  ensureDicomCodecs();
  std::vector<StudyRecord> out;
  const std::vector<CachedStudy> all = studies();
  for (std::size_t i = 0; i < all.size(); ++i) {
    progress.throwIfCancelled();
    progress.report(double(i) / double(all.size()), "reading the study cache");
    const std::vector<SeriesRecord> series = seriesOf(all[i].studyInstanceUid);
    if (series.empty()) {
      continue;
    }
    StudyRecord s;
    s.studyInstanceUid = all[i].studyInstanceUid;
    s.seriesCount = int(series.size());
    s.instanceCount = 0;
    for (const SeriesRecord& r : series) {
      s.instanceCount += r.instanceCount;
      if (!r.modality.empty() &&
          std::find(s.modalities.begin(), s.modalities.end(), r.modality) == s.modalities.end()) {
        s.modalities.push_back(r.modality);
      }
    }
    const std::vector<fs::path> files =
        instanceFiles(studyFolder(s.studyInstanceUid) / series.front().seriesInstanceUid);
    DcmFileFormat f;
    if (!files.empty() &&
        f.loadFile(files.front().c_str(), EXS_Unknown, EGL_noChange, 256).good()) {
      DcmDataset& d = *f.getDataset();
      d.convertToUTF8();
      s.patientName = text(d, DCM_PatientName);
      s.patientId = text(d, DCM_PatientID);
      s.patientBirthDate = text(d, DCM_PatientBirthDate);
      s.patientSex = text(d, DCM_PatientSex);
      s.studyDate = text(d, DCM_StudyDate);
      s.studyTime = text(d, DCM_StudyTime);
      s.accessionNumber = text(d, DCM_AccessionNumber);
      s.studyDescription = text(d, DCM_StudyDescription);
    }
    out.push_back(std::move(s));
  }
  return out;
}

}  // namespace delineate::core::pacs
