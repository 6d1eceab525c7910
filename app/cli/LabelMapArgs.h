#pragma once
// The label map files named on a command line (readers' maps for consensus and agreement), read
// in order; an unreadable one throws an Error naming it.
#include <string>
#include <vector>

#include "core/model/LabelMap.h"

namespace delineate::cli {

struct LabelMapArgs {
  std::vector<core::LabelMap> maps;
  std::vector<const core::LabelMap*> pointers;  // into maps
};

LabelMapArgs readLabelMapArgs(const std::vector<std::string>& files);

}  // namespace delineate::cli
