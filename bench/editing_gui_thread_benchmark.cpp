// editing_gui_thread_benchmark: what editing costs the GUI thread on a 512^3 label map, the steps
// that used to grow with the map. Prints JSON.
//   add_loaded_map_ms      Document::addLabelMap of a loaded map with crash recovery on (starts
//                          its journal; the snapshot is a job)
//   mirror_step_max_ms     the longest LabelMirror::update step while the worker copy is built
//   mirror_steps           how many steps (one per event-loop tick) the first copy takes
//   read_after_stroke_ms   bringing the copy up to date after a 20-voxel-radius stroke
//   full_copy_ms           a fresh full copy of the map: what the measurer did on the GUI thread
//                          for every measurement before
//   snapshot_job_ms        writing the recovery snapshot (on a worker; for scale)
//   journal_stroke_ms      journaling that stroke's delta (serialise, append, fdatasync)
//   scissors_work_ms       the scissors cutting a 100x100-voxel outline out of the block
//                          through all slices: working out the cut (a job in the app)
//   scissors_gui_ms        ... and what is left for the GUI thread: writing the cut, undo entry
//   accept_work_ms         AI Accept of a whole-grid proposal: working out the merge (a job)
//   accept_gui_ms          ... and writing it into the map on the GUI thread
//   accept_in_place_ms     the same merge all on the GUI thread, as before
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <memory>
#include <vector>

#include "annotation/ai/ProposalMerge.h"
#include "annotation/tools/LassoTool.h"
#include "core/document/Document.h"
#include "core/edit/EditJournal.h"
#include "core/edit/LabelMapEdit.h"
#include "core/edit/VoxelEditCommand.h"
#include "core/jobs/ProgressSink.h"
#include "core/model/LabelMirror.h"

using namespace delineate::core;
namespace fs = std::filesystem;

namespace {

using Clock = std::chrono::steady_clock;

double msSince(Clock::time_point t) {
  return std::chrono::duration<double, std::milli>(Clock::now() - t).count();
}

}  // namespace

