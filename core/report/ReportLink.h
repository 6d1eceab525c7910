#pragma once
// What a report finding or measurement row was computed from: a CAD mark (image id + the mark's
// index in that image's marks) or a segment (label map name + label value). When the object is
// deleted the link is marked broken and the values computed from it are kept.
#include <cstdint>
#include <string>

namespace delineate::core::report {

struct ReportLink {
  enum class Kind { None, CadMark, Segment };
  Kind kind = Kind::None;
  std::string imageId;        // CadMark: the image (SOP Instance UID or path)
  int markIndex = -1;         // CadMark: index into that image's marks
  std::string labelMap;       // Segment: the label map's name
  std::uint16_t segment = 0;  // Segment: the label value
  bool broken = false;        // the object is gone; the values computed from it are kept

  static ReportLink cadMark(std::string imageId, int markIndex) {
    ReportLink l;
    l.kind = Kind::CadMark;
    l.imageId = std::move(imageId);
    l.markIndex = markIndex;
    return l;
  }
  static ReportLink toSegment(std::string labelMap, std::uint16_t segment) {
    ReportLink l;
    l.kind = Kind::Segment;
    l.labelMap = std::move(labelMap);
    l.segment = segment;
    return l;
  }
  // "mark 1.2.3#0", "segment liver-map#2", "none"; " (broken)" appended when broken.
  std::string text() const {
    std::string t = kind == Kind::CadMark   ? "mark " + imageId + "#" + std::to_string(markIndex)
                    : kind == Kind::Segment ? "segment " + labelMap + "#" + std::to_string(segment)
                                            : "none";
    return broken ? t + " (broken)" : t;
  }
  bool operator==(const ReportLink&) const = default;
};

}  // namespace delineate::core::report
