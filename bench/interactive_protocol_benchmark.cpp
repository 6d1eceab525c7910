// interactive_protocol_benchmark: the interactive protocol of the CVPR 2025 challenge on 3-D
// interactive biomedical segmentation — a box first (the challenge's: the structure's tight 2-D
// box on the middle axial slice of its extent, with its top and bottom slice), then up to five
// clicks, each at the centre of the largest error (the click simulator) — with Dice and normalised
// surface Dice (2 mm) after each interaction and the seconds each took. Five routes in one run: the
// built-in engine directly (PromptSegmenter), through delineate-server's nnInteractive routes with
// the nnInteractive client (one lease per image, as in the app), and through its MONAI Label routes
// with the MONAI Label client three times (the box as MONAI Label's region of interest, as the app
// sends it; as its centre click, for a model that takes no box; and with clicks only, as a user
// drives a deepgrow model: the simulated user's first click at the structure's deepest voxel).
// Usage: interactive_protocol_benchmark [--case brain-mr|abdomen-ct|all] [--clicks 5]
//          [--routes direct|clicks|all] [--box challenge|largest-slice]
//        interactive_protocol_benchmark --image T1.nii.gz --labels ATLAS.nii.gz
//          --structures 37:Hippocampus_L,71:Caudate_L,... [--clicks 5] [--routes direct|clicks|all]
// --routes clicks runs the engine directly twice: from the box, and from clicks only (the
// simulated user's first click at the structure's deepest voxel, as for a model that takes no
// box), without the servers' routes.
// The second form runs a real image with labels drawn on it (scripts/real-anatomy-benchmark.sh
// runs it on the atlases of Debian's mricron-data).
#include <chrono>
#include <cmath>
#include <cstdio>
#include <functional>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "BenchSupport.h"
#include "annotation/engine/ClickSimulator.h"
#include "annotation/engine/LocalEngineBackend.h"
#include "annotation/engine/PromptSegmenter.h"
#include "app/server/MonaiServer.h"
#include "core/io/VolumeFileIO.h"
#include "core/jobs/ProgressSink.h"
#include "core/metrics/SurfaceDistances.h"
#include "core/net/HttpServer.h"
#include "core/sample/SampleCase.h"
#include "core/sample/SampleWriter.h"
#include "plugins/monai-label/MonaiLabelBackend.h"
#include "plugins/nninteractive/NnInteractiveBackend.h"

using namespace delineate;
using bench::rounded;
using nlohmann::json;