int main(int argc, char** argv) {
  const std::size_t n = argc > 1 ? std::strtoul(argv[1], nullptr, 10) : 512;
  const fs::path root = fs::temp_directory_path() / ("delineate-gui-bench-" + std::to_string(n));
  fs::remove_all(root);

  ImageGeometry g;
  g.size = {n, n, n};
  auto image = std::make_shared<const Volume>(
      g, std::make_shared<VoxelBuffer>(ScalarType::Int16, g.voxelCount()), VolumeInfo{});
  // A "loaded" map: a block of label 1 through the middle.
  auto loaded = std::make_shared<LabelMap>("loaded", g, std::vector<Segment>{{.label = 1}});
  for (std::size_t k = n / 4; k < 3 * n / 4; ++k) {
    for (std::size_t j = n / 4; j < 3 * n / 4; ++j) {
      std::fill_n(loaded->mutableData() + loaded->index(n / 4, j, k), n / 2, std::uint16_t{1});
    }
  }

  Document doc;
  doc.setImage(image);
  doc.enableRecovery(root);
  auto t = Clock::now();
  doc.addLabelMap(loaded);
  const double addMs = msSince(t);

  LabelMirror mirror(loaded, false);
  int steps = 0;
  std::vector<double> stepMs;
  for (bool current = false; !current; ++steps) {
    t = Clock::now();
    current = mirror.update(LabelMirror::kDefaultBudget);
    stepMs.push_back(msSince(t));
  }
  std::sort(stepMs.begin(), stepMs.end());
  const double stepMax = stepMs.back(), stepMedian = stepMs[stepMs.size() / 2];
  auto copy = mirror.read();

  t = Clock::now();
  EditJournal::writeSnapshot(*copy, doc.journal(*loaded)->folder());
  doc.journal(*loaded)->snapshotWritten(doc.journal(*loaded)->journalBytes());
  const double snapshotMs = msSince(t);
  copy.reset();

  // A 20-voxel-radius ball stroke, committed and journaled, then the copy brought up to date.
  LabelMapEdit edit(*loaded);
  const double c = double(n) / 2;
  for (std::size_t k = n / 2 - 20; k <= n / 2 + 20; ++k) {
    for (std::size_t j = n / 2 - 20; j <= n / 2 + 20; ++j) {
      for (std::size_t i = n / 2 - 20; i <= n / 2 + 20; ++i) {
        const double d2 = (double(i) - c) * (double(i) - c) + (double(j) - c) * (double(j) - c) +
                          (double(k) - c) * (double(k) - c);
        if (d2 <= 400) {
          edit.write(i, j, k, 2);
        }
      }
    }
  }
  const VoxelBox box = edit.dirtyBox();
  VoxelDelta strokeDelta = edit.commit();
  t = Clock::now();
  doc.journal(*loaded)->recordDelta(strokeDelta, true);
  const double journalMs = msSince(t);
  doc.undoStack().push(std::make_unique<VoxelEditCommand>(loaded, std::move(strokeDelta), "Paint"));
  t = Clock::now();
  mirror.touch(box);
  copy = mirror.read();
  const double readMs = msSince(t);

  // What the measurer did on the GUI thread before: a fresh buffer and a full copy, each time.
  t = Clock::now();
  {
    auto fresh = std::make_shared<VoxelBuffer>(ScalarType::UInt16, loaded->voxelCount());
    std::memcpy(fresh->data(), loaded->data(), fresh->bytes());
  }
  const double fullMs = msSince(t);

  // The scissors through all slices: a square outline on the middle axial slice.
  UndoStack undo;
  delineate::annotation::EditContext context;
  context.labels = loaded;
  context.image = image;
  context.undo = &undo;
  delineate::annotation::LassoTool scissors(context, delineate::annotation::LassoMode::EraseInside);
  double scissorsWorkMs = 0, scissorsGuiMs = 0;
  scissors.setOffload([&](const std::string&, std::function<VoxelDelta(ProgressSink&)> work,
                          std::function<void(VoxelDelta)> apply) {
    NullProgress quiet;
    auto w = Clock::now();
    VoxelDelta delta = work(quiet);
    scissorsWorkMs = msSince(w);
    w = Clock::now();
    apply(std::move(delta));
    scissorsGuiMs = msSince(w);
  });
  const double lo = c - 50, hi = c + 50;
  auto pointer = [&](delineate::annotation::PointerAction action, double i, double j) {
    delineate::annotation::PointerEvent e;
    e.action = action;
    e.world = g.indexToWorld({i, j, c});
    scissors.pointer(e);
  };
  using delineate::annotation::PointerAction;
  pointer(PointerAction::Press, lo, lo);
  pointer(PointerAction::Move, hi, lo);
  pointer(PointerAction::Move, hi, hi);
  pointer(PointerAction::Move, lo, hi);
  pointer(PointerAction::Release, lo, lo);

  // AI Accept of an automatic model's answer: a proposal over the whole grid.
  LabelMap proposal("proposal", g, {{.label = 1}});
  for (std::size_t k = n / 8; k < n / 2; ++k) {
    for (std::size_t j = n / 8; j < n / 2; ++j) {
      std::fill_n(proposal.mutableData() + proposal.index(n / 8, j, k), n / 2 - n / 8,
                  std::uint16_t{1});
    }
  }
  const VoxelBox whole = VoxelBox::whole(g.size);
  NullProgress quiet;
  t = Clock::now();
  VoxelDelta accepted = delineate::annotation::planProposalMerge(proposal, *loaded, {{1, 3}}, whole,
                                                                 PaintPolicy{}, quiet);
  const double acceptWorkMs = msSince(t);
  t = Clock::now();
  accepted.apply(*loaded, true);
  const double acceptGuiMs = msSince(t);
  accepted.apply(*loaded, false);
  t = Clock::now();
  const VoxelDelta inPlace =
      delineate::annotation::mergeProposal(proposal, *loaded, {{1, 3}}, whole, PaintPolicy{});
  const double acceptInPlaceMs = msSince(t);
  const bool sameMerge = inPlace.changedVoxels() == accepted.changedVoxels();

  std::printf(
      "{\"size\": %zu, \"label_map_mb\": %.0f, \"add_loaded_map_ms\": %.3f, "
      "\"mirror_step_max_ms\": %.2f, \"mirror_step_median_ms\": %.2f, \"mirror_steps\": %d, "
      "\"read_after_stroke_ms\": %.3f, "
      "\"copy_current\": %s, \"full_copy_ms\": %.1f, \"snapshot_job_ms\": %.0f, "
      "\"journal_stroke_ms\": %.2f, \"scissors_work_ms\": %.0f, \"scissors_gui_ms\": %.2f, "
      "\"scissors_undo_entries\": %zu, \"accept_work_ms\": %.0f, \"accept_gui_ms\": %.1f, "
      "\"accept_in_place_ms\": %.0f, \"accept_changed_voxels\": %zu, \"same_merge\": %s}\n",
      n, double(loaded->voxelCount()) * 2 / 1048576.0, addMs, stepMax, stepMedian, steps, readMs,
      copy ? "true" : "false", fullMs, snapshotMs, journalMs, scissorsWorkMs, scissorsGuiMs,
      undo.count(), acceptWorkMs, acceptGuiMs, acceptInPlaceMs, accepted.changedVoxels(),
      sameMerge ? "true" : "false");
  fs::remove_all(root);
  return 0;
}
