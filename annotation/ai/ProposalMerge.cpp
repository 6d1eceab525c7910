#include "annotation/ai/ProposalMerge.h"

#include <optional>
#include <vector>

#include "core/Error.h"
#include "core/edit/LabelMapEdit.h"

namespace delineate::annotation {

namespace {

core::VoxelDelta merge(const core::LabelMap& proposal, core::LabelMapEdit& edit,
                       const std::map<std::uint16_t, std::uint16_t>& valueMap,
                       const core::VoxelBox& box, std::optional<std::uint16_t> refined,
                       core::ProgressSink* progress) {
  const std::string diff = edit.map().geometry().differenceFrom(proposal.geometry());
  if (!diff.empty()) {
    throw core::Error(core::ErrorKind::InvalidInput, proposal.name(),
                      "the proposal is on another grid: " + diff);
  }
  std::vector<std::uint16_t> lookup(65536, 0);
  std::vector<bool> any(65536, false);
  for (const auto& [from, to] : valueMap) {
    lookup[from] = to;
    any[from] = from != 0;
  }
  for (std::size_t k = box.lo[2]; k < box.hi[2]; ++k) {
    if (progress != nullptr) {
      progress->throwIfCancelled();
      progress->report(double(k - box.lo[2]) / double(box.hi[2] - box.lo[2]), "merging");
    }
    for (std::size_t j = box.lo[1]; j < box.hi[1]; ++j) {
      for (std::size_t i = box.lo[0]; i < box.hi[0]; ++i) {
        const std::uint16_t v = proposal.at(i, j, k);
        if (any[v]) {
          edit.write(i, j, k, lookup[v]);
        } else if (v == 0 && refined && edit.map().at(i, j, k) == *refined) {
          edit.write(i, j, k, 0);
        }
      }
    }
  }
  return edit.commit();
}

}  // namespace

core::VoxelDelta mergeProposal(const core::LabelMap& proposal, core::LabelMap& target,
                               const std::map<std::uint16_t, std::uint16_t>& valueMap,
                               const core::VoxelBox& box, const core::PaintPolicy& policy,
                               std::optional<std::uint16_t> refined) {
  core::LabelMapEdit edit(target, policy);
  return merge(proposal, edit, valueMap, box, refined, nullptr);
}

core::VoxelDelta planProposalMerge(const core::LabelMap& proposal, const core::LabelMap& target,
                                   const std::map<std::uint16_t, std::uint16_t>& valueMap,
                                   const core::VoxelBox& box, const core::PaintPolicy& policy,
                                   core::ProgressSink& progress,
                                   std::optional<std::uint16_t> refined) {
  core::LabelMapEdit edit = core::LabelMapEdit::staged(target, policy);
  return merge(proposal, edit, valueMap, box, refined, &progress);
}

}  // namespace delineate::annotation
