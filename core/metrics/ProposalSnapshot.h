#pragma once
// A compact copy of one label of an AI proposal as the user accepted it: a byte mask over the
// label's bounding box, so that the correction the user then makes can be measured later
// (CorrectionMeasurement) without keeping a full-size label map alive.
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "core/model/ImageGeometry.h"
#include "core/model/LabelMap.h"
#include "core/model/VoxelBox.h"

namespace delineate::core {

struct ProposalSnapshot {
  std::string name;                // the proposal map's name
  ImageGeometry grid;              // its grid
  std::uint16_t label = 0;         // the label kept
  std::string segment;             // its segment name ("" when it has no segment)
  VoxelBox box;                    // the label's bounding box (empty: no voxel kept)
  std::vector<std::uint8_t> mask;  // one byte per box voxel, i fastest: 1 where the label is
  std::size_t voxels = 0;          // voxels of the label kept

  // Whether voxel (i, j, k) of the grid is of the label.
  bool contains(std::size_t i, std::size_t j, std::size_t k) const;
};

// The voxels of `proposalLabel` (not 0) inside `box` (clamped to the grid; voxels outside it are
// not kept: pass the label's bounding box or VoxelBox::whole(size)). Two passes over the box, on
// the calling thread. Throws Error(InvalidInput) for label 0.
ProposalSnapshot captureProposal(const LabelMap& proposal, std::uint16_t proposalLabel,
                                 const VoxelBox& box);

// Writes `value` into `into` wherever the snapshot holds its label (the accepted proposal drawn
// back as a label map, e.g. to compare it with the corrected one). Throws Error(InvalidInput)
// when `into` is not on the snapshot's grid.
void paintSnapshot(const ProposalSnapshot& snapshot, std::uint16_t value, LabelMap& into);

}  // namespace delineate::core
