#pragma once
// Robust estimate of the standard deviation of voxel noise from the image itself.
#include <vector>

#include "core/model/ImageGeometry.h"
#include "core/model/Volume.h"

namespace delineate::annotation {

// The SD of independent Gaussian values from the absolute differences of pairs of them (their
// lower quartile, which edges and texture move less than the median); `floor` when smaller or
// when there are none. Reorders `diffs`.
double sdFromDifferences(std::vector<float>& diffs, double floor);

// From the lower quartile of |v(x+1) - v(x)| over neighbour pairs along x: the SD of white noise
// on piecewise-constant tissue, little affected by the pairs across edges or texture. `values`
// is an x-fastest block of size n. Never below `floor`.
double estimateNoiseSd(const std::vector<float>& values, const core::Size3& n, double floor);

// The same over (up to ~1 M pairs of) the whole volume.
double estimateNoiseSd(const core::Volume& image);

// The same over boxes of half-size `radiusMm` around each of `voxels`: the noise where the user
// clicked, not that of the textures elsewhere. 0 when `voxels` is empty.
double estimateNoiseSdNear(const core::Volume& image, const std::vector<core::Size3>& voxels,
                           double radiusMm);

}  // namespace delineate::annotation
