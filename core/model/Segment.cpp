#include "core/model/Segment.h"

namespace delineate::core {

Segment defaultSegment(std::uint16_t label) {
  static constexpr std::array<std::array<std::uint8_t, 3>, 10> kPalette{{{128, 174, 128},
                                                                         {241, 214, 145},
                                                                         {177, 122, 101},
                                                                         {111, 184, 210},
                                                                         {216, 101, 79},
                                                                         {221, 130, 101},
                                                                         {144, 238, 144},
                                                                         {192, 104, 88},
                                                                         {220, 245, 20},
                                                                         {78, 63, 0}}};
  Segment s;
  s.label = label;
  s.name = "Segment " + std::to_string(label);
  s.color = kPalette[(label + kPalette.size() - 1u) % kPalette.size()];
  return s;
}

}  // namespace delineate::core
