#pragma once
// A checked case into the upload queue: its files are written (gzipped NIfTI, no identifiers)
// beside the queue, on its file system, then moved in.
#include <string>

#include "core/upload/CasePreparation.h"
#include "core/upload/UploadQueue.h"

namespace delineate::core::upload {

// Throws Error(InvalidInput) for a case with lint errors, Error(Io) naming the file on a full
// disk (the queue is then as before).
EnqueueOutcome enqueuePrepared(UploadQueue& queue, const PreparedCase& prepared,
                               const std::string& labelTag = "final");

}  // namespace delineate::core::upload
