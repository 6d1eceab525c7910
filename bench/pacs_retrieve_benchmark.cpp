// Retrieving one CT series (default 512x512x500, uncompressed) from a local Orthanc, printed as
// JSON: `delineate-cli pacs get` by C-GET and by WADO-RS against DCMTK's `getscu` (C-GET) on the
// same series in the same run, each in a fresh process into an empty folder (best wall time of
// --repeat runs, with its peak RSS). Orthanc (with orthanc-dicomweb) is started on 127.0.0.1 for
// the run; the series is prepared once in --dir and sent to it by C-STORE.
// Orthanc runs as Debian's service does (Nagle's algorithm on) unless --orthanc-nodelay;
// getscu runs as a user runs it and once more with TCP_NODELAY=1 (getscu_nodelay).
//   pacs_retrieve_benchmark [--dir DIR] [--size 512x512x500] [--repeat 3] [--orthanc-nodelay]
#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "ChildProcess.h"
#include "core/io/DicomSeriesWriter.h"
#include "core/jobs/ProgressSink.h"
#include "core/pacs/DicomNetwork.h"
#include "core/sample/SampleCase.h"
#include "net/OrthancServer.h"

namespace fs = std::filesystem;
using namespace delineate;
using nlohmann::json;

namespace {

constexpr const char* kStudy = "1.2.826.0.1.3680043.10.1447.500.1";
constexpr const char* kSeries = "1.2.826.0.1.3680043.10.1447.500.1.1";

std::size_t countFiles(const fs::path& dir) {
  std::size_t n = 0;
  if (fs::exists(dir)) {
    for (const auto& e : fs::recursive_directory_iterator(dir)) {
      n += e.is_regular_file() ? 1 : 0;
    }
  }
  return n;
}

}  // namespace

