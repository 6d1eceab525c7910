// Validation metrics on a 512x512x500 pair of label maps with 3 labels (liver-, spleen- and
// kidney-sized, the test map a shifted, rescaled, differently wobbling copy), printed as JSON:
//   floor: one memory pass over both maps (a plain parallel loop summing both buffers);
//   ours: overlap measures for all labels (one pass), then HD, HD95, ASSD and surface Dice for
//   all labels; end to end (read both .nrrd files, compare all labels, all metrics); and the
//   per-slice Dice of one label along k; the compare view's job for all labels (pair evaluation,
//   agreement map, per-slice Dice on the three axes, test surfaces coloured by signed distance);
//   ITK: LabelOverlapMeasuresImageFilter (all labels), and per label BinaryThreshold +
//   HausdorffDistanceImageFilter on the same data;
//   plastimatch: `plastimatch dice --all` and `plastimatch dice` per label on 0/1 .nrrd files
//   (it compares binary masks) of the same maps, as child processes.
// Each measurement runs in a fresh child process, so its peak RSS (getrusage) is its own; best
// wall time of --repeat runs (peers that take over 10 s run once).
// Usage: metrics_benchmark [--dir DIR] [--size 512x512x500] [--repeat 3]
#include <itkBinaryThresholdImageFilter.h>
#include <itkHausdorffDistanceImageFilter.h>
#include <itkLabelOverlapMeasuresImageFilter.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <cmath>
#include <cstdio>
#include <ctime>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include <vtkPolyData.h>
#include "ChildProcess.h"
#include "core/io/ItkView.h"
#include "core/io/LabelMapFileIO.h"
#include "core/io/VolumeFileIO.h"
#include "core/jobs/ParallelFor.h"
#include "core/metrics/AgreementMap.h"
#include "core/metrics/AgreementSlices.h"
#include "core/metrics/LabelComparison.h"
#include "core/metrics/PairEvaluation.h"
#include "core/metrics/SliceDice.h"
#include "viewers/SurfaceDistanceColoring.h"

namespace fs = std::filesystem;
using namespace delineate;
using nlohmann::json;

