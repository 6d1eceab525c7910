#pragma once
// Per-slice Dice along all three index axes from an agreement map (core/metrics/AgreementMap.h:
// 1 agreement, 2 test only, 3 reference only, 4 different label), in one pass: what the compare
// view's slice strips, worst-slice keys and Dice plot show. On a slice with a agreeing, p
// test-only, n reference-only and d different-label voxels the Dice is 2a / (2a + p + n + 2d) (a
// voxel of different labels counts in both masks and agrees in neither); NaN where the slice has
// none of them.
#include <array>
#include <vector>

#include "core/jobs/ProgressSink.h"
#include "core/model/LabelMap.h"

namespace delineate::core {

// [axis][slice]: axis 0 = i, 1 = j, 2 = k. Parallel over k; cancellable.
std::array<std::vector<double>, 3> agreementSliceDice(const LabelMap& agreement,
                                                      ProgressSink& progress);

// Slices with a Dice value, worst first (ties: lower index first).
std::vector<int> worstSlicesFirst(const std::vector<double>& sliceDice);

}  // namespace delineate::core