int main(int argc, char** argv) {
  const bench::VolumeBenchArgs args =
      bench::parseVolumeBenchArgs(argc, argv, "delineate-pacs-bench");
  if (!test::OrthancServer::installed() || !test::OrthancServer::dicomWebInstalled()) {
    std::printf("%s\n",
                json{{"skipped", "orthanc and orthanc-dicomweb are needed"}}.dump().c_str());
    return 0;
  }
  const fs::path series = args.dir / "ct-raw";
  if (countFiles(series) != args.size[2]) {
    std::fprintf(stderr, "preparing the CT in %s ...\n", series.c_str());
    bench::runInChild([&] {
      fs::remove_all(series);
      fs::create_directories(series);
      const auto ct = core::sample::makeAbdomenCt(7, args.size);
      core::DicomWriteOptions options;
      options.attributes = {{"StudyInstanceUID", kStudy}, {"SeriesInstanceUID", kSeries}};
      core::NullProgress quiet;
      core::writeDicomSeries(*ct.image, series, options, quiet);
    });
  }
  std::vector<fs::path> files;
  for (const auto& e : fs::directory_iterator(series)) {
    files.push_back(e.path());
  }
  const fs::path run =
      fs::temp_directory_path() / ("delineate-pacs-bench-" + std::to_string(::getpid()));
  fs::remove_all(run);
  test::OrthancOptions orthancOptions;
  orthancOptions.dicomWeb = true;
  orthancOptions.allowedCallers = {"DELINEATE"};
  // Orthanc as Debian's service runs it (Nagle's algorithm on), unless --orthanc-nodelay.
  orthancOptions.tcpNoDelay = false;
  for (int i = 1; i < argc; ++i) {
    orthancOptions.tcpNoDelay =
        orthancOptions.tcpNoDelay || std::string(argv[i]) == "--orthanc-nodelay";
  }
  {
    test::OrthancServer orthanc(run / "orthanc", orthancOptions);
    if (!orthanc.running()) {
      std::fprintf(stderr, "Orthanc did not start\n");
      return 1;
    }
    core::NullProgress quiet;
    const core::pacs::StoreReport stored = core::pacs::store(orthanc.node(), files, {}, quiet);
    std::fprintf(stderr, "stored %zu of %zu instances\n", stored.storedCount(), files.size());
    const std::string port = std::to_string(orthanc.dicomPort());
    const std::string cli = DELINEATE_CLI_PATH;
    struct Way {
      std::string name;
      std::function<std::vector<std::string>(const fs::path&)> argv;
    };
    const std::vector<Way> ways = {
        // getscu as a user runs it (DCMTK leaves Nagle's algorithm on), and with it off.
        {"getscu",
         [&](const fs::path& out) {
           return std::vector<std::string>{"env",
                                           "-u",
                                           "TCP_NODELAY",
                                           "getscu",
                                           "-S",
                                           "-aet",
                                           "DELINEATE",
                                           "-aec",
                                           test::OrthancServer::kAeTitle,
                                           "-k",
                                           "QueryRetrieveLevel=SERIES",
                                           "-k",
                                           std::string("StudyInstanceUID=") + kStudy,
                                           "-k",
                                           std::string("SeriesInstanceUID=") + kSeries,
                                           "-od",
                                           out.string(),
                                           "127.0.0.1",
                                           port};
         }},
        {"getscu_nodelay",
         [&](const fs::path& out) {
           return std::vector<std::string>{"env",       "TCP_NODELAY=1",
                                           "getscu",    "-S",
                                           "-aet",      "DELINEATE",
                                           "-aec",      test::OrthancServer::kAeTitle,
                                           "-k",        "QueryRetrieveLevel=SERIES",
                                           "-k",        std::string("StudyInstanceUID=") + kStudy,
                                           "-k",        std::string("SeriesInstanceUID=") + kSeries,
                                           "-od",       out.string(),
                                           "127.0.0.1", port};
         }},
        {"delineate_cget",
         [&](const fs::path& out) {
           return std::vector<std::string>{
               cli,
               "pacs",
               "get",
               "--dimse",
               std::string(test::OrthancServer::kAeTitle) + "@127.0.0.1:" + port,
               "--study",
               kStudy,
               "--series",
               kSeries,
               "--out",
               out.string()};
         }},
        {"delineate_wado",
         [&](const fs::path& out) {
           return std::vector<std::string>{
               cli,         "pacs", "get",      "--dicomweb", orthanc.webNode().dicomWebUrl,
               "--study",   kStudy, "--series", kSeries,      "--out",
               out.string()};
         }},
    };
    json result = {{"benchmark", "pacs_retrieve"},
                   {"orthanc_tcp_nodelay", orthancOptions.tcpNoDelay},
                   {"size", args.size},
                   {"instances", files.size()},
                   {"repeat", args.repeat}};
    std::map<std::string, bench::ChildRun> best;
    for (int r = 0; r < args.repeat; ++r) {
      for (const Way& way : ways) {
        const fs::path out = run / ("out-" + way.name + "-" + std::to_string(r));
        fs::create_directories(out);
        const bench::ChildRun c = bench::runMeasured(way.argv(out));
        const std::size_t got = countFiles(out);
        fs::remove_all(out);
        if (!c.ok || got != files.size()) {
          result[way.name + "_failed"] = "exit not 0 or " + std::to_string(got) + " files";
          continue;
        }
        auto it = best.find(way.name);
        if (it == best.end() || c.seconds < it->second.seconds) {
          best[way.name] = c;
        }
      }
    }
    for (const auto& [name, c] : best) {
      result[name] = {{"seconds", c.seconds}, {"peak_mb", c.peakMb}};
    }
    if (best.count("getscu") != 0) {
      for (const char* ours : {"delineate_cget", "delineate_wado"}) {
        if (best.count(ours) != 0) {
          result[std::string(ours) + "_vs_getscu"] = best[ours].seconds / best["getscu"].seconds;
        }
      }
    }
    std::printf("%s\n", result.dump(2).c_str());
  }
  fs::remove_all(run);
  return 0;
}
