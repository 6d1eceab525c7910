#include "core/metrics/ProposalSnapshot.h"

#include <algorithm>

#include "core/Error.h"

namespace delineate::core {

bool ProposalSnapshot::contains(std::size_t i, std::size_t j, std::size_t k) const {
  if (i < box.lo[0] || j < box.lo[1] || k < box.lo[2] || i >= box.hi[0] || j >= box.hi[1] ||
      k >= box.hi[2]) {
    return false;
  }
  const std::size_t nx = box.hi[0] - box.lo[0], ny = box.hi[1] - box.lo[1];
  return mask[(i - box.lo[0]) + nx * ((j - box.lo[1]) + ny * (k - box.lo[2]))] != 0;
}

ProposalSnapshot captureProposal(const LabelMap& proposal, std::uint16_t proposalLabel,
                                 const VoxelBox& box) {
  if (proposalLabel == 0) {
    throw Error(ErrorKind::InvalidInput, proposal.name(),
                "label 0 is the background and cannot be captured");
  }
  ProposalSnapshot s;
  s.name = proposal.name();
  s.grid = proposal.geometry();
  s.label = proposalLabel;
  if (const Segment* segment = proposal.segment(proposalLabel)) {
    s.segment = segment->name;
  }
  const Size3& size = s.grid.size;
  VoxelBox within;
  for (int a = 0; a < 3; ++a) {
    within.lo[a] = std::min(box.lo[a], size[a]);
    within.hi[a] = std::min(box.hi[a], size[a]);
  }
  if (within.empty()) {
    return s;
  }
  // The label's own box inside the given one, then its voxels.
  for (std::size_t k = within.lo[2]; k < within.hi[2]; ++k) {
    for (std::size_t j = within.lo[1]; j < within.hi[1]; ++j) {
      const std::uint16_t* row = proposal.data() + proposal.index(0, j, k);
      std::size_t first = within.hi[0], last = 0;
      for (std::size_t i = within.lo[0]; i < within.hi[0]; ++i) {
        if (row[i] == proposalLabel) {
          first = std::min(first, i);
          last = i;
          ++s.voxels;
        }
      }
      if (first < within.hi[0]) {
        s.box.include(first, j, k);
        s.box.include(last, j, k);
      }
    }
  }
  s.mask.assign(s.box.count(), 0);
  std::uint8_t* out = s.mask.data();
  for (std::size_t k = s.box.lo[2]; k < s.box.hi[2]; ++k) {
    for (std::size_t j = s.box.lo[1]; j < s.box.hi[1]; ++j) {
      const std::uint16_t* row = proposal.data() + proposal.index(0, j, k);
      for (std::size_t i = s.box.lo[0]; i < s.box.hi[0]; ++i) {
        *out++ = row[i] == proposalLabel;
      }
    }
  }
  return s;
}

void paintSnapshot(const ProposalSnapshot& snapshot, std::uint16_t value, LabelMap& into) {
  const std::string diff = into.geometry().differenceFrom(snapshot.grid);
  if (!diff.empty()) {
    throw Error(ErrorKind::InvalidInput, into.name(),
                "not on the grid of the proposal " + snapshot.name + ": " + diff);
  }
  const std::uint8_t* in = snapshot.mask.data();
  for (std::size_t k = snapshot.box.lo[2]; k < snapshot.box.hi[2]; ++k) {
    for (std::size_t j = snapshot.box.lo[1]; j < snapshot.box.hi[1]; ++j) {
      std::uint16_t* row = into.mutableData() + into.index(0, j, k);
      for (std::size_t i = snapshot.box.lo[0]; i < snapshot.box.hi[0]; ++i) {
        if (*in++ != 0) {
          row[i] = value;
        }
      }
    }
  }
}

}  // namespace delineate::core
