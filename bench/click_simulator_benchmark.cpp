// Interactive segmentation with the built-in engine (annotation/engine/PointGuidedSegmenter)
// driven by the click simulator (annotation/engine/ClickSimulator) on every structure of the
// synthetic brain MR and abdominal CT samples, printed as JSON: NoC@85 and NoC@90 (clicks to
// reach Dice 0.85 / 0.90; maxClicks when never reached), the Dice after each click and the
// seconds per click. The first click is the centre of the structure's largest part; each next
// one the centre of the largest error region. Peer figure: the region-grow tool's result
// (annotation/ops/RegionGrow, automatic range) from the same first click. Also per structure:
// the Dice of ExtremePointSegmenter from the structure's six extreme voxels, and for the brain
// MR the demo automatic model (AutoSegmenter) against the matching segments.
// Usage: click_simulator_benchmark [--case brain-mr|abdomen-ct|all] [--label N]
//                                  [--max-clicks 20] [--seed N]
#include "BenchSupport.h"
#include "ChildProcess.h"

#include <cmath>
#include <cstdio>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "annotation/engine/AutoSegmenter.h"
#include "annotation/engine/ClickSimulator.h"
#include "annotation/engine/ExtremePointSegmenter.h"
#include "annotation/engine/PointGuidedSegmenter.h"
#include "annotation/ops/RegionGrow.h"
#include "core/jobs/ParallelFor.h"
#include "core/sample/SampleCase.h"
#include "core/sample/SampleWriter.h"

using namespace delineate;
using bench::rounded;
using nlohmann::json;

namespace {

json simulateStructure(const core::sample::SampleCase& c, const core::Segment& segment,
                       int maxClicks) {
  const annotation::BoxMask truth = annotation::maskOfLabel(*c.labels, segment.label);
  annotation::ClickSimulatorOptions options;
  options.maxClicks = maxClicks;
  const annotation::ClickSimulator simulator(truth, c.image->geometry().spacing, options);
  const annotation::PointGuidedSegmenter engine;
  core::NullProgress progress;
  const annotation::ClickSimulation sim = simulator.run(
      [&](const annotation::Guidance& g) { return engine.segment(*c.image, g, progress); },
      progress);

  json dices = json::array(), clicks = json::array();
  for (const annotation::SimulatedClick& s : sim.clicks) {
    dices.push_back(rounded(s.dice, 1000));
    clicks.push_back({{"voxel", {s.click.voxel[0], s.click.voxel[1], s.click.voxel[2]}},
                      {"positive", s.click.positive}});
  }
  // Peer: the region-grow tool from the same first click (mean +- 2.5 SD of its 5x5x5 box).
  double regionGrowDice = 0;
  if (!sim.clicks.empty()) {
    const core::Size3 seed = sim.clicks.front().click.voxel;
    const auto [lo, hi] = annotation::neighbourhoodRange(*c.image, seed, 2, 2.5);
    regionGrowDice = annotation::dice(
        annotation::regionGrow(*c.image, seed, lo, hi, std::nullopt, progress), truth);
  }
  // Extreme points: the six extreme voxels of the truth.
  const annotation::ExtremePoints points =
      annotation::ExtremePointSegmenter::extremePointsOf(truth);
  const double t0 = bench::now();
  const annotation::BoxMask fromPoints =
      annotation::ExtremePointSegmenter().segment(*c.image, points, progress);
  const double extremeSeconds = bench::now() - t0;
  const auto noc = [&](double target) {
    const std::optional<int> n = sim.clicksToReach(target);
    return n ? *n : maxClicks;
  };
  return {{"case", c.name},
          {"label", segment.label},
          {"name", segment.name},
          {"voxels", truth.count()},
          {"noc85", noc(0.85)},
          {"noc90", noc(0.90)},
          {"reached85", sim.clicksToReach(0.85).has_value()},
          {"reached90", sim.clicksToReach(0.90).has_value()},
          {"dice_after_click", dices},
          {"seconds_per_click_mean", rounded(sim.meanSeconds(), 1000)},
          {"seconds_per_click_max", rounded(sim.maxSeconds(), 1000)},
          {"peer_region_grow_first_click_dice", rounded(regionGrowDice, 1000)},
          {"extreme_points_dice", rounded(annotation::dice(fromPoints, truth), 1000)},
          {"extreme_points_seconds", rounded(extremeSeconds, 1000)},
          {"clicks", clicks}};
}

// The demo automatic model on the brain MR: Dice against the sample's segments.
json autoModel(const core::sample::SampleCase& c) {
  core::NullProgress progress;
  const double t0 = bench::now();
  const std::vector<annotation::AutoSegment> found =
      annotation::AutoSegmenter().segmentBrainMr(*c.image, progress);
  const double seconds = bench::now() - t0;
  auto labels = [&](std::initializer_list<std::uint16_t> values) {
    annotation::BoxMask all(core::VoxelBox::whole(c.labels->geometry().size));
    const auto* data = c.labels->data<std::uint16_t>();
    for (std::size_t i = 0; i < all.bits.size(); ++i) {
      for (std::uint16_t v : values) {
        all.bits[i] |= data[i] == v;
      }
    }
    return all.shrunkToContent();
  };
  json structures = json::object();
  for (const annotation::AutoSegment& s : found) {
    const annotation::BoxMask truth = s.name == "White matter"         ? labels({1})
                                      : s.name == "Lateral ventricles" ? labels({3})
                                      : s.name == "Left hippocampus"   ? labels({4, 5})
                                                                       : labels({6, 7});
    structures[s.name] = rounded(annotation::dice(s.mask, truth), 1000);
  }
  return {{"case", c.name}, {"seconds", rounded(seconds, 100)}, {"dice", structures}};
}

}  // namespace

