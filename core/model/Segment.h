#pragma once
// One labelled structure of a label map: its value, name, colour and coded meaning. No pixels.
// Fields follow dcmqi's segment JSON, the interchange format 3D Slicer and MITK use.
#include <array>
#include <cstdint>
#include <string>

namespace delineate::core {

struct CodedConcept {
  std::string value;    // CodeValue, e.g. "10200004"
  std::string scheme;   // CodingSchemeDesignator, e.g. "SCT"
  std::string meaning;  // CodeMeaning, e.g. "Liver"
  bool empty() const { return value.empty(); }
  bool operator==(const CodedConcept&) const = default;
};

struct Segment {
  std::uint16_t label = 1;
  std::string name{};
  std::string description{};
  std::array<std::uint8_t, 3> color{128, 174, 128};
  CodedConcept category{};
  CodedConcept type{};
  CodedConcept typeModifier{};
  std::string algorithmType = "MANUAL";  // MANUAL, SEMIAUTOMATIC, AUTOMATIC
  bool visible = true;
  bool locked = false;
  bool operator==(const Segment&) const = default;
};

// A new segment with value `label`: "Segment N" and a colour distinct on grey images (3D Slicer's
// first generic anatomy colours, cycling).
Segment defaultSegment(std::uint16_t label);

}  // namespace delineate::core
