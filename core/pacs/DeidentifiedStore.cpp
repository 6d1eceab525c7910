#include "core/pacs/DeidentifiedStore.h"

#include <map>

#include "core/deid/DeidBatch.h"
#include "core/deid/ReidentificationMap.h"
#include "core/jobs/ProgressSink.h"

namespace delineate::core::pacs {

namespace fs = std::filesystem;

namespace {

constexpr double kDeidShare = 0.4;  // of the progress bar; sending takes the rest

// Removes the copies when the send ends, however it ends.
struct RemoveOnExit {
  fs::path folder;
  ~RemoveOnExit() {
    std::error_code ignored;
    fs::remove_all(folder, ignored);
  }
};

}  // namespace

StoreReport storeDeidentified(const DicomNode& node, const std::vector<fs::path>& files,
                              const DicomNetworkOptions& options, const deid::DeidOptions& deid,
                              deid::ReidentificationMap& map, const fs::path& workDir,
                              ProgressSink& progress) {
  return storeDeidentified(
      files,
      [&](const std::vector<fs::path>& copies, ProgressSink& sending) {
        return store(node, copies, options, sending);
      },
      deid, map, workDir, progress);
}

StoreReport storeDeidentified(const std::vector<fs::path>& files, const FileSender& send,
                              const deid::DeidOptions& deid, deid::ReidentificationMap& map,
                              const fs::path& workDir, ProgressSink& progress) {
  const fs::path copies = workDir / "deidentified";
  RemoveOnExit cleanup{copies};
  std::error_code ignored;
  fs::remove_all(copies, ignored);
  fs::create_directories(copies);

  StoreReport report;
  std::vector<fs::path> toSend;
  std::map<fs::path, fs::path> sourceOf;  // copy -> the caller's file
  for (std::size_t i = 0; i < files.size(); ++i) {
    progress.throwIfCancelled();
    progress.report(kDeidShare * double(i) / double(files.size()), "de-identifying");
    const deid::DeidResult r = deid::deidentifyFile(files[i], copies, deid, map);
    if (r.status == deid::DeidResult::Status::Written) {
      const auto [it, fresh] = sourceOf.emplace(r.output, files[i]);
      if (fresh) {
        toSend.push_back(r.output);
      } else {
        report.files.push_back(
            {files[i], false, 0, "same SOP Instance UID as " + it->second.filename().string()});
      }
    } else {
      const std::string why = r.status == deid::DeidResult::Status::HeldBack
                                  ? "held back, not de-identifiable: " + r.reason
                                  : "not de-identified: " + r.reason;
      report.files.push_back({files[i], false, 0, why});
    }
  }
  map.save();  // before anything leaves: every pseudonym the node will hold can be traced back
  if (toSend.empty()) {
    return report;
  }
  SubProgress sending(progress, kDeidShare, 1);
  StoreReport sent = send(toSend, sending);
  for (StoredFile& f : sent.files) {
    const auto it = sourceOf.find(f.file);
    if (it != sourceOf.end()) {
      f.file = it->second;
    }
    report.files.push_back(std::move(f));
  }
  return report;
}

}  // namespace delineate::core::pacs
