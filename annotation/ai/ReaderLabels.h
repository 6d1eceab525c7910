#pragma once
// Several readers of one image on an AI server's datastore (MONAI Label, delineate-server): each
// reader's label map is kept under its own label tag, "reader-<name>", with the reader's name in
// the label's info; `final` stays the adjudicated label and `original` the model's. The annotator
// loop submits a reading under the reader's tag and, on Next sample, can fetch every reader's
// label of the image back, each named after its reader. docs/retraining.md, "Several readers".
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/ai/AiBackend.h"
#include "core/ai/ServerInfo.h"
#include "core/jobs/ProgressSink.h"
#include "core/model/LabelMap.h"

namespace delineate::annotation {

struct ServerReaderLabel {
  std::string reader;  // the label's info "reader", else its tag without "reader-"
  std::string tag;
  std::string path;  // the local file, once fetched (with its segment table beside it)
  bool operator==(const ServerReaderLabel&) const = default;
};

// The tag of `reader`'s label: "reader-" and the name in lower case, each run of characters other
// than ASCII letters and digits one '_' ("Dr A. Smith" -> "reader-dr_a_smith"); a name without
// letters or digits is "reader-anonymous".
std::string readerLabelTag(const std::string& reader);

// The readers' labels of image `id` in a datastore listing (AiBackend::datastoreObjects), by tag.
std::vector<ServerReaderLabel> readerLabelsOf(const nlohmann::json& objects, const std::string& id);

// The same, each downloaded into `folder` (created; named after the reader, a second reader of
// the same file name numbered) with a segment table beside it from the label's `label_info`, so
// that the map opens with the server's structure names. Throws what the backend throws.
std::vector<ServerReaderLabel> fetchReaderLabels(core::ai::AiBackend& server, const std::string& id,
                                                 const std::string& folder,
                                                 core::ProgressSink& progress);

// `labels` in the server's values (`schema`, as for the final label) sent as `reader`'s label of
// image `id`, with {"label_info": [{"name", "idx"}...], "reader": reader} as its info.
void submitReaderLabel(core::ai::AiBackend& server, const core::LabelMap& labels,
                       const std::vector<core::ai::ModelLabel>& schema, const std::string& id,
                       const std::string& reader, const std::string& where,
                       core::ProgressSink& progress);

}  // namespace delineate::annotation