namespace {

using Clock = std::chrono::steady_clock;
// The route of a model that takes no box (MONAI Label's deepgrow, nnInteractive points alone),
// as a user drives it: the simulated user's first click (at the structure's deepest voxel)
// instead of the box, then the same clicks.
constexpr const char* kDirectClicks = "direct (clicks only)";
constexpr const char* kMonaiClicks = "monai_label_routes (clicks only)";

core::LabelMap labelMapOf(const annotation::BoxMask& mask, const core::ImageGeometry& grid) {
  core::LabelMap out("m", grid, {core::defaultSegment(1)});
  const annotation::BoxMask whole = mask.reboxed(core::VoxelBox::whole(grid.size));
  for (std::size_t i = 0; i < whole.bits.size(); ++i) {
    out.mutableData()[i] = whole.bits[i];
  }
  return out;
}

double surfaceDice(const annotation::BoxMask& truth, const annotation::BoxMask& test,
                   const core::ImageGeometry& grid) {
  const core::LabelMap a = labelMapOf(truth, grid), b = labelMapOf(test, grid);
  core::VoxelBox box = truth.contentBox();
  box.include(test.contentBox());
  core::SurfaceDistanceOptions options;
  options.toleranceMm = 2.0;
  core::NullProgress progress;
  return core::surfaceDistances(a, b, 1, box, options, progress).surfaceDice;
}

// The first prompt. The challenge's box: the structure's tight axial box on the middle slice of
// its extent with the top and bottom slice (the span). With `largestSlice`, a harder start: the
// tight axial box on the slice where it is largest, without a span.
core::ai::Prompt initialBox(const annotation::BoxMask& truth, bool largestSlice) {
  core::ai::Prompt p;
  p.kind = core::ai::PromptKind::Box;
  if (largestSlice) {
    p.box = annotation::largestSliceBox(truth, 2);
  } else {
    const annotation::BoxMask tight = truth.shrunkToContent();
    p.box = annotation::middleSliceBox(tight, 2);
    p.spanLo = tight.box.lo[2];
    p.spanHi = tight.box.hi[2];
  }
  return p;
}

core::ai::Prompt pointPrompt(const annotation::GuidanceClick& c) {
  core::ai::Prompt p;
  p.point = c.voxel;
  p.positive = c.positive;
  return p;
}

// The prompts with a box replaced by a positive click at its centre: how a model that takes no
// box (MONAI Label's deepgrow, nnInteractive points alone) is started.
std::vector<core::ai::Prompt> boxAsCentreClick(const std::vector<core::ai::Prompt>& prompts) {
  std::vector<core::ai::Prompt> out;
  for (const core::ai::Prompt& p : prompts) {
    if (p.kind != core::ai::PromptKind::Box) {
      out.push_back(p);
      continue;
    }
    core::ai::Prompt click;
    click.point = {(p.box.lo[0] + p.box.hi[0] - 1) / 2, (p.box.lo[1] + p.box.hi[1] - 1) / 2,
                   p.box.lo[2]};
    click.positive = p.positive;
    out.push_back(click);
  }
  return out;
}

// One route: the proposal after all prompts so far.
using Route = std::function<annotation::BoxMask(const std::vector<core::ai::Prompt>&)>;

json runProtocol(const core::sample::SampleCase& c, const core::Segment& s, int clicks,
                 bool largestSlice, const Route& route, bool clicksOnly = false) {
  const annotation::BoxMask truth = annotation::maskOfLabel(*c.labels, s.label);
  const annotation::ClickSimulator simulator(truth, c.image->geometry().spacing);
  std::vector<core::ai::Prompt> prompts{initialBox(truth, largestSlice)};
  if (clicksOnly) {
    const auto first = simulator.nextClick(annotation::BoxMask(truth.box));
    prompts = {pointPrompt(*first)};
  }
  json steps = json::array();
  double maxSeconds = 0;
  for (int step = 0; step <= clicks; ++step) {
    const auto start = Clock::now();
    const annotation::BoxMask result = route(prompts);
    const double seconds = std::chrono::duration<double>(Clock::now() - start).count();
    if (const char* dump = std::getenv("DELINEATE_BENCH_DUMP")) {  // masks to look at
      core::writeVolumeFile(
          *labelMapOf(result, c.image->geometry()).asVolume(),
          std::filesystem::path(dump) / (s.name + "-" + std::to_string(step) + ".nii.gz"));
    }
    maxSeconds = std::max(maxSeconds, seconds);
    steps.push_back({{"dice", rounded(annotation::dice(truth, result), 1000)},
                     {"voxels", result.count()},
                     {"nsd_2mm", rounded(surfaceDice(truth, result, c.image->geometry()), 1000)},
                     {"seconds", rounded(seconds, 1000)}});
    const auto next = simulator.nextClick(result);
    if (!next) {
      break;
    }
    steps.back()["next_click"] = {next->voxel[0], next->voxel[1], next->voxel[2],
                                  next->positive ? "+" : "-"};
    prompts.push_back(pointPrompt(*next));
  }
  return {{"steps", steps},
          {"truth_voxels", truth.count()},
          {"max_seconds", rounded(maxSeconds, 1000)}};
}

// "37:Hippocampus_L,71:Caudate_L" → segments with those labels and names.
std::vector<core::Segment> parseStructures(const std::string& text) {
  std::vector<core::Segment> out;
  std::size_t at = 0;
  while (at < text.size()) {
    std::size_t end = text.find(',', at);
    if (end == std::string::npos) {
      end = text.size();
    }
    const std::string item = text.substr(at, end - at);
    const std::size_t colon = item.find(':');
    core::Segment s = core::defaultSegment(std::uint16_t(std::stoi(item.substr(0, colon))));
    s.name =
        colon == std::string::npos ? "label " + std::to_string(s.label) : item.substr(colon + 1);
    out.push_back(s);
    at = end + 1;
  }
  return out;
}

}  // namespace

