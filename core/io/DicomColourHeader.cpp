#include "core/io/DicomColourHeader.h"

#include <dcmtk/config/osconfig.h>  // must come first
#include <dcmtk/dcmdata/dcdeftag.h>
#include <dcmtk/dcmdata/dcitem.h>

#include <array>
#include <cmath>
#include <optional>

#include "core/Error.h"

namespace delineate::core {

void readColourAttributes(DcmItem& ds, DicomFileHeader& h) {
  Uint16 planar = 0;
  if (ds.findAndGetUint16(DCM_PlanarConfiguration, planar).good()) {
    h.planarConfiguration = planar == 1 ? 1 : 0;
  }
  if (h.photometric == "PALETTE COLOR") {
    try {
      h.palette = std::make_shared<const DicomPalette>(readDicomPalette(ds, h.pixelSigned, h.path));
    } catch (const Error& e) {
      h.warnings.push_back(e.what());
    }
  }
  if (ds.tagExists(DCM_FloatPixelData)) {
    h.floatPixelBits = 32;
  } else if (ds.tagExists(DCM_DoubleFloatPixelData)) {
    h.floatPixelBits = 64;
  }
  if (h.floatPixelBits != 0) {
    // Bits Allocated is 32 or 64 and Bits Stored absent for float pixels; the size is the VR's.
    h.bitsAllocated = h.bitsStored = h.floatPixelBits;
    h.highBit = h.floatPixelBits - 1;
    h.pixelSigned = true;
  }
  Float64 ms = 0;
  Sint32 rate = 0;
  if (ds.findAndGetFloat64(DCM_FrameTime, ms).good() && ms > 0 && ms < 1e6) {
    h.frameTimeMs = ms;
  } else if (ds.findAndGetSint32(DCM_CineRate, rate).good() && rate > 0 && rate < 10000) {
    h.frameTimeMs = 1000.0 / rate;
  } else if (ds.findAndGetSint32(DCM_RecommendedDisplayFrameRate, rate).good() && rate > 0 &&
             rate < 10000) {
    h.frameTimeMs = 1000.0 / rate;
  }
}

void readUltrasoundRegionSpacing(DcmItem& ds, DicomFileHeader& h) {
  std::optional<std::array<double, 2>> spacing;
  DcmItem* region = nullptr;
  for (unsigned long i = 0;
       ds.findAndGetSequenceItem(DCM_SequenceOfUltrasoundRegions, region, static_cast<int>(i))
           .good() &&
       region != nullptr;
       ++i) {
    Uint16 unitsX = 0, unitsY = 0;
    Float64 dx = 0, dy = 0;
    if (region->findAndGetUint16(DCM_PhysicalUnitsXDirection, unitsX).bad() ||
        region->findAndGetUint16(DCM_PhysicalUnitsYDirection, unitsY).bad() || unitsX != 3 ||
        unitsY != 3 || region->findAndGetFloat64(DCM_PhysicalDeltaX, dx).bad() ||
        region->findAndGetFloat64(DCM_PhysicalDeltaY, dy).bad() || !(dx > 0) || !(dy > 0)) {
      continue;  // not a spatial region in cm (Doppler spectra, time-motion strips)
    }
    const std::array<double, 2> mm{10 * std::abs(dy), 10 * std::abs(dx)};  // rows, columns
    if (spacing && (std::abs((*spacing)[0] - mm[0]) > 1e-6 * mm[0] ||
                    std::abs((*spacing)[1] - mm[1]) > 1e-6 * mm[1])) {
      h.warnings.push_back(h.path +
                           ": ultrasound regions with different calibrations; the first is used");
      break;
    }
    spacing = mm;
  }
  if (spacing) {
    h.shared.pixelSpacing = spacing;
    h.spacingSource = "Sequence of Ultrasound Regions";
  }
}

}  // namespace delineate::core
