#include "annotation/engine/LocalEngineBackend.h"

#include "annotation/engine/PromptSegmenter.h"

#include <algorithm>
#include <chrono>
#include <optional>

#include "annotation/engine/AutoSegmenter.h"
#include "annotation/engine/ExtremePointSegmenter.h"
#include "core/Error.h"
#include "core/ai/MonaiInfo.h"
#include "core/edit/LabelMapEdit.h"

namespace delineate::annotation {

namespace {

using Clock = std::chrono::steady_clock;

// Voxel index clamped into the grid, or nullopt when it lies outside.
std::optional<core::Size3> inside(const core::ai::VoxelIndex& v, const core::Size3& n) {
  for (int a = 0; a < 3; ++a) {
    if (v[a] < 0 || static_cast<std::size_t>(v[a]) >= n[a]) {
      return std::nullopt;
    }
  }
  return core::Size3{static_cast<std::size_t>(v[0]), static_cast<std::size_t>(v[1]),
                     static_cast<std::size_t>(v[2])};
}

}  // namespace

const std::vector<std::string>& LocalEngineBackend::brainMrLabels() {
  static const std::vector<std::string> labels = {"White matter", "Lateral ventricles",
                                                  "Left hippocampus", "Right hippocampus"};
  return labels;
}

nlohmann::json LocalEngineBackend::infoJson() {
  const nlohmann::json options = {{"band_sd", 3.0}, {"fill_holes", true}};
  nlohmann::json brainLabels = nlohmann::json::object();
  for (std::size_t i = 0; i < brainMrLabels().size(); ++i) {
    brainLabels[brainMrLabels()[i]] = i + 1;
  }
  return {{"name", "Delineate built-in engine"},
          {"description", "Point-guided 3D segmentation with classical methods; no model weights"},
          {"version", DELINEATE_VERSION},
          {"labels", nlohmann::json::array()},
          {"models",
           {{kClickModel,
             {{"type", "deepgrow"},
              {"labels", nlohmann::json::array()},
              {"dimension", 3},
              {"description",
               "Clicks inside (positive) and outside (negative) one structure; any modality"},
              {"version", DELINEATE_VERSION},
              {"config", options}}},
            {kExtremeModel,
             {{"type", "dextr3d"},
              {"labels", nlohmann::json::array()},
              {"dimension", 3},
              {"description", "Six extreme points of one structure"},
              {"version", DELINEATE_VERSION},
              {"config", options}}},
            {kBrainMrModel,
             {{"type", "segmentation"},
              {"labels", brainLabels},
              {"dimension", 3},
              {"description",
               "Demonstration only, not for clinical use: white matter, lateral ventricles and "
               "hippocampi of the built-in sample brain MR (T1-like), from its histogram"}}}}},
          {"trainers", nlohmann::json::object()},
          {"strategies", nlohmann::json::object()},
          {"scoring", nlohmann::json::object()}};
}

core::ai::ServerInfo LocalEngineBackend::info(core::ProgressSink&) {
  return core::ai::parseMonaiInfo(infoJson().dump(), displayName());
}

core::ai::BackendCapabilities LocalEngineBackend::capabilities() const {
  core::ai::BackendCapabilities c;
  c.promptKinds = {core::ai::PromptKind::Point, core::ai::PromptKind::Box,
                   core::ai::PromptKind::Scribble, core::ai::PromptKind::Lasso};
  c.initialMasks = true;
  c.boxSpans = true;
  return c;
}

core::ai::InferResult LocalEngineBackend::infer(const core::ai::InferRequest& request,
                                                core::ProgressSink& progress) {
  const auto start = Clock::now();
  if (!request.image) {
    throw core::Error(core::ErrorKind::InvalidInput, displayName(), "no image to segment");
  }
  if (request.model == kBrainMrModel) {
    return inferBrainMr(request, progress);
  }
  const core::Size3& n = request.image->geometry().size;
  Guidance guidance;
  const bool extreme = request.model == kExtremeModel;
  if (!extreme && request.model != kClickModel) {
    throw core::Error(core::ErrorKind::InvalidInput, displayName(),
                      "no model named '" + request.model + "'");
  }
  for (const auto& v : request.foreground) {
    if (auto p = inside(v, n)) {
      guidance.add(*p, true);
    }
  }
  for (const auto& v : request.background) {
    if (auto p = inside(v, n)) {
      guidance.add(*p, false);
    }
  }
  SegmenterOptions options = segmenter_.options();
  if (request.options.is_object()) {
    options.bandSd = request.options.value("band_sd", options.bandSd);
    if (!request.options.value("fill_holes", true)) {
      options.maxHoleFraction = 0;
    }
  }
  ExtremePoints points{};
  if (extreme) {
    if (request.extremePoints.size() != 6) {
      throw core::Error(core::ErrorKind::InvalidInput, displayName(),
                        "the extreme-point model needs six points, got " +
                            std::to_string(request.extremePoints.size()));
    }
    for (std::size_t i = 0; i < 6; ++i) {
      const auto p = inside(request.extremePoints[i], n);
      if (!p) {
        throw core::Error(core::ErrorKind::InvalidInput, displayName(),
                          "an extreme point lies outside the image");
      }
      points[i] = *p;
    }
  }
  // Boxes, scribbles and lassos with the clicks: the prompt segmenter (clicks as point prompts).
  std::vector<core::ai::Prompt> prompts = request.prompts;
  for (const GuidanceClick& c : guidance.clicks) {
    core::ai::Prompt p;
    p.point = c.voxel;
    p.positive = c.positive;
    prompts.push_back(p);
  }
  // The structure as it stands, when the request refines it.
  std::optional<BoxMask> initial;
  if (!extreme && request.initialMask) {
    if (request.initialMask->size() != request.image->geometry().voxelCount()) {
      throw core::Error(core::ErrorKind::InvalidInput, displayName(),
                        "the structure to refine is not on the image's grid");
    }
    BoxMask whole(core::VoxelBox::whole(n));
    whole.bits = *request.initialMask;
    if (!whole.none()) {
      initial = whole.shrunkToContent();
    }
  }
  if (!extreme && !initial && guidanceOf(prompts, n).positives().empty()) {
    throw core::Error(core::ErrorKind::InvalidInput, displayName(),
                      "no positive click or prompt inside the image");
  }
  // Extreme points: the tissues along the paths between opposite points guide the segmenter,
  // clipped to the points' box (ExtremePointSegmenter).
  const BoxMask mask =
      extreme ? ExtremePointSegmenter(options).segment(*request.image, points, progress)
      : request.prompts.empty() && !initial
          ? PointGuidedSegmenter(options).segment(*request.image, guidance, progress)
          : PromptSegmenter(options).segment(*request.image, prompts, progress,
                                             initial ? &*initial : nullptr);

  core::ai::InferResult result;
  core::Segment segment = core::defaultSegment(1);
  segment.name = request.label.empty() ? "Structure" : request.label;
  segment.algorithmType = "SEMIAUTOMATIC";
  result.labels = std::make_shared<core::LabelMap>(segment.name, request.image->geometry(),
                                                   std::vector<core::Segment>{segment});
  {
    core::LabelMapEdit edit(*result.labels);
    applyPaint(edit, mask, 1);
    edit.commit();
  }
  const double seconds = std::chrono::duration<double>(Clock::now() - start).count();
  result.timings.totalSeconds = seconds;
  result.timings.serverSeconds = seconds;
  result.params = {{"label_names", {{segment.name, 1}}},
                   {"latencies", {{"infer", seconds}, {"total", seconds}}}};
  return result;
}

core::ai::InferResult LocalEngineBackend::inferBrainMr(const core::ai::InferRequest& request,
                                                       core::ProgressSink& progress) const {
  const auto start = Clock::now();
  const std::vector<AutoSegment> found =
      AutoSegmenter(segmenter_.options()).segmentBrainMr(*request.image, progress);
  std::vector<core::Segment> segments;
  nlohmann::json names = nlohmann::json::object();
  for (std::size_t i = 0; i < brainMrLabels().size(); ++i) {
    core::Segment s = core::defaultSegment(static_cast<std::uint16_t>(i + 1));
    s.name = brainMrLabels()[i];
    s.algorithmType = "AUTOMATIC";
    segments.push_back(s);
    names[s.name] = i + 1;
  }
  core::ai::InferResult result;
  result.labels =
      std::make_shared<core::LabelMap>(kBrainMrModel, request.image->geometry(), segments);
  {
    core::LabelMapEdit edit(*result.labels);
    for (const AutoSegment& f : found) {
      const auto at = std::find(brainMrLabels().begin(), brainMrLabels().end(), f.name);
      if (at != brainMrLabels().end()) {
        applyPaint(edit, f.mask, static_cast<std::uint16_t>(at - brainMrLabels().begin() + 1));
      }
    }
    edit.commit();
  }
  const double seconds = std::chrono::duration<double>(Clock::now() - start).count();
  result.timings.totalSeconds = seconds;
  result.timings.serverSeconds = seconds;
  result.params = {{"label_names", names}, {"latencies", {{"infer", seconds}, {"total", seconds}}}};
  return result;
}

}  // namespace delineate::annotation
