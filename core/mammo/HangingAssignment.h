#pragma once
// Which image goes into which viewport of a hanging protocol, whatever order the images came
// in: the current study (given, else the latest by date) and the most recent study of an
// earlier date as the prior; per viewport the image of that breast, view and study, images
// meant for display before those for processing, the latest acquisition among duplicates; spot
// and magnification views are left to diagnostic protocols. Whatever cannot be done is said in
// `notes` (a missing view, duplicates, processing-only images, images without laterality or
// view), and images that fit no viewport fill the empty ones so that nothing is hidden.
#include <optional>
#include <string>
#include <vector>

#include "core/mammo/HangingProtocol.h"
#include "core/mammo/MammoView.h"

namespace delineate::core::mammo {

struct HungViewport {
  std::optional<std::size_t> image;  // index into the views given; nullopt: empty
  ChestWall chestWall = ChestWall::Left;
  bool asked = true;  // false: an image that fit no viewport, shown in a free one
};

struct Hanging {
  std::vector<HungViewport> viewports;  // as the protocol's, row by row
  std::string currentStudy;             // study UIDs; prior empty when there is none
  std::string priorStudy;
  std::vector<std::string> notes;  // for the user, e.g. "R MLO (current) is missing"
};

// The prior is chosen by `rule` (the protocol set's); when no earlier study is in its window,
// the latest earlier one is hung, with a note saying so.
Hanging hang(const HangingProtocol& protocol, const std::vector<MammoView>& views,
             const std::string& currentStudyUid = {}, const PriorRule& rule = {});

}  // namespace delineate::core::mammo