int main(int argc, char** argv) {
  std::string which = "all", imagePath, labelsPath, structureList, routes = "all";
  int clicks = 5;
  bool largestSlice = false;
  for (int i = 1; i + 1 < argc; i += 2) {
    const std::string arg = argv[i];
    if (arg == "--case") {
      which = argv[i + 1];
    } else if (arg == "--clicks") {
      clicks = std::stoi(argv[i + 1]);
    } else if (arg == "--image") {
      imagePath = argv[i + 1];
    } else if (arg == "--labels") {
      labelsPath = argv[i + 1];
    } else if (arg == "--structures") {
      structureList = argv[i + 1];
    } else if (arg == "--routes") {
      routes = argv[i + 1];
    } else if (arg == "--box") {
      largestSlice = std::string(argv[i + 1]) == "largest-slice";
    }
  }
  const bool allRoutes = routes == "all";
  // The built-in engine directly, started by the box's centre click instead of the box.
  const bool clickRoute = routes == "clicks";
  const auto store = std::filesystem::temp_directory_path() / "delineate-bench-protocol-store";
  server::ServerOptions options;
  options.datastore = store;
  server::MonaiServer app(std::make_shared<annotation::LocalEngineBackend>(), options);
  const std::string url = "http://127.0.0.1:" + std::to_string(core::net::freeLocalPort());
  core::net::HttpServer http(url,
                             [&app](const core::net::ServerRequest& r) { return app.handle(r); });

  core::NullProgress progress;
  std::vector<core::sample::SampleCase> cases;
  if (!imagePath.empty()) {
    core::sample::SampleCase real;
    real.name = std::filesystem::path(imagePath).filename().string();
    real.image = core::readVolumeFile(imagePath, progress);
    real.labels = core::readVolumeFile(labelsPath, progress);
    real.segments = parseStructures(structureList);
    cases.push_back(std::move(real));
  } else if (which == "all" || which == "brain-mr") {
    cases.push_back(core::sample::makeBrainMr(core::sample::kDefaultSeed));
  }
  if (imagePath.empty() && (which == "all" || which == "abdomen-ct")) {
    cases.push_back(core::sample::makeAbdomenCt(core::sample::kDefaultSeed));
  }
  json structures = json::array();
  for (const auto& c : cases) {
    plugins::NnInteractiveConfig nnConfig;
    nnConfig.url = url;
    plugins::NnInteractiveBackend nn(nnConfig);
    plugins::MonaiServerConfig monaiConfig;
    monaiConfig.url = url;
    plugins::MonaiLabelBackend monai(monaiConfig);
    const annotation::PromptSegmenter engine;
    for (const core::Segment& s : c.segments) {
      const Route direct = [&](const std::vector<core::ai::Prompt>& prompts) {
        return engine.segment(*c.image, prompts, progress);
      };
      const Route overNn = [&](const std::vector<core::ai::Prompt>& prompts) {
        core::ai::InferRequest r;
        r.image = c.image;
        r.label = s.name;
        r.model = plugins::NnInteractiveBackend::kModel;
        r.prompts = prompts;
        return bench::nonZeroMask(*nn.infer(r, progress).labels);
      };
      const Route overMonai = [&](const std::vector<core::ai::Prompt>& prompts) {
        core::ai::InferRequest r;
        r.image = c.image;
        r.label = s.name;
        r.model = annotation::LocalEngineBackend::kClickModel;
        for (const core::ai::Prompt& p : boxAsCentreClick(prompts)) {
          (p.positive ? r.foreground : r.background)
              .push_back(
                  {std::int64_t(p.point[0]), std::int64_t(p.point[1]), std::int64_t(p.point[2])});
        }
        return bench::nonZeroMask(*monai.infer(r, progress).labels);
      };
      // The MONAI Label client as the app drives it: the box as MONAI Label's region of interest
      // ("roi", which delineate-server hands to the engine's box segmenter), clicks after it.
      const Route overMonaiRoi = [&](const std::vector<core::ai::Prompt>& prompts) {
        core::ai::InferRequest r;
        r.image = c.image;
        r.label = s.name;
        r.model = annotation::LocalEngineBackend::kClickModel;
        for (const core::ai::Prompt& p : prompts) {
          if (p.kind == core::ai::PromptKind::Box) {
            r.prompts.push_back(p);
          } else {
            (p.positive ? r.foreground : r.background)
                .push_back(
                    {std::int64_t(p.point[0]), std::int64_t(p.point[1]), std::int64_t(p.point[2])});
          }
        }
        return bench::nonZeroMask(*monai.infer(r, progress).labels);
      };
      json entry = {{"case", c.name},
                    {"name", s.name},
                    {"direct", runProtocol(c, s, clicks, largestSlice, direct)}};
      if (clickRoute) {
        entry[kDirectClicks] = runProtocol(c, s, clicks, largestSlice, direct, true);
      }
      if (allRoutes) {
        entry["nninteractive_routes"] = runProtocol(c, s, clicks, largestSlice, overNn);
        entry["monai_label_routes (box as its centre click)"] =
            runProtocol(c, s, clicks, largestSlice, overMonai);
        entry["monai_label_routes (box as roi)"] =
            runProtocol(c, s, clicks, largestSlice, overMonaiRoi);
        entry[kMonaiClicks] = runProtocol(c, s, clicks, largestSlice, overMonai, true);
      }
      std::string dices;
      for (const json& step : entry["direct"]["steps"]) {
        dices += " " + std::to_string(double(step["dice"])).substr(0, 5);
      }
      std::fprintf(stderr, "%s / %s: Dice%s, slowest %.2f s (direct)\n", c.name.c_str(),
                   s.name.c_str(), dices.c_str(), double(entry["direct"]["max_seconds"]));
      structures.push_back(std::move(entry));
    }
  }
  // Medians over the structures of the Dice after the last interaction, per route.
  json summary = json::object();
  for (const char* route :
       {"direct", "nninteractive_routes", "monai_label_routes (box as its centre click)",
        "monai_label_routes (box as roi)", kMonaiClicks, kDirectClicks}) {
    std::vector<double> finals, firsts, slowest;
    if (!structures.empty() && !structures.front().contains(route)) {
      continue;
    }
    for (const json& s : structures) {
      finals.push_back(s[route]["steps"].back()["dice"]);
      firsts.push_back(s[route]["steps"].front()["dice"]);
      slowest.push_back(s[route]["max_seconds"]);
    }
    auto median = [](std::vector<double> v) {
      std::sort(v.begin(), v.end());
      return v.empty() ? 0.0 : v[v.size() / 2];
    };
    summary[route] = {{"median_dice_first_interaction", median(firsts)},
                      {"median_dice_last_interaction", median(finals)},
                      {"slowest_interaction_s",
                       slowest.empty() ? 0.0 : *std::max_element(slowest.begin(), slowest.end())}};
  }
  const json out{{"benchmark", "interactive_protocol"},
                 {"protocol", largestSlice ? "2-D box on the largest axial slice, then up to N "
                                             "simulated clicks"
                                           : "the challenge's box (2-D box on the middle axial "
                                             "slice with the top and bottom slice), then up to N "
                                             "simulated clicks"},
                 {"data", imagePath.empty() ? "built-in synthetic samples"
                                            : imagePath + " with " + labelsPath},
                 {"structures", structures},
                 {"summary", summary}};
  std::printf("%s\n", out.dump(2).c_str());
  std::filesystem::remove_all(store);
  return 0;
}
