#pragma once
// Synthetic studies with ground truth, made in code from a seed (no downloads, no shipped data).
#include <cstdint>
#include <string>
#include <vector>

#include "core/model/Segment.h"
#include "core/model/Volume.h"

namespace delineate::core::sample {

struct SampleCase {
  std::string name;  // folder name, e.g. "brain-mr"
  VolumePtr image;   // with full patient/study/series identity in info()
  VolumePtr labels;  // UInt16 label map on the image grid
  std::vector<Segment> segments;
};

// T1-like brain MR, 160x192x144 at 1.0x1.0x1.2 mm: grey/white matter, lateral ventricles and a
// two-part hippocampus (head, body) on each side.
SampleCase makeBrainMr(std::uint64_t seed);

// Contrast-enhanced abdominal CT over a 384x384x240 mm field of view, by default 256x256x96
// voxels (1.5x1.5x2.5 mm): liver, spleen, kidneys, lesions, and a metal skin marker on the
// patient's left (to check left/right on screen). Benchmarks ask for larger grids.
SampleCase makeAbdomenCt(std::uint64_t seed, const Size3& size = {256, 256, 96});

// One mammography view (2-D, 12-bit in 16-bit words). `laterality` "R"/"L", `view` "CC"/"MLO";
// `prior` makes the earlier exam of the same patient (smaller mass, no calcifications).
SampleCase makeMammogram(std::uint64_t seed, const std::string& laterality, const std::string& view,
                         bool prior);

}  // namespace delineate::core::sample
