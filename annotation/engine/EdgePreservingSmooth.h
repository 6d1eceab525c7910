#pragma once
// Edge-preserving smoothing for the segmenters: a 3x3x3 bilateral filter, repeated. Within a
// tissue it averages the noise away; across an edge whose contrast is several times the noise it
// barely mixes the two sides, so thresholds still find the edge where it is.
#include <vector>

#include "core/jobs/ProgressSink.h"
#include "core/model/ImageGeometry.h"

namespace delineate::annotation {

struct BilateralParams {
  double rangeSd = 1;      // intensity difference at which a neighbour's weight falls to e^-1/2
  double spatialSdMm = 1;  // distance in mm at which a neighbour's weight falls to e^-1/2
  int passes = 2;
  unsigned threads = 0;  // 0: core::hardwareThreads()
};

// `values` filtered in place (x-fastest block of size n, voxel spacing `spacing`). Work is split
// over z slabs on params.threads; polls progress for cancel between slabs.
void bilateralSmooth(std::vector<float>& values, const core::Size3& n, const core::Vec3& spacing,
                     const BilateralParams& params, core::ProgressSink& progress);

// The factor by which bilateralSmooth(params) scales the SD of white noise of SD `noiseSd`,
// measured on a fixed synthetic noise block, so that thresholds on the smoothed image can be set
// in units of its own noise.
double bilateralNoiseFactor(const core::Vec3& spacing, const BilateralParams& params,
                            double noiseSd);

}  // namespace delineate::annotation
