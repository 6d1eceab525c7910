#include "core/metrics/CorrectionMeasurement.h"

#include <string>
#include <vector>

#include "core/Error.h"
#include "core/jobs/ParallelFor.h"
#include "core/metrics/LabelComparison.h"
#include "core/metrics/OverlapCounts.h"

namespace delineate::core {

namespace {

// The grid of `box` inside `grid`: same spacing and direction, its first voxel as origin.
ImageGeometry subGrid(const ImageGeometry& grid, const VoxelBox& box) {
  ImageGeometry g = grid;
  for (int a = 0; a < 3; ++a) {
    g.size[a] = box.hi[a] - box.lo[a];
  }
  g.origin = grid.indexToWorld({double(box.lo[0]), double(box.lo[1]), double(box.lo[2])});
  return g;
}

std::string segmentName(const ProposalSnapshot& proposal, const LabelMap& finalMap,
                        std::uint16_t finalLabel) {
  if (const Segment* s = finalMap.segment(finalLabel); s && !s->name.empty()) {
    return s->name;
  }
  return proposal.segment.empty() ? "label " + std::to_string(finalLabel) : proposal.segment;
}

}  // namespace

CorrectionLabel measureCorrection(const ProposalSnapshot& proposal, const LabelMap& finalMap,
                                  std::uint16_t finalLabel, ProgressSink& progress) {
  if (finalLabel == 0) {
    throw Error(ErrorKind::InvalidInput, finalMap.name(),
                "label 0 is the background and has no correction");
  }
  const std::string difference = proposal.grid.differenceFrom(finalMap.geometry());
  if (!difference.empty()) {
    throw Error(ErrorKind::InvalidInput, finalMap.name(),
                "the final label map is on another grid than the proposal: " + difference);
  }
  CorrectionLabel out;
  out.label = finalLabel;
  out.proposalLabel = proposal.label;
  out.segment = segmentName(proposal, finalMap, finalLabel);

  // Both masks as 0/1 label maps on the union of their boxes (outside it neither has a voxel,
  // so the surfaces and distances are those of the whole grid).
  SubProgress finding(progress, 0.0, 0.3);
  const VoxelBox finalBox =
      countOverlaps(finalMap, finalMap, finding).find(finalLabel).referenceBox;
  VoxelBox box = proposal.box;
  box.include(finalBox);
  const bool any = !box.empty();
  if (!any) {
    box = {{0, 0, 0}, {1, 1, 1}};  // neither has the label: one empty voxel
  }
  const ImageGeometry grid = subGrid(finalMap.geometry(), box);
  LabelMap before(proposal.name, grid), after(finalMap.name(), grid);
  const Size3& n = grid.size;
  std::vector<CorrectionSlice> perSlice(n[2]);
  std::vector<std::size_t> proposalVoxels(n[2], 0), finalVoxels(n[2], 0);
  const VoxelBox& pb = proposal.box;
  const std::size_t pnx = pb.hi[0] - pb.lo[0], pny = pb.hi[1] - pb.lo[1];
  SubProgress copying(progress, 0.3, 0.5);
  parallelFor(any ? n[2] : 0, hardwareThreads(), copying, [&](std::size_t k) {
    const std::size_t gk = box.lo[2] + k;
    CorrectionSlice& slice = perSlice[k];
    slice.k = gk;
    for (std::size_t j = 0; j < n[1]; ++j) {
      const std::size_t gj = box.lo[1] + j;
      const std::uint16_t* f = finalMap.data() + finalMap.index(box.lo[0], gj, gk);
      const std::uint8_t* p = nullptr;
      if (gj >= pb.lo[1] && gj < pb.hi[1] && gk >= pb.lo[2] && gk < pb.hi[2]) {
        p = proposal.mask.data() + pnx * ((gj - pb.lo[1]) + pny * (gk - pb.lo[2]));
      }
      std::uint16_t* b = before.mutableData() + before.index(0, j, k);
      std::uint16_t* a = after.mutableData() + after.index(0, j, k);
      for (std::size_t i = 0; i < n[0]; ++i) {
        const std::size_t gi = box.lo[0] + i;
        const bool inProposal = p && gi >= pb.lo[0] && gi < pb.hi[0] && p[gi - pb.lo[0]];
        const bool inFinal = f[i] == finalLabel;
        b[i] = inProposal;
        a[i] = inFinal;
        proposalVoxels[k] += inProposal;
        finalVoxels[k] += inFinal;
        slice.added += inFinal && !inProposal;
        slice.removed += inProposal && !inFinal;
      }
    }
  });
  for (std::size_t k = 0; k < n[2]; ++k) {
    out.proposalVoxels += proposalVoxels[k];
    out.finalVoxels += finalVoxels[k];
    out.addedVoxels += perSlice[k].added;
    out.removedVoxels += perSlice[k].removed;
    if (perSlice[k].added + perSlice[k].removed > 0) {
      out.slices.push_back(perSlice[k]);
    }
  }

  ComparisonOptions options;
  options.labels = {1};
  SubProgress measuring(progress, 0.5, 1.0);
  const LabelMetrics m = compareLabelMaps(before, after, options, measuring).front();
  out.dice = m.overlap.dice;
  out.hd95Mm = m.surface->hausdorffPercentileMm;
  out.hausdorffMm = m.surface->hausdorffMm;
  out.assdMm = m.surface->averageSymmetricMm;
  return out;
}

}  // namespace delineate::core
