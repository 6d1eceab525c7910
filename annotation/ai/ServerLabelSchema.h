#pragma once
// Submitting a label map to an AI server's datastore for training: the server trains on its own
// label names and voxel values (its label schema), so the annotator's segments are matched to it
// by name (case and surrounding spaces ignored) and the voxels rewritten to the server's values.
// A segment with voxels whose name the server does not know is refused before anything is sent,
// with the names the server knows: a label the trainer cannot place would be silently dropped or,
// worse, trained as another structure.
#include <memory>
#include <string>
#include <vector>

#include "core/ai/MonaiInfo.h"
#include "core/jobs/ProgressSink.h"
#include "core/model/LabelMap.h"

namespace delineate::annotation {

// The labels a server trains on with `trainer` (empty: its first): the trainer's own when it
// lists them, else those of the model of the trainer's name, else the app's, else those of all its
// voxel-labelling models (by model name; a name or value already taken is skipped, so that names
// and values stay one to one). Background entries are left out: they are not segments.
std::vector<core::ai::ModelLabel> serverLabelSchema(const core::ai::ServerInfo& info,
                                                    const std::string& trainer = {});

// "spleen, liver, kidney": the names, for messages.
std::string schemaNames(const std::vector<core::ai::ModelLabel>& schema);

// `map` as the server wants it: each segment that has voxels becomes the server's label of the
// same name (the server's spelling and value); empty segments are left out. Throws
// core::Error(InvalidInput, server, ...) naming the segments the server does not know and the
// names it does, and when the schema is empty or the map has no labelled voxel. A pass over the
// voxels: run it in a job.
std::shared_ptr<core::LabelMap> labelsForServer(const core::LabelMap& map,
                                                const std::vector<core::ai::ModelLabel>& schema,
                                                const std::string& server,
                                                core::ProgressSink& progress);

}  // namespace delineate::annotation
