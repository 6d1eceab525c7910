#pragma once
// Two more readers of a sample case, for trying the readers view on the sample data: "reader-b"
// drew each structure one voxel smaller on every second slice (its boundary voxels left out
// there), "reader-c" drew it one voxel to the image's +i side. The case's own label map is the
// first reader. Written by the sample writer as brain-mr/readers/*.nii.gz.
#include <vector>

#include "core/model/LabelMap.h"
#include "core/sample/SampleCase.h"

namespace delineate::core::sample {

std::vector<LabelMap> sampleReaders(const SampleCase& c);

}  // namespace delineate::core::sample