int main(int argc, char** argv) {
  std::string which = "all";
  int onlyLabel = -1, maxClicks = 20;
  std::uint64_t seed = core::sample::kDefaultSeed;
  for (int i = 1; i + 1 < argc; i += 2) {
    const std::string arg = argv[i];
    if (arg == "--case") {
      which = argv[i + 1];
    } else if (arg == "--label") {
      onlyLabel = std::stoi(argv[i + 1]);
    } else if (arg == "--max-clicks") {
      maxClicks = std::stoi(argv[i + 1]);
    } else if (arg == "--seed") {
      seed = std::stoull(argv[i + 1]);
    }
  }
  std::vector<core::sample::SampleCase> cases;
  if (which == "all" || which == "brain-mr") {
    cases.push_back(core::sample::makeBrainMr(seed));
  }
  if (which == "all" || which == "abdomen-ct") {
    cases.push_back(core::sample::makeAbdomenCt(seed));
  }
  json structures = json::array();
  double noc85 = 0, noc90 = 0, seconds = 0, worstSeconds = 0;
  int within5 = 0;
  for (const auto& c : cases) {
    for (const core::Segment& s : c.segments) {
      if (onlyLabel >= 0 && s.label != onlyLabel) {
        continue;
      }
      json r = simulateStructure(c, s, maxClicks);
      std::fprintf(stderr, "%s / %s: NoC@85 %d, NoC@90 %d, %.3f s per click\n", c.name.c_str(),
                   s.name.c_str(), int(r["noc85"]), int(r["noc90"]),
                   double(r["seconds_per_click_mean"]));
      noc85 += double(r["noc85"]);
      noc90 += double(r["noc90"]);
      within5 += int(r["noc90"]) <= 5 && bool(r["reached90"]);
      seconds += double(r["seconds_per_click_mean"]);
      worstSeconds = std::max(worstSeconds, double(r["seconds_per_click_max"]));
      structures.push_back(std::move(r));
    }
  }
  json autoModels = json::array();
  for (const auto& c : cases) {
    if (c.name == "brain-mr" && onlyLabel < 0) {
      autoModels.push_back(autoModel(c));
    }
  }
  const double count = std::max<double>(1, double(structures.size()));
  const json out{{"benchmark", "click_simulator"},
                 {"engine", "built-in PointGuidedSegmenter"},
                 {"seed", seed},
                 {"threads", core::hardwareThreads()},
                 {"max_clicks", maxClicks},
                 {"structures", structures},
                 {"auto_model", autoModels},
                 {"summary",
                  {{"structures", structures.size()},
                   {"mean_noc85", rounded(noc85 / count, 100)},
                   {"mean_noc90", rounded(noc90 / count, 100)},
                   {"noc90_at_most_5 (target: all)", within5},
                   {"mean_seconds_per_click", rounded(seconds / count, 1000)},
                   {"max_seconds_per_click", rounded(worstSeconds, 1000)}}}};
  std::printf("%s\n", out.dump(2).c_str());
  return 0;
}
