// ai_server_click_benchmark: the click simulator through HTTP. delineate-server's handler runs
// behind a real listener on 127.0.0.1 and the MONAI Label client talks to it with a session, as
// the workstation does; the same robot user drives the built-in engine directly in the same run.
// Prints JSON per sample structure: NoC@85 / NoC@90 through the server and directly, seconds per
// click, and the client's overhead per click (its wall time minus the server's own `latencies`
// total) with the bytes it sent, against the target of at most 10 % of the server's time.
// Usage: ai_server_click_benchmark [--case brain-mr|abdomen-ct|all] [--max-clicks 20]
#include <chrono>
#include <cmath>
#include <cstdio>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "BenchSupport.h"
#include "annotation/engine/ClickSimulator.h"
#include "annotation/engine/LocalEngineBackend.h"
#include "annotation/engine/PointGuidedSegmenter.h"
#include "app/server/MonaiServer.h"
#include "core/net/HttpServer.h"
#include "core/sample/SampleCase.h"
#include "core/sample/SampleWriter.h"
#include "plugins/monai-label/MonaiLabelBackend.h"

using namespace delineate;
using bench::rounded;
using nlohmann::json;

namespace {

using Clock = std::chrono::steady_clock;

struct ClickCost {
  double clientSeconds = 0, serverSeconds = 0;
  core::ai::InferTimings timings;
  std::size_t bytesSent = 0;
  bool sessionCreated = false;
};

json simulate(const core::sample::SampleCase& c, const core::Segment& segment, int maxClicks,
              plugins::MonaiLabelBackend& client) {
  const annotation::BoxMask truth = annotation::maskOfLabel(*c.labels, segment.label);
  annotation::ClickSimulatorOptions options;
  options.maxClicks = maxClicks;
  const annotation::ClickSimulator simulator(truth, c.image->geometry().spacing, options);
  core::NullProgress progress;

  const annotation::PointGuidedSegmenter engine;
  const annotation::ClickSimulation direct = simulator.run(
      [&](const annotation::Guidance& g) { return engine.segment(*c.image, g, progress); },
      progress);

  std::vector<ClickCost> costs;
  const annotation::ClickSimulation remote = simulator.run(
      [&](const annotation::Guidance& g) {
        core::ai::InferRequest r;
        r.model = annotation::LocalEngineBackend::kClickModel;
        r.image = c.image;
        r.label = segment.name;
        for (const annotation::GuidanceClick& k : g.clicks) {
          const core::ai::VoxelIndex v{static_cast<std::int64_t>(k.voxel[0]),
                                       static_cast<std::int64_t>(k.voxel[1]),
                                       static_cast<std::int64_t>(k.voxel[2])};
          (k.positive ? r.foreground : r.background).push_back(v);
        }
        const auto start = Clock::now();
        const core::ai::InferResult result = client.infer(r, progress);
        ClickCost cost;
        cost.clientSeconds = std::chrono::duration<double>(Clock::now() - start).count();
        cost.serverSeconds = result.timings.serverSeconds.value_or(0);
        cost.bytesSent = result.timings.bytesSent;
        cost.sessionCreated = result.timings.sessionCreated;
        cost.timings = result.timings;
        costs.push_back(cost);
        return bench::nonZeroMask(*result.labels);
      },
      progress);

  // Overhead of the clicks after the first (the first uploads the image into the session).
  // Where the overhead goes: sending, the wait beyond the server's own time (transport, the
  // server's multipart answer), receiving, reading the label volume, and the rest (the
  // reachability probe, request set-up, the multipart parse).
  double overhead = 0, server = 0, bytes = 0, upload = 0, waitBeyond = 0, download = 0, decode = 0;
  int n = 0;
  for (std::size_t i = 1; i < costs.size(); ++i) {
    const core::ai::InferTimings& t = costs[i].timings;
    overhead += costs[i].clientSeconds - costs[i].serverSeconds;
    server += costs[i].serverSeconds;
    bytes += double(costs[i].bytesSent);
    upload += t.uploadSeconds;
    waitBeyond += t.waitSeconds - costs[i].serverSeconds;
    download += t.downloadSeconds;
    decode += t.decodeSeconds;
    ++n;
  }
  const auto noc = [&](const annotation::ClickSimulation& s, double target) {
    const std::optional<int> k = s.clicksToReach(target);
    return k ? *k : maxClicks;
  };
  const double nn = std::max(1, n);
  return {
      {"case", c.name},
      {"name", segment.name},
      {"noc85_server", noc(remote, 0.85)},
      {"noc90_server", noc(remote, 0.90)},
      {"noc85_direct", noc(direct, 0.85)},
      {"noc90_direct", noc(direct, 0.90)},
      {"seconds_per_click_server", rounded(remote.meanSeconds(), 1000)},
      {"seconds_per_click_direct", rounded(direct.meanSeconds(), 1000)},
      {"first_click_bytes_sent", costs.empty() ? 0 : costs.front().bytesSent},
      {"later_click_bytes_sent_mean", rounded(bytes / nn, 1)},
      {"client_overhead_ms_mean", rounded(1000 * overhead / nn, 10)},
      {"overhead_ms",
       {{"upload", rounded(1000 * upload / nn, 100)},
        {"wait_beyond_server", rounded(1000 * waitBeyond / nn, 100)},
        {"download", rounded(1000 * download / nn, 100)},
        {"decode", rounded(1000 * decode / nn, 100)},
        {"rest", rounded(1000 * (overhead - upload - waitBeyond - download - decode) / nn, 100)}}},
      {"server_ms_mean", rounded(1000 * server / nn, 10)},
      {"overhead_vs_server (target <= 0.10)", server > 0 ? rounded(overhead / server, 1000) : 0}};
}

}  // namespace

