#pragma once
// The Modality LUT Sequence: read from a header, and applied to decoded stored values (PS3.3
// C.11.1): each voxel becomes the table entry of its stored value; values below the first mapped
// one take the first entry, values past the table the last.
#include <memory>

#include "core/io/DicomHeader.h"
#include "core/model/VoxelBuffer.h"

class DcmItem;

namespace delineate::core {

// Reads the first item of the dataset's Modality LUT Sequence into h.modalityLut (h.pixelSigned
// must be known); a malformed table leaves it empty and adds a warning naming h.path.
void readModalityLut(DcmItem& dataset, DicomFileHeader& h);

// `stored` holds stored values (any integer type); returns a new UInt16 buffer (UInt8 when the
// table's entries have at most 8 bits) of the table's output values.
std::shared_ptr<VoxelBuffer> applyModalityLut(const VoxelBuffer& stored,
                                              const DicomFileHeader::ModalityLut& lut);

}  // namespace delineate::core
