#pragma once
// Whole-segment operations for the app. Each is split in two so that the app can run the slow
// part as a job: compute...() runs on a worker from a const label map (which the app keeps busy
// meanwhile) and returns the segment's new voxels as a BoxMask; applySegmentResult() runs on the
// GUI thread and writes it as one undo entry (or planSegmentResult() on the worker too, and
// landSegmentResult() on the GUI thread). run...() does both at once (scripts, tests).
#include <cstddef>
#include <cstdint>
#include <string>

#include "annotation/EditContext.h"
#include "annotation/ops/BoxMask.h"
#include "annotation/ops/LogicalOp.h"
#include "annotation/ops/SmoothMask.h"
#include "core/jobs/ProgressSink.h"
#include "core/model/LabelMap.h"

namespace delineate::annotation {

// --- compute: any thread, const inputs. Each returns segment `label`'s new voxels over a box
// covering everything it removes. ---

BoxMask computeKeepLargestIsland(const core::LabelMap& map, std::uint16_t label,
                                 core::ProgressSink& progress);
BoxMask computeRemoveSmallIslands(const core::LabelMap& map, std::uint16_t label,
                                  std::size_t minVoxels, core::ProgressSink& progress);
BoxMask computeSmoothing(const core::LabelMap& map, std::uint16_t label, SmoothingKind kind,
                         double radiusMm, core::ProgressSink& progress);
// marginMm > 0 grows, < 0 shrinks (spacing-aware, see growShrink()).
BoxMask computeMargin(const core::LabelMap& map, std::uint16_t label, double marginMm,
                      core::ProgressSink& progress);
// Segment `label` op segment `other` (Union: label gains other's voxels, ...).
BoxMask computeLogical(const core::LabelMap& map, std::uint16_t label, std::uint16_t other,
                       LogicalOp op, core::ProgressSink& progress);
// Interpolates the segment between the slices along index axis `axis` where it is drawn.
BoxMask computeFillBetweenSlices(const core::LabelMap& map, std::uint16_t label, int axis,
                                 core::ProgressSink& progress);

// --- apply: GUI thread. Segment `label` of context.labels becomes exactly `result` inside its
// box, as one undo entry named `text`. Voxels it gains obey context.policy; it may always lose
// its own voxels; locked segments (this one included) never change. Calls context.changed with
// the changed box. Returns the number of voxels changed. ---

std::size_t applySegmentResult(EditContext& context, std::uint16_t label, const BoxMask& result,
                               const std::string& text);

// The same in two halves, so that a large result does not hold the GUI thread: the plan (any
// thread, the map unchanged; the same rules as applySegmentResult) and its landing (GUI thread:
// writes the delta, one undo entry, context.changed). Returns the voxels changed.
core::VoxelDelta planSegmentResult(const core::LabelMap& map, std::uint16_t label,
                                   const BoxMask& result, const core::PaintPolicy& policy);
std::size_t landSegmentResult(EditContext& context, core::VoxelDelta delta,
                              const std::string& text);

// --- both at once, on the calling thread ---

enum class IslandMode { KeepLargest, RemoveSmall };

std::size_t runIslands(EditContext& context, std::uint16_t label, IslandMode mode,
                       std::size_t minVoxels, core::ProgressSink& progress);
std::size_t runSmoothing(EditContext& context, std::uint16_t label, SmoothingKind kind,
                         double radiusMm, core::ProgressSink& progress);
std::size_t runMargin(EditContext& context, std::uint16_t label, double marginMm,
                      core::ProgressSink& progress);
std::size_t runLogical(EditContext& context, std::uint16_t label, std::uint16_t other, LogicalOp op,
                       core::ProgressSink& progress);
std::size_t runFillBetweenSlices(EditContext& context, std::uint16_t label, int axis,
                                 core::ProgressSink& progress);

}  // namespace delineate::annotation