int main(int argc, char** argv) {
  std::string which = "all";
  int maxClicks = 20;
  for (int i = 1; i + 1 < argc; i += 2) {
    const std::string arg = argv[i];
    if (arg == "--case") {
      which = argv[i + 1];
    } else if (arg == "--max-clicks") {
      maxClicks = std::stoi(argv[i + 1]);
    }
  }
  const auto store = std::filesystem::temp_directory_path() / "delineate-bench-ai-store";
  server::ServerOptions options;
  options.datastore = store;
  server::MonaiServer app(std::make_shared<annotation::LocalEngineBackend>(), options);
  const std::string url = "http://127.0.0.1:" + std::to_string(core::net::freeLocalPort());
  core::net::HttpServer http(url,
                             [&app](const core::net::ServerRequest& r) { return app.handle(r); });
  plugins::MonaiServerConfig config;
  config.url = url;

  std::vector<core::sample::SampleCase> cases;
  if (which == "all" || which == "brain-mr") {
    cases.push_back(core::sample::makeBrainMr(core::sample::kDefaultSeed));
  }
  if (which == "all" || which == "abdomen-ct") {
    cases.push_back(core::sample::makeAbdomenCt(core::sample::kDefaultSeed));
  }
  json structures = json::array();
  double ratioSum = 0;
  int within5 = 0;
  for (const auto& c : cases) {
    plugins::MonaiLabelBackend client(config);  // one session per image, as in the app
    for (const core::Segment& s : c.segments) {
      json r = simulate(c, s, maxClicks, client);
      std::fprintf(stderr, "%s / %s: NoC@90 server %d direct %d, overhead %.1f ms of %.1f ms\n",
                   c.name.c_str(), s.name.c_str(), int(r["noc90_server"]), int(r["noc90_direct"]),
                   double(r["client_overhead_ms_mean"]), double(r["server_ms_mean"]));
      ratioSum += double(r["overhead_vs_server (target <= 0.10)"]);
      within5 += int(r["noc90_server"]) <= 5;
      structures.push_back(std::move(r));
    }
  }
  const double count = std::max<double>(1, double(structures.size()));
  const json out{{"benchmark", "ai_server_click"},
                 {"server", "delineate-server handler on 127.0.0.1 (cpprestsdk listener)"},
                 {"client", "MONAI Label client with a session"},
                 {"structures", structures},
                 {"summary",
                  {{"structures", structures.size()},
                   {"noc90_server_at_most_5", within5},
                   {"mean_overhead_vs_server", rounded(ratioSum / count, 1000)}}}};
  std::printf("%s\n", out.dump(2).c_str());
  std::filesystem::remove_all(store);
  return 0;
}
