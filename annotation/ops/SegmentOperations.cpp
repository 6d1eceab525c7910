#include "annotation/ops/SegmentOperations.h"

#include <memory>

#include "annotation/ops/FillBetweenSlices.h"
#include "annotation/ops/GrowShrink.h"
#include "annotation/ops/Islands.h"
#include "core/edit/LabelMapEdit.h"
#include "core/edit/VoxelEditCommand.h"

namespace delineate::annotation {

namespace {

const char* smoothingText(SmoothingKind kind) {
  switch (kind) {
    case SmoothingKind::Median:
      return "Median smoothing";
    case SmoothingKind::Opening:
      return "Opening";
    case SmoothingKind::Closing:
      return "Closing";
  }
  return "Smoothing";
}

const char* logicalText(LogicalOp op) {
  switch (op) {
    case LogicalOp::Union:
      return "Add segment";
    case LogicalOp::Intersect:
      return "Intersect segments";
    case LogicalOp::Subtract:
      return "Subtract segment";
    case LogicalOp::Xor:
      return "Exclusive-or segments";
  }
  return "Logical operation";
}

}  // namespace

BoxMask computeKeepLargestIsland(const core::LabelMap& map, std::uint16_t label,
                                 core::ProgressSink& progress) {
  progress.throwIfCancelled();
  return keepLargestIsland(extractSegment(map, label));
}

BoxMask computeRemoveSmallIslands(const core::LabelMap& map, std::uint16_t label,
                                  std::size_t minVoxels, core::ProgressSink& progress) {
  progress.throwIfCancelled();
  return removeSmallIslands(extractSegment(map, label), minVoxels);
}

BoxMask computeSmoothing(const core::LabelMap& map, std::uint16_t label, SmoothingKind kind,
                         double radiusMm, core::ProgressSink& progress) {
  progress.throwIfCancelled();
  return smoothMask(extractSegment(map, label), kind, radiusMm, map.geometry().spacing, progress);
}

BoxMask computeMargin(const core::LabelMap& map, std::uint16_t label, double marginMm,
                      core::ProgressSink& progress) {
  progress.throwIfCancelled();
  const core::ImageGeometry& g = map.geometry();
  return growShrink(extractSegment(map, label), marginMm, g.spacing, g.size, progress);
}

BoxMask computeLogical(const core::LabelMap& map, std::uint16_t label, std::uint16_t other,
                       LogicalOp op, core::ProgressSink& progress) {
  progress.throwIfCancelled();
  return logicalOp(extractSegment(map, label), extractSegment(map, other), op);
}

BoxMask computeFillBetweenSlices(const core::LabelMap& map, std::uint16_t label, int axis,
                                 core::ProgressSink& progress) {
  progress.throwIfCancelled();
  return fillBetweenSlices(extractSegment(map, label), axis, progress);
}

std::size_t applySegmentResult(EditContext& context, std::uint16_t label, const BoxMask& result,
                               const std::string& text) {
  if (!context.labels || result.box.empty()) {
    return 0;
  }
  core::LabelMap& map = *context.labels;
  // The edit itself may overwrite anything unlocked, so that the segment can always lose
  // voxels; what it gains is filtered by the context's policy first.
  const BoxMask allowed = restrictToPolicy(result, map, label, context.policy);
  core::LabelMapEdit edit(map, core::PaintPolicy{});
  applyReplace(edit, allowed, label);
  core::VoxelDelta delta = edit.commit();
  const std::size_t changed = delta.changedVoxels();
  if (delta.empty()) {
    return 0;
  }
  const core::VoxelBox box = delta.box();
  if (context.undo) {
    context.undo->push(
        std::make_unique<core::VoxelEditCommand>(context.labels, std::move(delta), text));
  }
  if (context.changed) {
    context.changed(box);
  }
  return changed;
}

core::VoxelDelta planSegmentResult(const core::LabelMap& map, std::uint16_t label,
                                   const BoxMask& result, const core::PaintPolicy& policy) {
  if (result.box.empty()) {
    return {};
  }
  const BoxMask allowed = restrictToPolicy(result, map, label, policy);
  core::LabelMapEdit edit = core::LabelMapEdit::staged(map, core::PaintPolicy{});
  applyReplace(edit, allowed, label);
  return edit.commit();
}

std::size_t landSegmentResult(EditContext& context, core::VoxelDelta delta,
                              const std::string& text) {
  if (!context.labels || delta.empty()) {
    return 0;
  }
  delta.apply(*context.labels, true);
  const std::size_t changed = delta.changedVoxels();
  const core::VoxelBox box = delta.box();
  if (context.undo) {
    context.undo->push(
        std::make_unique<core::VoxelEditCommand>(context.labels, std::move(delta), text));
  }
  if (context.changed) {
    context.changed(box);
  }
  return changed;
}

std::size_t runIslands(EditContext& context, std::uint16_t label, IslandMode mode,
                       std::size_t minVoxels, core::ProgressSink& progress) {
  const BoxMask result =
      mode == IslandMode::KeepLargest
          ? computeKeepLargestIsland(*context.labels, label, progress)
          : computeRemoveSmallIslands(*context.labels, label, minVoxels, progress);
  return applySegmentResult(
      context, label, result,
      mode == IslandMode::KeepLargest ? "Keep largest island" : "Remove small islands");
}

std::size_t runSmoothing(EditContext& context, std::uint16_t label, SmoothingKind kind,
                         double radiusMm, core::ProgressSink& progress) {
  return applySegmentResult(context, label,
                            computeSmoothing(*context.labels, label, kind, radiusMm, progress),
                            smoothingText(kind));
}

std::size_t runMargin(EditContext& context, std::uint16_t label, double marginMm,
                      core::ProgressSink& progress) {
  return applySegmentResult(context, label,
                            computeMargin(*context.labels, label, marginMm, progress),
                            marginMm >= 0 ? "Grow" : "Shrink");
}

std::size_t runLogical(EditContext& context, std::uint16_t label, std::uint16_t other, LogicalOp op,
                       core::ProgressSink& progress) {
  return applySegmentResult(
      context, label, computeLogical(*context.labels, label, other, op, progress), logicalText(op));
}

std::size_t runFillBetweenSlices(EditContext& context, std::uint16_t label, int axis,
                                 core::ProgressSink& progress) {
  return applySegmentResult(context, label,
                            computeFillBetweenSlices(*context.labels, label, axis, progress),
                            "Fill between slices");
}

}  // namespace delineate::annotation
