#include "annotation/ai/AiInteraction.h"

#include "core/ai/ClickIndex.h"

namespace delineate::annotation {

bool AiInteraction::addClick(const core::ImageGeometry& grid, const core::Vec3& world,
                             ClickKind kind) {
  const auto voxel = core::ai::clickIndexInside(grid, world);
  if (!voxel || (kind == ClickKind::Extreme && extremePoints() >= 6)) {
    return false;
  }
  clicks_[target_].push_back({world, *voxel, kind});
  steps_[target_].push_back(Step::Click);
  return true;
}

void AiInteraction::addPrompt(core::ai::Prompt prompt, DrawnOutline drawn) {
  prompts_[target_].push_back(std::move(prompt));
  outlines_[target_].push_back(std::move(drawn));
  steps_[target_].push_back(Step::Prompt);
}

bool AiInteraction::markBoxEnd(std::size_t slice) {
  auto it = prompts_.find(target_);
  if (it == prompts_.end()) {
    return false;
  }
  for (std::size_t n = 0; n < it->second.size(); ++n) {
    core::ai::Prompt& p = it->second[n];
    if (p.kind != core::ai::PromptKind::Box || !p.positive) {
      continue;
    }
    // The first positive box is the one the engine starts from: a 3-D one has its ends.
    const int axis = p.sliceAxis();
    if (axis < 0) {
      return false;
    }
    const std::size_t own = p.box.lo[std::size_t(axis)];
    if (slice == own) {
      return false;
    }
    boxEnds_[target_].push_back({n, p.spanLo, p.spanHi});
    if (slice < own) {
      p.spanLo = slice;
    } else {
      p.spanHi = slice + 1;
    }
    steps_[target_].push_back(Step::BoxEnd);
    return true;
  }
  return false;
}

const std::vector<core::ai::Prompt>& AiInteraction::prompts() const {
  static const std::vector<core::ai::Prompt> none;
  const auto it = prompts_.find(target_);
  return it == prompts_.end() ? none : it->second;
}

std::vector<AiInteraction::DrawnOutline> AiInteraction::promptOutlines() const {
  const auto it = outlines_.find(target_);
  return it == outlines_.end() ? std::vector<DrawnOutline>{} : it->second;
}

std::string AiInteraction::lastStepName() const {
  const auto it = steps_.find(target_);
  if (it == steps_.end() || it->second.empty()) {
    return {};
  }
  if (it->second.back() == Step::BoxEnd) {
    return "Box end slice";
  }
  if (it->second.back() == Step::Click) {
    return clicks().empty()                             ? std::string()
           : clicks().back().kind == ClickKind::Extreme ? "Extreme point"
                                                        : "Click";
  }
  std::string name = core::ai::promptKindName(prompts().back().kind);
  name[0] = static_cast<char>(name[0] - 'a' + 'A');
  return name + " prompt";
}

std::string AiInteraction::removeLastStep() {
  const std::string name = lastStepName();
  auto it = steps_.find(target_);
  if (name.empty() || it == steps_.end()) {
    return {};
  }
  if (it->second.back() == Step::BoxEnd) {
    std::vector<BoxEnd>& ends = boxEnds_[target_];
    core::ai::Prompt& p = prompts_[target_].at(ends.back().prompt);
    p.spanLo = ends.back().spanLo;
    p.spanHi = ends.back().spanHi;
    ends.pop_back();
  } else if (it->second.back() == Step::Prompt) {
    prompts_[target_].pop_back();
    outlines_[target_].pop_back();
  } else {
    clicks_[target_].pop_back();
  }
  it->second.pop_back();
  return name;
}

const std::vector<AiClick>& AiInteraction::clicks() const {
  static const std::vector<AiClick> none;
  const auto it = clicks_.find(target_);
  return it == clicks_.end() ? none : it->second;
}

std::vector<AiClick> AiInteraction::clicksOf(const Target& target) const {
  const auto it = clicks_.find(target);
  return it == clicks_.end() ? std::vector<AiClick>{} : it->second;
}

void AiInteraction::removeLastClick() {
  auto it = clicks_.find(target_);
  if (it == clicks_.end() || it->second.empty()) {
    return;
  }
  it->second.pop_back();
  // The click's own step (the latest click step).
  auto& steps = steps_[target_];
  for (auto s = steps.rbegin(); s != steps.rend(); ++s) {
    if (*s == Step::Click) {
      steps.erase(std::next(s).base());
      break;
    }
  }
}

void AiInteraction::clearClicks() {
  clicks_.erase(target_);
  prompts_.erase(target_);
  outlines_.erase(target_);
  steps_.erase(target_);
  boxEnds_.erase(target_);
}

bool AiInteraction::hasPositive() const {
  for (const AiClick& c : clicks()) {
    if (c.kind == ClickKind::Positive) {
      return true;
    }
  }
  for (const core::ai::Prompt& p : prompts()) {
    if (p.positive) {
      return true;
    }
  }
  return false;
}

std::size_t AiInteraction::extremePoints() const {
  std::size_t n = 0;
  for (const AiClick& c : clicks()) {
    n += c.kind == ClickKind::Extreme;
  }
  return n;
}

core::ai::InferRequest AiInteraction::request(const std::string& model, core::VolumePtr image,
                                              const std::string& label,
                                              bool clicksAsPrompts) const {
  core::ai::InferRequest r;
  r.model = model;
  r.image = std::move(image);
  r.label = label;
  const std::vector<AiClick>& clicks = this->clicks();
  const std::vector<core::ai::Prompt>& prompts = this->prompts();
  const auto stepsIt = steps_.find(target_);
  const std::vector<Step> none;
  const std::vector<Step>& steps = stepsIt == steps_.end() ? none : stepsIt->second;
  std::size_t c = 0, p = 0;
  for (const Step step : steps) {
    if (step == Step::BoxEnd) {
      continue;  // the span is on its box already
    }
    if (step == Step::Prompt) {
      if (p < prompts.size()) {
        r.prompts.push_back(prompts[p++]);
      }
      continue;
    }
    if (c >= clicks.size()) {
      continue;
    }
    const AiClick& click = clicks[c++];
    if (click.kind == ClickKind::Extreme) {
      r.extremePoints.push_back(click.voxel);
    } else if (clicksAsPrompts && click.voxel[0] >= 0 && click.voxel[1] >= 0 &&
               click.voxel[2] >= 0) {
      core::ai::Prompt point;
      point.positive = click.kind == ClickKind::Positive;
      point.point = {std::size_t(click.voxel[0]), std::size_t(click.voxel[1]),
                     std::size_t(click.voxel[2])};
      r.prompts.push_back(point);
    } else {
      (click.kind == ClickKind::Positive ? r.foreground : r.background).push_back(click.voxel);
    }
  }
  return r;
}

core::VoxelBox AiInteraction::setProposal(std::shared_ptr<core::LabelMap> proposal,
                                          core::VoxelBox box) {
  if (frozen_ && proposal_ && proposal && proposal->geometry().sameGrid(proposal_->geometry())) {
    // Keep the previous proposal; add only what the new one has inside the frozen region.
    const core::VoxelBox& f = *frozen_;
    core::VoxelBox changed;
    for (std::size_t k = f.lo[2]; k < f.hi[2]; ++k) {
      for (std::size_t j = f.lo[1]; j < f.hi[1]; ++j) {
        for (std::size_t i = f.lo[0]; i < f.hi[0]; ++i) {
          const std::size_t n = proposal_->index(i, j, k);
          if (proposal_->data()[n] == 0 && proposal->data()[n] != 0) {
            proposal_->mutableData()[n] = proposal->data()[n];
            proposalBox_.include(i, j, k);
            changed.include(i, j, k);
          }
        }
      }
    }
    proposal_->bumpVersion();
    return changed;
  }
  core::VoxelBox changed = proposalBox_;
  proposal_ = std::move(proposal);
  proposalBox_ = proposal_ ? box : core::VoxelBox{};
  changed.include(proposalBox_);
  return changed;
}

void AiInteraction::clearProposal() {
  proposal_.reset();
  proposalBox_ = {};
}

core::VoxelBox sliceRegion(const core::ImageGeometry& grid, const core::ai::VoxelIndex& at,
                           int axis) {
  core::VoxelBox box = core::VoxelBox::whole(grid.size);
  const auto k = static_cast<std::size_t>(std::max<std::int64_t>(0, at[axis]));
  box.lo[axis] = std::min(k, grid.size[axis] - 1);
  box.hi[axis] = box.lo[axis] + 1;
  return box;
}

}  // namespace delineate::annotation
