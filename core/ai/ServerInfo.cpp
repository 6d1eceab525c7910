#include "core/ai/ServerInfo.h"

#include "core/Text.h"

namespace delineate::core::ai {

const char* toString(ModelGroup group) {
  switch (group) {
    case ModelGroup::Automatic:
      return "automatic";
    case ModelGroup::Deepgrow:
      return "deepgrow";
    case ModelGroup::Deepedit:
      return "deepedit";
    case ModelGroup::Scribbles:
      return "scribbles";
    case ModelGroup::ExtremePoints:
      return "extreme points";
    case ModelGroup::Others:
      return "others";
  }
  return "others";
}

ModelGroup modelGroup(std::string_view type) {
  if (equalsIgnoreCase(type, "deepgrow")) {
    return ModelGroup::Deepgrow;
  }
  if (equalsIgnoreCase(type, "deepedit")) {
    return ModelGroup::Deepedit;
  }
  if (equalsIgnoreCase(type, "scribbles")) {
    return ModelGroup::Scribbles;
  }
  if (equalsIgnoreCase(type, "dextr3d")) {
    return ModelGroup::ExtremePoints;
  }
  for (const char* other : {"annotation", "classification", "detection", "others"}) {
    if (equalsIgnoreCase(type, other)) {
      return ModelGroup::Others;
    }
  }
  return ModelGroup::Automatic;  // "segmentation" and anything we do not know
}

const ModelInfo* ServerInfo::findModel(std::string_view modelName) const {
  for (const ModelInfo& m : models) {
    if (m.name == modelName) {
      return &m;
    }
  }
  return nullptr;
}

const TrainerStats* ServerInfo::findTrainStats(std::string_view trainer) const {
  for (const TrainerStats& s : trainerStats) {
    if (s.trainer == trainer) {
      return &s;
    }
  }
  return nullptr;
}

std::vector<const ModelInfo*> ServerInfo::modelsIn(ModelGroup group) const {
  std::vector<const ModelInfo*> out;
  for (const ModelInfo& m : models) {
    if (modelGroup(m.type) == group) {
      out.push_back(&m);
    }
  }
  return out;
}

}  // namespace delineate::core::ai
