#include "core/report/SrViewFiles.h"

#include <set>

#include "core/Error.h"
#include "core/io/DicomCondition.h"

namespace delineate::core::report::sr {

namespace fs = std::filesystem;

std::vector<DicomFileHeader> readViewHeaders(const std::vector<fs::path>& files) {
  std::vector<DicomFileHeader> views;
  std::set<std::string> seen;
  for (const fs::path& file : files) {
    DicomFileHeader h = readDicomHeader(file.string());
    if (h.sopClassUid.empty() || h.sopInstanceUid.empty()) {
      throw Error(ErrorKind::InvalidInput, file.string(),
                  "no SOP Class or SOP Instance UID, so a report cannot refer to it");
    }
    if (seen.insert(h.sopInstanceUid).second) {
      views.push_back(std::move(h));
    }
  }
  return views;
}

std::optional<std::size_t> viewNamed(const std::string& imageId,
                                     const std::vector<DicomFileHeader>& views) {
  if (imageId.empty()) {
    return std::nullopt;
  }
  for (std::size_t i = 0; i < views.size(); ++i) {
    if (views[i].sopInstanceUid == imageId) {
      return i;
    }
  }
  for (std::size_t i = 0; i < views.size(); ++i) {
    std::error_code ec;
    if (fs::path(views[i].path).lexically_normal() == fs::path(imageId).lexically_normal() ||
        fs::equivalent(views[i].path, imageId, ec)) {
      return i;
    }
  }
  return std::nullopt;
}

void listEvidence(DSRDocument& doc, const std::vector<DicomFileHeader>& views,
                  const std::string& where) {
  for (const DicomFileHeader& v : views) {
    checkDicom(doc.getCurrentRequestedProcedureEvidence().addItem(
                   v.studyInstanceUid.c_str(), v.seriesInstanceUid.c_str(), v.sopClassUid.c_str(),
                   v.sopInstanceUid.c_str(), OFFalse),
               where, "listing the evidence");
  }
}

}  // namespace delineate::core::report::sr