namespace {

using bench::now;

const char* kPlastimatch = "/usr/bin/plastimatch";
const std::uint16_t kLabels[3] = {1, 2, 3};

using bench::peakRssMb;
using bench::rssMb;

double round4(double x) {
  return std::round(x * 10000) / 10000;
}

// CPU time of the whole process (all threads): beside wall time, it shows the work done when
// other processes compete for the cores.
double cpuNow() {
  timespec t{};
  ::clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
  return double(t.tv_sec) + 1e-9 * double(t.tv_nsec);
}

// --- the data: three wobbly ellipsoids per map ---

struct Shape {
  std::uint16_t label;
  core::Vec3 centre;  // mm from the grid's centre
  core::Vec3 radii;   // mm
  double wobble;      // relative amplitude of the surface bumps
  double phase;
};

bool inside(const Shape& s, const core::Vec3& p) {
  const double u = (p[0] - s.centre[0]) / s.radii[0], v = (p[1] - s.centre[1]) / s.radii[1],
               w = (p[2] - s.centre[2]) / s.radii[2];
  const double limit =
      1.0 + s.wobble * std::sin(5 * u + s.phase) * std::sin(4 * v) * std::cos(3 * w);
  return u * u + v * v + w * w <= limit * limit;
}

void paint(core::LabelMap& map, const Shape& s) {
  const core::ImageGeometry& g = map.geometry();
  std::size_t lo[3], hi[3];
  for (int a = 0; a < 3; ++a) {
    const double half = double(g.size[a] - 1) / 2;
    const double reach = s.radii[a] * (1 + s.wobble) / g.spacing[a] + 1;
    const double c = half + s.centre[a] / g.spacing[a];
    lo[a] = std::size_t(std::clamp(c - reach, 0.0, double(g.size[a])));
    hi[a] = std::size_t(std::clamp(c + reach + 1, 0.0, double(g.size[a])));
  }
  core::NullProgress quiet;
  core::parallelFor(hi[2] - lo[2], core::hardwareThreads(), quiet, [&](std::size_t dk) {
    const std::size_t k = lo[2] + dk;
    for (std::size_t j = lo[1]; j < hi[1]; ++j) {
      for (std::size_t i = lo[0]; i < hi[0]; ++i) {
        const core::Vec3 p{(double(i) - double(g.size[0] - 1) / 2) * g.spacing[0],
                           (double(j) - double(g.size[1] - 1) / 2) * g.spacing[1],
                           (double(k) - double(g.size[2] - 1) / 2) * g.spacing[2]};
        if (inside(s, p)) {
          map.mutableData()[map.index(i, j, k)] = s.label;
        }
      }
    }
  });
}

core::ImageGeometry gridFor(const core::Size3& size) {
  core::ImageGeometry g;
  g.size = size;
  // A 384 x 384 x 400 mm field of view whatever the size (0.75 x 0.75 x 0.8 mm at 512x512x500).
  g.spacing = {384.0 / double(size[0]), 384.0 / double(size[1]), 400.0 / double(size[2])};
  g.origin = {-192, -192, -200};
  return g;
}

void writeMask(const core::LabelMap& map, std::uint16_t label, const fs::path& path) {
  auto voxels = std::make_shared<core::VoxelBuffer>(core::ScalarType::UInt8, map.voxelCount());
  for (std::size_t n = 0; n < map.voxelCount(); ++n) {
    voxels->as<std::uint8_t>()[n] = map.data()[n] == label ? 1 : 0;
  }
  core::writeVolumeFile(core::Volume(map.geometry(), voxels, {}), path, false);
}

void prepare(const fs::path& dir, const core::Size3& size) {
  if (fs::exists(dir / ".complete")) {
    return;
  }
  std::fprintf(stderr, "preparing a %zux%zux%zu label map pair in %s ...\n", size[0], size[1],
               size[2], dir.c_str());
  fs::create_directories(dir);
  const core::ImageGeometry g = gridFor(size);
  core::LabelMap ref("reference", g), test("test", g);
  const Shape refShapes[3] = {{1, {-70, -5, 0}, {80, 85, 75}, 0.06, 0.0},
                              {2, {90, 40, 20}, {35, 50, 55}, 0.08, 1.0},
                              {3, {60, 60, -70}, {28, 30, 55}, 0.05, 2.0}};
  for (const Shape& s : refShapes) {
    paint(ref, s);
    Shape t = s;  // the "test" segmentation: shifted, rescaled, bumps elsewhere
    t.centre = {s.centre[0] + 1.5, s.centre[1] - 1.0, s.centre[2] + 2.0};
    t.radii = {s.radii[0] * 1.02, s.radii[1] * 0.98, s.radii[2] * 1.01};
    t.phase = s.phase + 0.7;
    paint(test, t);
  }
  for (const auto& [map, name] : {std::pair{&ref, "ref"}, std::pair{&test, "test"}}) {
    std::ofstream(dir / (std::string(name) + ".raw"), std::ios::binary)
        .write(reinterpret_cast<const char*>(map->data()),
               std::streamsize(map->voxelCount() * sizeof(std::uint16_t)));
    core::writeVolumeFile(*map->asVolume(), dir / (std::string(name) + ".nrrd"), false);
    for (const std::uint16_t label : kLabels) {
      writeMask(*map, label, dir / (std::string(name) + std::to_string(label) + ".nrrd"));
    }
  }
  std::ofstream(dir / "meta.json") << json{{"size", {size[0], size[1], size[2]}},
                                           {"spacing", {g.spacing[0], g.spacing[1], g.spacing[2]}}}
                                          .dump();
  std::ofstream(dir / ".complete") << "ok\n";
}

core::LabelMap loadRaw(const fs::path& dir, const std::string& name) {
  const core::ImageGeometry g = gridFor([&] {
    const json meta = json::parse(std::ifstream(dir / "meta.json"));
    return core::Size3{meta["size"][0], meta["size"][1], meta["size"][2]};
  }());
  std::vector<core::Segment> segments;
  for (const std::uint16_t l : kLabels) {
    segments.push_back(core::defaultSegment(l));  // what the file readers add for each value
  }
  core::LabelMap map(name, g, std::move(segments));
  std::ifstream(dir / (name + ".raw"), std::ios::binary)
      .read(reinterpret_cast<char*>(map.mutableData()),
            std::streamsize(map.voxelCount() * sizeof(std::uint16_t)));
  return map;
}

// --- the children: each loads the data, runs one measurement, prints one JSON line ---

json floorPass(const core::LabelMap& ref, const core::LabelMap& test) {
  // The same slabs and threads as ours, summing both buffers: memory bandwidth only.
  const core::Size3& s = ref.geometry().size;
  const unsigned threads = core::hardwareThreads();
  const std::size_t slabs = std::min<std::size_t>(s[2], std::size_t(threads) * 4);
  const std::size_t slice = s[0] * s[1];
  std::vector<std::uint64_t> sums(slabs, 0);
  core::NullProgress quiet;
  const double t0 = now(), c0 = cpuNow();
  core::parallelFor(slabs, threads, quiet, [&](std::size_t slab) {
    const std::size_t begin = slice * (s[2] * slab / slabs);
    const std::size_t end = slice * (s[2] * (slab + 1) / slabs);
    const std::uint16_t* a = ref.data();
    const std::uint16_t* b = test.data();
    std::uint64_t sum = 0;
    for (std::size_t n = begin; n < end; ++n) {
      sum += std::uint32_t(a[n]) + b[n];
    }
    sums[slab] = sum;
  });
  const double seconds = now() - t0, cpu = cpuNow() - c0;
  std::uint64_t total = 0;
  for (const auto v : sums) {
    total += v;
  }
  return {{"seconds", seconds}, {"cpu_seconds", cpu}, {"checksum", total}};
}

json oursOverlap(const core::LabelMap& ref, const core::LabelMap& test) {
  core::NullProgress quiet;
  core::ComparisonOptions options;
  options.surfaceMetrics = false;
  const double t0 = now(), c0 = cpuNow();
  const auto rows = core::compareLabelMaps(ref, test, options, quiet);
  const double seconds = now() - t0, cpu = cpuNow() - c0;
  json dice = json::object();
  for (const auto& r : rows) {
    dice[std::to_string(r.label)] = r.overlap.dice;
  }
  return {{"seconds", seconds}, {"cpu_seconds", cpu}, {"dice", dice}};
}

json oursSurface(const core::LabelMap& ref, const core::LabelMap& test) {
  core::NullProgress quiet;
  const double t0 = now();
  const core::OverlapCounts counts = core::countOverlaps(ref, test, quiet);
  const double t1 = now(), c1 = cpuNow();
  json labels = json::object();
  for (const auto& c : counts.labels) {
    const auto s = core::surfaceDistances(ref, test, c.label, c.unionBox(), {1.0, 95.0}, quiet);
    labels[std::to_string(c.label)] = {
        {"hd", s.hausdorffMm},
        {"hd95", s.hausdorffPercentileMm},
        {"assd", s.averageSymmetricMm},
        {"surface_dice_1mm", s.surfaceDice},
        {"box_voxels", c.unionBox().count()},
        {"surface_voxels", s.referenceToTest.surfaceVoxels + s.testToReference.surfaceVoxels}};
  }
  const double t2 = now(), c2 = cpuNow();
  return {{"seconds", t2 - t1},
          {"cpu_seconds", c2 - c1},
          {"overlap_seconds", t1 - t0},
          {"labels", labels}};
}

json oursSliceDice(const core::LabelMap& ref, const core::LabelMap& test) {
  core::NullProgress quiet;
  const double t0 = now(), c0 = cpuNow();
  const std::vector<double> axial = core::sliceDice(ref, test, 1, 2, quiet);
  const double seconds = now() - t0, cpu = cpuNow() - c0;
  double worst = 1;
  for (const double d : axial) {
    worst = std::isnan(d) ? worst : std::min(worst, d);
  }
  return {{"seconds", seconds}, {"cpu_seconds", cpu}, {"slices", axial.size()}, {"worst", worst}};
}

// What the compare view's job does for all labels, stage by stage (CompareController).
json oursCompareView(const core::LabelMap& ref, const core::LabelMap& test) {
  core::NullProgress quiet;
  const double t0 = now(), c0 = cpuNow();
  const core::PairEvaluation evaluation = core::evaluatePair(ref, test, {}, quiet);
  const double tEvaluated = now();
  const core::LabelMap& compared = evaluation.renumberedTest ? *evaluation.renumberedTest : test;
  const core::Agreement agreement = core::agreementMap(ref, compared, 0, quiet);
  const double tAgreement = now();
  const auto slices = core::agreementSliceDice(*agreement.map, quiet);
  const double tSlices = now();
  std::vector<std::uint16_t> labels;
  for (const core::LabelEvaluation& l : evaluation.labels) {
    if (l.value != 0) {
      labels.push_back(l.value);
    }
  }
  const auto surfaces = viewers::buildDistanceSurfaces(ref, compared, labels, {}, quiet);
  const double tEnd = now();
  return {{"seconds", tEnd - t0},
          {"cpu_seconds", cpuNow() - c0},
          {"evaluate_pair_seconds", tEvaluated - t0},
          {"agreement_map_seconds", tAgreement - tEvaluated},
          {"slice_dice_3_axes_seconds", tSlices - tAgreement},
          {"distance_surfaces_seconds", tEnd - tSlices},
          {"surface_points", surfaces ? surfaces->GetNumberOfPoints() : 0},
          {"axial_slices", slices[2].size()}};
}

// Both files read (one after the other: reading both at once in one process is slower, its
// page faults contend), then every metric of every label.
json oursFiles(const fs::path& dir) {
  const double t0 = now(), c0 = cpuNow();
  const core::LabelMap ref = core::readLabelMapFiles(dir / "ref.nrrd");
  const core::LabelMap test = core::readLabelMapFiles(dir / "test.nrrd");
  const double t1 = now();
  core::NullProgress quiet;
  const auto rows = core::compareLabelMaps(ref, test, {}, quiet);
  return {{"seconds", now() - t0},
          {"cpu_seconds", cpuNow() - c0},
          {"read_seconds", t1 - t0},
          {"labels", rows.size()}};
}

using LabelImage = itk::Image<std::uint16_t, 3>;
using MaskImage = itk::Image<std::uint8_t, 3>;

json itkOverlap(const core::LabelMap& ref, const core::LabelMap& test) {
  auto filter = itk::LabelOverlapMeasuresImageFilter<LabelImage>::New();
  filter->SetSourceImage(core::itkImageView<std::uint16_t>(test.geometry(), test.sharedVoxels()));
  filter->SetTargetImage(core::itkImageView<std::uint16_t>(ref.geometry(), ref.sharedVoxels()));
  const double t0 = now(), c0 = cpuNow();
  filter->Update();
  const double seconds = now() - t0, cpu = cpuNow() - c0;
  json dice = json::object();
  for (const std::uint16_t l : kLabels) {
    dice[std::to_string(l)] = filter->GetDiceCoefficient(l);
  }
  return {{"seconds", seconds}, {"cpu_seconds", cpu}, {"dice", dice}};
}

json itkHausdorff(const core::LabelMap& ref, const core::LabelMap& test) {
  const auto refImage = core::itkImageView<std::uint16_t>(ref.geometry(), ref.sharedVoxels());
  const auto testImage = core::itkImageView<std::uint16_t>(test.geometry(), test.sharedVoxels());
  json hd = json::object();
  const double t0 = now(), c0 = cpuNow();
  for (const std::uint16_t l : kLabels) {
    auto binary = [&](const LabelImage::Pointer& image) {
      auto t = itk::BinaryThresholdImageFilter<LabelImage, MaskImage>::New();
      t->SetInput(image);
      t->SetLowerThreshold(l);
      t->SetUpperThreshold(l);
      t->SetInsideValue(1);
      t->SetOutsideValue(0);
      t->Update();
      return MaskImage::Pointer(t->GetOutput());
    };
    auto filter = itk::HausdorffDistanceImageFilter<MaskImage, MaskImage>::New();
    filter->SetInput1(binary(refImage));
    filter->SetInput2(binary(testImage));
    filter->SetUseImageSpacing(true);
    filter->Update();
    hd[std::to_string(l)] = filter->GetHausdorffDistance();
  }
  return {{"seconds", now() - t0}, {"cpu_seconds", cpuNow() - c0}, {"hd", hd}};
}

int childMain(const std::string& what, const fs::path& dir) {
  json r;
  double rssBefore = 0;
  if (what == "ours-files") {
    r = oursFiles(dir);
  } else {
    const core::LabelMap ref = loadRaw(dir, "ref");
    const core::LabelMap test = loadRaw(dir, "test");
    rssBefore = rssMb();
    if (what == "floor") {
      r = floorPass(ref, test);
    } else if (what == "ours-overlap") {
      r = oursOverlap(ref, test);
    } else if (what == "ours-surface") {
      r = oursSurface(ref, test);
    } else if (what == "ours-slice-dice") {
      r = oursSliceDice(ref, test);
    } else if (what == "ours-compare-view") {
      r = oursCompareView(ref, test);
    } else if (what == "itk-overlap") {
      r = itkOverlap(ref, test);
    } else if (what == "itk-hausdorff") {
      r = itkHausdorff(ref, test);
    } else {
      return 2;
    }
  }
  r["rss_before_mb"] = rssBefore;
  r["peak_rss_mb"] = peakRssMb();
  std::printf("%s\n", r.dump().c_str());
  return 0;
}

json best(int repeat, const std::string& self, const std::string& what, const fs::path& dir) {
  json b;
  for (int r = 0; r < repeat; ++r) {
    const json m = bench::runJsonChild(self, what, dir);
    if (b.is_null() || (m["ok"] && double(m["seconds"]) < double(b["seconds"]))) {
      b = m;
    }
    if (!m["ok"] || double(m["seconds"]) > 10) {
      break;  // slow peers run once
    }
  }
  if (!b["ok"]) {
    return b;
  }
  b["seconds"] = round4(double(b["seconds"]));
  b["cpu_seconds"] = round4(double(b["cpu_seconds"]));
  b["peak_rss_mb"] = std::round(double(b["peak_rss_mb"]));
  if (double(b["rss_before_mb"]) > 0) {
    b["extra_rss_mb"] = std::round(double(b["peak_rss_mb"]) - double(b["rss_before_mb"]));
  }
  b.erase("rss_before_mb");
  return b;
}

// plastimatch on each label's 0/1 files; the sum of the per-label runs, best of `repeat`.
json plastimatch(int repeat, const fs::path& dir, bool all) {
  if (!fs::exists(kPlastimatch)) {
    return {{"ok", false}, {"why", "plastimatch not installed"}};
  }
  json b;
  for (int r = 0; r < repeat; ++r) {
    double seconds = 0, peak = 0;
    bool ok = true;
    for (const std::uint16_t l : kLabels) {
      std::vector<std::string> argv{kPlastimatch, "dice"};
      if (all) {
        argv.push_back("--all");
      }
      argv.push_back((dir / ("ref" + std::to_string(l) + ".nrrd")).string());
      argv.push_back((dir / ("test" + std::to_string(l) + ".nrrd")).string());
      const bench::ChildRun run = bench::runMeasured(argv);
      seconds += run.seconds;
      peak = std::max(peak, run.peakMb);
      ok = ok && run.ok;
    }
    if (b.is_null() || seconds < double(b["seconds"])) {
      b = {{"ok", ok}, {"seconds", round4(seconds)}, {"peak_rss_mb", std::round(peak)}};
    }
    if (seconds > 10) {
      break;
    }
  }
  return b;
}

// plastimatch's own figures for label `l` (untimed), to set beside ours.
json plastimatchValues(const fs::path& dir, std::uint16_t l) {
  const std::string command = std::string(kPlastimatch) + " dice --all " +
                              (dir / ("ref" + std::to_string(l) + ".nrrd")).string() + " " +
                              (dir / ("test" + std::to_string(l) + ".nrrd")).string() + " 2>&1";
  std::string out;
  if (FILE* p = ::popen(command.c_str(), "r")) {
    char buf[4096];
    for (std::size_t n; (n = std::fread(buf, 1, sizeof buf, p)) > 0;) {
      out.append(buf, n);
    }
    ::pclose(p);
  }
  auto value = [&](const std::string& key) {
    const std::size_t at = out.find(key);
    return at == std::string::npos ? NAN : std::atof(out.c_str() + at + key.size());
  };
  return {{"dice", value("DICE:")},
          {"hd", value("Hausdorff distance (boundary) = ")},
          {"percent95", value("Percent (0.95) Hausdorff distance (boundary) = ")}};
}

double ratio(const json& a, const json& b) {
  return a.value("ok", false) && b.value("ok", false) && double(b["seconds"]) > 0
             ? std::round(double(a["seconds"]) / double(b["seconds"]) * 100) / 100
             : 0.0;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc >= 4 && std::string(argv[1]) == "--child") {
    return childMain(argv[2], argv[3]);
  }
  const bench::VolumeBenchArgs args =
      bench::parseVolumeBenchArgs(argc, argv, "delineate-bench-metrics");
  bench::runInChild([&] { prepare(args.dir, args.size); });
  const std::string self = fs::read_symlink("/proc/self/exe").string();
  const fs::path& dir = args.dir;

