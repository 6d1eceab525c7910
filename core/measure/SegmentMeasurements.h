#pragma once
// Per-segment measurements shown in the segments dock and copied as a table.
#include <cstdint>
#include <string>
#include <vector>

#include "core/jobs/ProgressSink.h"
#include "core/model/LabelMap.h"
#include "core/model/Volume.h"

namespace delineate::core {

struct SegmentMeasurement {
  std::uint16_t label = 0;
  std::string name;
  std::size_t voxels = 0;
  double volumeMl = 0;
  // Image intensity inside the segment (0 when no image is given or the segment is empty).
  double mean = 0, sd = 0, min = 0, max = 0;
  // Largest distance between two voxel centres of the segment, in mm (0 for <= 1 voxel).
  double largestDiameterMm = 0;
};

// One pass over the label map for counts and intensities, then the diameter of each segment from
// its surface voxels. `image` may be null; when given it must be on the label map's grid.
std::vector<SegmentMeasurement> measureSegments(const LabelMap& labels, const Volume* image,
                                                ProgressSink& progress);

// Tab-separated, with a header row, for the clipboard and spreadsheets.
std::string measurementsToTsv(const std::vector<SegmentMeasurement>& rows);

}  // namespace delineate::core
