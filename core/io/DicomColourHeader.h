#pragma once
// The header attributes of colour, cine and floating-point images: Planar Configuration, the
// palette of PALETTE COLOR images, the frame time of multi-frame cine loops, and whether the
// pixels are Float or Double Float Pixel Data.
#include "core/io/DicomHeader.h"

class DcmItem;

namespace delineate::core {

// Fills h.planarConfiguration, h.palette (a malformed palette leaves it null and adds a warning
// naming the file), h.frameTimeMs and h.floatPixelBits. h.photometric and h.pixelSigned must be
// read first.
void readColourAttributes(DcmItem& dataset, DicomFileHeader& h);

// Ultrasound: the spacing of the Sequence of Ultrasound Regions (0018,6011) when every region
// with a calibrated x and y (Physical Units 3, cm) agrees; sets h.shared.pixelSpacing in mm.
void readUltrasoundRegionSpacing(DcmItem& dataset, DicomFileHeader& h);

}  // namespace delineate::core
