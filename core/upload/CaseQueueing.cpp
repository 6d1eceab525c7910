#include "core/upload/CaseQueueing.h"

#include <unistd.h>

#include <atomic>

#include "core/Error.h"

namespace delineate::core::upload {

namespace fs = std::filesystem;

EnqueueOutcome enqueuePrepared(UploadQueue& queue, const PreparedCase& prepared,
                               const std::string& labelTag) {
  if (!prepared.sendable()) {
    throw Error(ErrorKind::InvalidInput, prepared.source,
                "has errors that keep it from being sent: " + prepared.findings.front().message);
  }
  static std::atomic<unsigned> counter{0};
  const fs::path incoming =
      queue.folder() / "incoming" /
      (prepared.id + "-" + std::to_string(::getpid()) + "-" + std::to_string(counter.fetch_add(1)));
  std::error_code ec;
  fs::create_directories(incoming, ec);
  if (ec) {
    throw Error(ErrorKind::Io, incoming.string(), "cannot create: " + ec.message());
  }
  const fs::path image = incoming / "image.nii.gz";
  const fs::path label = prepared.label ? incoming / "label.nii.gz" : fs::path();
  try {
    writeCaseFiles(prepared, image, label);
    UploadItem item;
    item.id = prepared.id;
    item.labelTag = labelTag;
    item.labelInfo = prepared.labelInfo;
    item.source = prepared.source;
    const EnqueueOutcome outcome = queue.enqueue(std::move(item), image, label);
    fs::remove_all(incoming, ec);
    return outcome;
  } catch (...) {
    fs::remove_all(incoming, ec);
    throw;
  }
}

}  // namespace delineate::core::upload
