#pragma once
// Finds the fourth dimension of a DICOM series whose slices repeat at each position: multi-phase
// CT, DCE and perfusion MR (temporal positions, acquisition times), diffusion (b-values),
// multi-echo (echo times), cardiac phases (trigger times). Pure logic, no I/O.
#include <array>
#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include "core/io/DicomSliceGeometry.h"
#include "core/model/FrameSeries.h"

namespace delineate::core {

// What each slice's header says that could tell the frames apart.
struct DicomFrameKeys {
  std::optional<double> temporalPosition;  // Temporal Position Identifier (0020,0100)
  std::optional<double> bValue;            // Diffusion b-value (0018,9087), s/mm²
  // Diffusion Gradient Orientation (0018,9089): tells apart the directions of one b-value.
  std::optional<std::array<double, 3>> gradient;
  std::optional<double> echoTime;            // Echo Time (0018,0081), ms
  std::optional<double> triggerTime;         // Trigger Time (0018,1060), ms
  std::optional<double> acquisitionSeconds;  // Acquisition Time (else Content Time), s of day
};

struct DicomFrameSplit {
  FrameAxis axis;
  // For each frame, in axis order: the indices of its slices (into the placements).
  std::vector<std::vector<std::size_t>> frames;
};

// When every position of the series holds the same number N > 1 of slices and one of the keys
// (tried in the order of DicomFrameKeys) tells the N apart the same way at every position, the
// series is N frames: the k-th smallest key value at each position belongs to frame k. nullopt
// otherwise (a 3-D series, or repeats nothing tells apart: the loader keeps one per position).
std::optional<DicomFrameSplit> splitDicomFrames(const std::vector<DicomSlicePlacement>& slices,
                                                const std::vector<DicomFrameKeys>& keys);

// "HHMMSS.FFFFFF" (DICOM TM) as seconds of the day; nullopt when malformed.
std::optional<double> dicomTimeSeconds(const std::string& tm);

}  // namespace delineate::core
