#pragma once
// The grey mapping a mammography (DX/MG) reading view applies to every pixel: a value of the
// image (after the modality rescale, as the Volume holds it) through the VOI transform -- a window
// with its VOI LUT Function (PS3.3 C.11.2.1.2: LINEAR, LINEAR_EXACT, SIGMOID) or one of the
// file's VOI LUT tables -- onto 0..255, inverted for MONOCHROME1 (C.7.6.3.1.2: the lowest value
// is white) and again when the user asks for it.
//
// For 8- and 16-bit integer images build() fills a table over every possible value (256 or 65536
// entries, under 1 ms), so that drawing is one lookup per pixel; the reading view maps pixels
// through it and its render threads share the table read-only (copies of a DisplayLut share it
// too). Wider and floating-point images get no table: map() evaluates the same function per value.
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "core/model/ScalarType.h"
#include "core/model/Volume.h"
#include "core/model/VolumeInfo.h"

namespace delineate::core::mammo {

struct DisplaySettings {
  double center = 0, width = 1;  // window used when voiLut < 0
  int voiLut = -1;               // index into VolumeInfo::voiLuts, -1: the window
  std::string function;          // "" / "LINEAR", "LINEAR_EXACT", "SIGMOID"
  bool invert = false;           // the user's invert, on top of MONOCHROME1
};

// What an image shows first: the file's first window (else the full value range) with the file's
// VOI LUT Function; the first VOI LUT table when the file has tables but no window.
DisplaySettings defaultDisplaySettings(const Volume& volume);

class DisplayLut {
 public:
  // The mapping for an image described by `info` (photometric, voiLuts) whose voxels are of
  // `type`. UInt8 and Int8: 256 entries; UInt16 and Int16: 65536 entries; other types: no table
  // (use map()). A voiLut index outside info.voiLuts falls back to the window.
  static DisplayLut build(const VolumeInfo& info, ScalarType type, const DisplaySettings& s);

  bool hasTable() const { return table_ != nullptr; }
  // index = stored value - offset(); nullptr when !hasTable().
  const std::uint8_t* table() const { return table_ ? table_->data() : nullptr; }
  int offset() const { return offset_; }  // -32768 for Int16, -128 for Int8, else 0
  std::size_t size() const { return table_ ? table_->size() : 0; }
  // The grey level of any value (NaN shows as the lowest value); equals the table for the
  // integer values the table covers.
  std::uint8_t map(double value) const;

 private:
  enum class Kind { Linear, LinearExact, Sigmoid, Table };

  // Before inversion: 0..255 for a value.
  std::uint8_t evaluate(double x) const;

  Kind kind_ = Kind::Linear;
  double center_ = 0;
  double width_ = 1;
  bool inverted_ = false;
  // Kind::Table: the VOI LUT's entries already scaled to 0..255, and its first value.
  std::shared_ptr<const std::vector<std::uint8_t>> entries_;
  double firstValue_ = 0;

  int offset_ = 0;
  std::shared_ptr<const std::vector<std::uint8_t>> table_;
};

}  // namespace delineate::core::mammo
