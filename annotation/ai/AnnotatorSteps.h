#pragma once
// The annotator loop's steps without Qt (app/gui/annotator/AnnotatorLoop runs them in jobs and
// shows the outcome): take the server's next sample (its image read from the server's own path
// when this machine sees it, else downloaded, with its `original` label when asked), submit a
// label map as a sample's `final` label in the server's label values, and the training request
// that names the dataset snapshots the labels were uploaded from. docs/retraining.md.
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/ai/AiBackend.h"
#include "core/ai/ServerInfo.h"
#include "core/jobs/ProgressSink.h"
#include "core/model/LabelMap.h"

namespace delineate::annotation {

struct FetchedSample {
  std::string id;
  std::string image;     // a local file
  std::string original;  // the `original` label's local file; empty: none
  bool downloaded = false;
};

// The server's next image by `strategy`, as local files in `folder`; nullopt when every image has
// a final label. Throws what the backend throws (a server that is down, named).
std::optional<FetchedSample> fetchNextSample(core::ai::AiBackend& server,
                                             const std::string& strategy, const std::string& folder,
                                             bool withOriginal, core::ProgressSink& progress);

// `labels` in the server's values (`schema`; `where` names the server in a refusal) sent as the
// `final` label of image `id`. Throws on a segment the schema does not know, or a failed send.
void submitFinalLabel(core::ai::AiBackend& server, const core::LabelMap& labels,
                      const std::vector<core::ai::ModelLabel>& schema, const std::string& id,
                      const std::string& where, core::ProgressSink& progress);

// The training request's configuration: {"dataset_snapshot": id} for one snapshot, a list for
// several, {} for none.
nlohmann::json trainingRequest(const std::vector<std::string>& snapshots);

// A server-side file's format suffix (".nii.gz", ".nrrd"; ".nii.gz" when it has none), and a
// server id as a safe local file name (letters, digits, '-', '_', '.'; never empty).
std::string serverFileSuffix(const std::string& serverPath);
std::string safeFileName(const std::string& id);

}  // namespace delineate::annotation
