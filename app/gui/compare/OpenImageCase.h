#pragma once
// The image open in the window as a dataset case: the image and each of its label maps written
// as NIfTI files (label maps with their segment tables) into `folder`, for prepareCase to read
// like any picked case. Runs in a job: the caller holds the maps busy (EditJobs) meanwhile.
#include <filesystem>
#include <memory>
#include <vector>

#include "core/jobs/ProgressSink.h"
#include "core/model/LabelMap.h"
#include "core/model/Volume.h"
#include "core/upload/DatasetCase.h"

namespace delineate::app {

// Throws core::Error naming the file on a write failure.
core::upload::DatasetCase writeOpenImageCase(
    const core::Volume& image, const std::vector<std::shared_ptr<const core::LabelMap>>& maps,
    const std::filesystem::path& folder, core::ProgressSink& progress);

}  // namespace delineate::app