  const json floorRun = best(args.repeat, self, "floor", dir);
  const json overlap = best(args.repeat, self, "ours-overlap", dir);
  const json surface = best(args.repeat, self, "ours-surface", dir);
  const json files = best(args.repeat, self, "ours-files", dir);
  const json sliceDice = best(args.repeat, self, "ours-slice-dice", dir);
  const json compareView = best(args.repeat, self, "ours-compare-view", dir);
  const json itkOverlap = best(args.repeat, self, "itk-overlap", dir);
  const json itkHd = best(args.repeat, self, "itk-hausdorff", dir);
  const json plmAll = plastimatch(args.repeat, dir, true);
  const json plmDice = plastimatch(args.repeat, dir, false);

  json agreement = json::object();
  for (const std::uint16_t l : kLabels) {
    const std::string key = std::to_string(l);
    json row{{"ours_dice", overlap["dice"][key]},
             {"itk_dice", itkOverlap["dice"][key]},
             {"ours_hd", surface["labels"][key]["hd"]},
             {"itk_hd (all voxels)", itkHd["hd"][key]},
             {"ours_hd95", surface["labels"][key]["hd95"]},
             {"ours_assd", surface["labels"][key]["assd"]}};
    if (fs::exists(kPlastimatch)) {
      const json p = plastimatchValues(dir, l);
      row["plastimatch_dice"] = p["dice"];
      row["plastimatch_hd (boundary)"] = p["hd"];
      row["plastimatch_percent95 (boundary)"] = p["percent95"];
    }
    agreement[key] = row;
  }
  const json oursAll{{"ok", true},
                     {"seconds", round4(double(overlap["seconds"]) + double(surface["seconds"]))}};
  const json out{{"benchmark", "metrics"},
                 {"volume",
                  {{"size", {args.size[0], args.size[1], args.size[2]}},
                   {"labels", 3},
                   {"threads", core::hardwareThreads()}}},
                 {"repeat", args.repeat},
                 {"results",
                  {{"floor_sum_both_maps", floorRun},
                   {"ours_overlap_all_labels", overlap},
                   {"ours_surface_all_labels", surface},
                   {"ours_files_to_all_metrics", files},
                   {"ours_slice_dice_label1_axial", sliceDice},
                   {"ours_compare_view_job_all_labels", compareView},
                   {"itk_label_overlap_measures", itkOverlap},
                   {"itk_hausdorff_3_labels", itkHd},
                   {"plastimatch_dice_all_3_labels", plmAll},
                   {"plastimatch_dice_only_3_labels", plmDice}}},
                 {"agreement", agreement},
                 {"ratios",
                  {{"overlap_vs_floor (target <= 2)", ratio(overlap, floorRun)},
                   {"surface_seconds (target <= 1)", surface.value("seconds", 0.0)},
                   {"plastimatch_all_vs_ours_files (target >= 10)", ratio(plmAll, files)},
                   {"plastimatch_dice_vs_ours_overlap", ratio(plmDice, overlap)},
                   {"itk_overlap_vs_ours_overlap", ratio(itkOverlap, overlap)},
                   {"itk_hausdorff_vs_ours_surface", ratio(itkHd, surface)},
                   {"plastimatch_all_vs_ours_in_memory", ratio(plmAll, oursAll)}}}};
  std::printf("%s\n", out.dump(2).c_str());
  return 0;
}
