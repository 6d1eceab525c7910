#include "LabelMapArgs.h"

#include "core/io/LabelMapFileIO.h"

namespace delineate::cli {

LabelMapArgs readLabelMapArgs(const std::vector<std::string>& files) {
  LabelMapArgs out;
  out.maps.reserve(files.size());
  for (const std::string& f : files) {
    out.maps.push_back(core::readLabelMapFiles(f));
  }
  for (const core::LabelMap& m : out.maps) {
    out.pointers.push_back(&m);
  }
  return out;
}

}  // namespace delineate::cli
