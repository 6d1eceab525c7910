#pragma once
// Sending to a research archive: every file is de-identified on the workstation (PS3.15 Basic
// Profile with the chosen options, pseudonyms from the re-identification map) into a work folder
// and only the copies are sent. A SEG and its series de-identified with the same map still refer
// to each other (every reference UID maps to the image's new UID).
#include <filesystem>
#include <functional>
#include <vector>

#include "core/deid/DeidOptions.h"
#include "core/pacs/DicomNetwork.h"

namespace delineate::core {
class ProgressSink;
namespace deid {
class ReidentificationMap;
}
}  // namespace delineate::core

namespace delineate::core::pacs {

// The report names the caller's files (never the copies). A file held back (burned-in text, an
// encapsulated document) or that cannot be de-identified is reported as not stored, with the
// reason, and never leaves the machine. The map is saved before anything is sent, so a pseudonym
// the node holds can always be traced back. Cancel stops between files (CancelledError); the
// copies written so far are removed. Throws Error for a map that cannot be saved or an
// association that cannot be made.
StoreReport storeDeidentified(const DicomNode& node,
                              const std::vector<std::filesystem::path>& files,
                              const DicomNetworkOptions& options, const deid::DeidOptions& deid,
                              deid::ReidentificationMap& map, const std::filesystem::path& workDir,
                              ProgressSink& progress);

// The same, the copies sent by `send` (e.g. STOW-RS to a DICOMweb node).
using FileSender =
    std::function<StoreReport(const std::vector<std::filesystem::path>&, ProgressSink&)>;
StoreReport storeDeidentified(const std::vector<std::filesystem::path>& files,
                              const FileSender& send, const deid::DeidOptions& deid,
                              deid::ReidentificationMap& map, const std::filesystem::path& workDir,
                              ProgressSink& progress);

}  // namespace delineate::core::pacs
