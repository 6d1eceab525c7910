#pragma once
// C-GET (Study Root) of a study or one series into a folder, each instance as
// FOLDER/<Series Instance UID>/<SOP Instance UID>.dcm. The instances arrive on our own
// association (no listener, nothing to register but our AE title). An instance is written as
// `.partial` and renamed when complete, so an interrupted retrieve never leaves a file that looks
// whole; a retrieve of something partly in the folder asks only for the instances it lacks.
#include <filesystem>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "core/jobs/ProgressSink.h"
#include "core/pacs/DicomNetwork.h"
#include "core/pacs/StudyRecords.h"

namespace delineate::core::pacs {

struct RetrieveRequest {
  std::string studyInstanceUid;
  std::string seriesInstanceUid;  // empty: every series of the study
};

struct RetrieveReport {
  std::vector<std::filesystem::path> files;  // every instance of the request now in the folder
  std::size_t received = 0;                  // of them, this retrieve's
  std::size_t alreadyLocal = 0;              // of them, found complete in the folder
  std::vector<std::string> missing;          // SOP Instance UIDs the node did not deliver
  nlohmann::json toJson() const;
};

// A UID as a file or folder name: UIDs are digits and dots; anything else a node sends is
// replaced, so an answer can never name a path outside the folder.
std::string uidFileName(const std::string& uid);

// The instance's file in `folder` (whether or not it exists).
std::filesystem::path retrievedFile(const std::filesystem::path& folder,
                                    const std::string& seriesInstanceUid,
                                    const std::string& sopInstanceUid);

// Lists each wanted instance in report.files when its file is in `folder`, else in
// report.missing (the end of every retrieve, whichever protocol brought the files).
void noteRetrieved(RetrieveReport& report, const std::filesystem::path& folder,
                   const std::vector<InstanceRecord>& wanted);

// Throws Error(Network) naming the node for a refused association or a failed retrieve (with
// its status), Error(Io) for a folder that cannot be written, CancelledError on Cancel (what
// arrived complete stays). Instances the node lists but does not send are in `missing`.
RetrieveReport retrieveByGet(const DicomNode& node, const RetrieveRequest& request,
                             const std::filesystem::path& folder,
                             const DicomNetworkOptions& options, ProgressSink& progress);

// The same by C-MOVE (Study Root), for a node that does not offer C-GET: the node sends the
// instances to this workstation's Storage SCP (options.callingAeTitle at options.movePort),
// which listens only while the retrieve runs. The node must know that AE title with this
// computer's address and port; a node that does not is named (status A801), as is a port that
// cannot be opened.
RetrieveReport retrieveByMove(const DicomNode& node, const RetrieveRequest& request,
                              const std::filesystem::path& folder,
                              const DicomNetworkOptions& options, ProgressSink& progress);

// Either, by `move`.
RetrieveReport retrieveDimse(const DicomNode& node, const RetrieveRequest& request,
                             const std::filesystem::path& folder,
                             const DicomNetworkOptions& options, ProgressSink& progress, bool move);

}  // namespace delineate::core::pacs
