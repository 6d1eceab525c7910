#pragma once
// The Modality LUT Sequence applied to decoded stored values (PS3.3 C.11.1): each voxel becomes
// the table entry of its stored value; values below the first mapped one take the first entry,
// values past the table the last.
#include <memory>

#include "core/io/DicomHeader.h"
#include "core/model/VoxelBuffer.h"

namespace delineate::core {

// `stored` holds stored values (any integer type); returns a new UInt16 buffer (UInt8 when the
// table's entries have at most 8 bits) of the table's output values.
std::shared_ptr<VoxelBuffer> applyModalityLut(const VoxelBuffer& stored,
                                              const DicomFileHeader::ModalityLut& lut);

}  // namespace delineate::core
