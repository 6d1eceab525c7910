#pragma once
// What a Clara AIAA v1 server offers, from GET /v1/models (docs/ai.md, "Clara AIAA servers"): a
// JSON list of models with `name`, `type` (segmentation, annotation = DEXTR3D, deepgrow,
// classification, others), `labels`, and for DEXTR3D the crop parameters `padding` (mm) and `roi`.
// Mapped onto the MONAI Label vocabulary the rest of the workstation speaks. Unknown and missing
// fields are tolerated; only a body that is not a JSON list (or one model object) is an error.
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/ai/MonaiInfo.h"
#include "core/model/ImageGeometry.h"

namespace delineate::core::ai {

struct AiaaModel {
  std::string name;
  std::string type;  // as the server wrote it
  std::string description;
  std::string version;
  std::vector<std::string> labels;
  double paddingMm = 20.0;               // DEXTR3D: margin around the extreme points
  Size3 roi{128, 128, 128};              // DEXTR3D: the model's input size
  std::optional<int> deepgrowDimension;  // deepgrow models: 2 or 3

  bool isDextr3d() const;  // type "annotation" (or "dextr3d")
  bool isDeepgrow() const;
};

std::vector<AiaaModel> parseAiaaModels(std::string_view body, const std::string& server = {});

// The models as a ServerInfo: DEXTR3D models get type "dextr3d" (extreme points), deepgrow
// models "deepgrow" with their dimension, segmentation models stay automatic; labels are
// numbered from 1 in the order given.
ServerInfo aiaaInfo(const std::vector<AiaaModel>& models, const std::string& server);

}  // namespace delineate::core::ai
