#include "core/ai/Prompt.h"

namespace delineate::core::ai {

const char* promptKindName(PromptKind kind) {
  switch (kind) {
    case PromptKind::Point:
      return "point";
    case PromptKind::Box:
      return "box";
    case PromptKind::Scribble:
      return "scribble";
    case PromptKind::Lasso:
      return "lasso";
  }
  return "prompt";
}

int Prompt::sliceAxis() const {
  if (kind == PromptKind::Point || box.empty()) {
    return -1;
  }
  for (int a = 2; a >= 0; --a) {
    if (box.hi[a] - box.lo[a] == 1) {
      return a;
    }
  }
  return -1;
}

std::vector<Size3> Prompt::maskVoxels() const {
  std::vector<Size3> out;
  if (box.empty() || mask.size() != box.count()) {
    return out;
  }
  std::size_t n = 0;
  for (std::size_t k = box.lo[2]; k < box.hi[2]; ++k) {
    for (std::size_t j = box.lo[1]; j < box.hi[1]; ++j) {
      for (std::size_t i = box.lo[0]; i < box.hi[0]; ++i, ++n) {
        if (mask[n] != 0) {
          out.push_back({i, j, k});
        }
      }
    }
  }
  return out;
}

}  // namespace delineate::core::ai
