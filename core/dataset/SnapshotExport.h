#pragma once
// A dataset snapshot written as a training dataset: the snapshot's files checked out (each against
// its digest) into a scratch folder inside `out`, its cases found as the upload finds them
// (Medical Segmentation Decathlon folders, or NAME with NAME_labels beside it), each prepared as
// for an upload (image identity fields cleared, labels merged onto the image's grid, case id from
// the image's content) and written in the Medical Segmentation Decathlon or nnU-Net v2 layout.
// dataset.json names the snapshot ("dataset_snapshot") so a model trained on the export can say
// which data it came from. docs/datasets.md, "Export for training".
#include <filesystem>
#include <string>
#include <vector>

#include "core/dataset/DatasetStore.h"
#include "core/jobs/ProgressSink.h"
#include "core/upload/MsdDatasetWriter.h"

namespace delineate::core::dataset {

struct ExportResult {
  std::string snapshot;              // the full id
  int cases = 0;                     // written
  std::vector<std::string> skipped;  // one message per case left out, naming its file
};

// `modality` names channel 0 ("CT", "MRI"; nnU-Net normalises "CT" by the dataset's intensity
// statistics, anything else per image); empty: the images' DICOM modality, "unknown" for research
// files, which carry none. `out` must not exist or be empty (Error(InvalidInput) otherwise). Throws
// Error naming the snapshot or a file; CancelledError (what was written stays a valid, smaller
// dataset).
ExportResult exportSnapshot(const DatasetStore& store, const std::string& idOrPrefix,
                            const std::filesystem::path& out, upload::DatasetLayout layout,
                            const std::string& name, const std::string& modality,
                            ProgressSink& progress);

}  // namespace delineate::core::dataset
