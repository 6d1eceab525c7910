#pragma once
// One PACS, whichever way it is reached: each call goes over DIMSE (C-ECHO, C-FIND, C-GET,
// C-STORE) for a node with an AE title, or over DICOMweb (QIDO-RS, WADO-RS, STOW-RS) for a node
// with a base URL. The study browser, Send to PACS and `delineate-cli pacs` all call these, so
// both routes give the same records, the same folder layout and the same reports.
#include <filesystem>
#include <string>
#include <vector>

#include "core/jobs/ProgressSink.h"
#include "core/pacs/DicomGet.h"
#include "core/pacs/DicomNetwork.h"
#include "core/pacs/StudyRecords.h"

namespace delineate::core::pacs {

struct PacsAccess {
  DicomNetworkOptions dimse;
  std::string secret;  // DICOMweb: the Basic password or Bearer token (from the keychain)
};

double verifyNode(const DicomNode& node, const PacsAccess& access, ProgressSink& progress);

std::vector<StudyRecord> queryStudies(const DicomNode& node, const StudyQuery& query,
                                      const PacsAccess& access, ProgressSink& progress);
std::vector<SeriesRecord> querySeries(const DicomNode& node, const std::string& studyInstanceUid,
                                      const PacsAccess& access, ProgressSink& progress);
std::vector<InstanceRecord> queryInstances(const DicomNode& node,
                                           const std::string& studyInstanceUid,
                                           const std::string& seriesInstanceUid,
                                           const PacsAccess& access, ProgressSink& progress);

// `current`'s earlier studies on the node (EarlierStudies.h), latest first; none when it has no
// patient ID.
std::vector<StudyRecord> findEarlierStudies(const DicomNode& node, const StudyRecord& current,
                                            const std::string& modality,
                                            const std::string& dateRange, const PacsAccess& access,
                                            ProgressSink& progress);

RetrieveReport retrieveStudy(const DicomNode& node, const RetrieveRequest& request,
                             const std::filesystem::path& folder, const PacsAccess& access,
                             ProgressSink& progress);

StoreReport sendFiles(const DicomNode& node, const std::vector<std::filesystem::path>& files,
                      const PacsAccess& access, ProgressSink& progress);

}  // namespace delineate::core::pacs
