#pragma once
// The annotator's side of AI-assisted segmentation, without widgets: the clicks given for each
// segment (positive, negative, extreme points; each segment keeps its own), the request they make,
// and the proposal the backend returned — shown semi-transparent until it is accepted (merged
// under the paint-over policy as one undo entry) or rejected. With Freeze on, a new result may
// only add voxels inside the frozen region (the slice being worked on); everything else of the
// proposal stays as it was.
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "core/ai/AiBackend.h"
#include "core/model/LabelMap.h"
#include "core/model/VoxelBox.h"

namespace delineate::annotation {

enum class ClickKind { Positive, Negative, Extreme };

struct AiClick {
  core::Vec3 world{};            // where the user clicked (LPS mm)
  core::ai::VoxelIndex voxel{};  // on the image grid, rounded
  ClickKind kind = ClickKind::Positive;
};

// What the user drew for a prompt (LPS mm): its outline, closed or not.
struct AiDrawnOutline {
  std::vector<core::Vec3> points;
  bool closed = false;
};

class AiInteraction {
 public:
  // The segment clicks belong to: a label map and a label value in it.
  using Target = std::pair<const core::LabelMap*, std::uint16_t>;

  void setTarget(Target target) { target_ = target; }
  const Target& target() const { return target_; }

  // Adds a click of the current target on `grid`; false (nothing added) outside the grid or
  // beyond six extreme points.
  bool addClick(const core::ImageGeometry& grid, const core::Vec3& world, ClickKind kind);
  const std::vector<AiClick>& clicks() const;
  std::vector<AiClick> clicksOf(const Target& target) const;
  void removeLastClick();
  // Clears the current target's clicks and prompts.
  void clearClicks();
  // A positive click or prompt of the current target.
  bool hasPositive() const;

  // Boxes, scribbles and lassos of the current target, in the order given (with the clicks,
  // one list of steps: removeLastStep takes back whichever came last).
  // `drawn`: what the user drew (LPS mm), shown on the slices until the proposal is accepted.
  using DrawnOutline = AiDrawnOutline;
  void addPrompt(core::ai::Prompt prompt, DrawnOutline drawn = {});
  const std::vector<core::ai::Prompt>& prompts() const;
  // The outlines of prompts(), in the same order.
  std::vector<DrawnOutline> promptOutlines() const;
  // The structure ends on `slice` along the axis of the current target's first positive box
  // (the one the engine starts from), drawn on a slice: that box's span (Prompt::spanLo or
  // spanHi) on that side of its own slice is set there, as a step of its own ("Box end slice").
  // False (nothing changed) without a positive box, when the first is 3-D, or on its own slice.
  bool markBoxEnd(std::size_t slice);
  // Takes back the current target's latest click, prompt or box end; its name for Edit > Undo
  // ("Box prompt", "Click", "Box end slice"), or empty when there was none.
  std::string removeLastStep();
  // The name the latest step would have in Edit > Undo.
  std::string lastStepName() const;
  std::size_t extremePoints() const;

  // The request the current target's clicks make.
  // `clicksAsPrompts`: positive and negative clicks go into `prompts` as points, in the order
  // the steps were given with the other prompts (for a backend that declares point prompts and
  // keeps them on the server, where the order is the protocol's); else into
  // foreground/background.
  core::ai::InferRequest request(const std::string& model, core::VolumePtr image,
                                 const std::string& label, bool clicksAsPrompts = false) const;

  // A new result and the box of its non-zero voxels (core::contentBox, computed by the job).
  // With a frozen region, only voxels inside it may be added to the previous proposal; the rest
  // of it is kept. Returns the box of voxels that changed on screen.
  core::VoxelBox setProposal(std::shared_ptr<core::LabelMap> proposal, core::VoxelBox box);
  const std::shared_ptr<core::LabelMap>& proposal() const { return proposal_; }
  const core::VoxelBox& proposalBox() const { return proposalBox_; }
  void clearProposal();

  void setFrozen(std::optional<core::VoxelBox> region) { frozen_ = region; }
  const std::optional<core::VoxelBox>& frozen() const { return frozen_; }

 private:
  Target target_{nullptr, 0};
  std::map<Target, std::vector<AiClick>> clicks_;
  std::map<Target, std::vector<core::ai::Prompt>> prompts_;
  std::map<Target, std::vector<DrawnOutline>> outlines_;
  enum class Step { Click, Prompt, BoxEnd };
  // A box end's step: the prompt it changed and that prompt's span before it.
  struct BoxEnd {
    std::size_t prompt = 0;
    std::optional<std::size_t> spanLo, spanHi;
  };
  std::map<Target, std::vector<Step>> steps_;
  std::map<Target, std::vector<BoxEnd>> boxEnds_;
  std::shared_ptr<core::LabelMap> proposal_;
  core::VoxelBox proposalBox_;
  std::optional<core::VoxelBox> frozen_;
};

// The single-slice region of `grid` through voxel `at` across index axis `axis` (Freeze).
core::VoxelBox sliceRegion(const core::ImageGeometry& grid, const core::ai::VoxelIndex& at,
                           int axis);

}  // namespace delineate::annotation
