// DICOM series decode time with 1 and 2 (or more) decoding threads, per transfer syntax, printed
// as JSON beside the floor: a bare single-thread DCMTK getUncompressedFrame loop over the same
// files into one buffer (no sorting, no checks). Each measurement runs in a forked child, so the
// peak RSS reported is its own. Usage:
//   dicom_threads_benchmark [--dir DIR] [--size 512x512x200] [--repeat 3] [--threads 1,2]
//   dicom_threads_benchmark --load SERIES_DIR --threads N   (one timed load, for profilers)
#include <dcmtk/config/osconfig.h>
#include <dcmtk/dcmdata/dcdeftag.h>
#include <dcmtk/dcmdata/dcfilefo.h>
#include <dcmtk/dcmdata/dcpixel.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <functional>
#include <nlohmann/json.hpp>
#include <string>
#include <thread>
#include <vector>

#include "core/Error.h"
#include "core/io/DicomCodecs.h"
#include "core/io/DicomScanner.h"
#include "core/io/DicomSeriesLoader.h"
#include "core/io/DicomSeriesWriter.h"

namespace fs = std::filesystem;
using namespace delineate::core;
using nlohmann::json;

namespace {

double now() {
  return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

// A CT-like volume: a body ellipse with noise and structure (compresses like real CT, ~2.5:1).
std::shared_ptr<const Volume> makeCt(std::size_t nx, std::size_t ny, std::size_t nz) {
  ImageGeometry g;
  g.size = {nx, ny, nz};
  g.spacing = {0.7, 0.7, 1.0};
  auto voxels = std::make_shared<VoxelBuffer>(ScalarType::Int16, g.voxelCount());
  std::int16_t* p = voxels->as<std::int16_t>();
  std::uint32_t seed = 12345;
  for (std::size_t k = 0; k < nz; ++k) {
    for (std::size_t j = 0; j < ny; ++j) {
      for (std::size_t i = 0; i < nx; ++i) {
        seed = seed * 1664525u + 1013904223u;
        const double x = (double(i) - nx / 2.0) / (nx * 0.42);
        const double y = (double(j) - ny / 2.0) / (ny * 0.35);
        const double r = x * x + y * y;
        double v = r < 1 ? 40 + 30 * std::sin(i * 0.05 + k * 0.1) * std::cos(j * 0.07) : -1000;
        if (r < 0.15) {
          v = 300 + 200 * std::sin(0.02 * (i + j + k));
        }
        v += double(seed >> 28) - 8;
        p[i + nx * (j + ny * k)] = static_cast<std::int16_t>(v);
      }
    }
  }
  VolumeInfo info;
  info.modality = "CT";
  info.seriesInstanceUid = "1.2.826.0.1.3680043.10.1234.99";
  return std::make_shared<const Volume>(g, voxels, info);
}

std::vector<std::string> filesOf(const fs::path& dir) {
  std::vector<std::string> out;
  for (const auto& e : fs::directory_iterator(dir)) {
    out.push_back(e.path().string());
  }
  std::sort(out.begin(), out.end());
  return out;
}

double floorDecode(const std::vector<std::string>& files) {
  ensureDicomCodecs();
  std::vector<unsigned char> volume;
  std::size_t offset = 0;
  for (const auto& f : files) {
    DcmFileFormat ff;
    if (ff.loadFile(f.c_str()).bad()) {
      return -1;
    }
    DcmDataset* ds = ff.getDataset();
    DcmElement* e = nullptr;
    ds->findAndGetElement(DCM_PixelData, e);
    auto* pd = dynamic_cast<DcmPixelData*>(e);
    Uint32 frameSize = 0;
    pd->getUncompressedFrameSize(ds, frameSize);
    if (volume.empty()) {
      volume.resize(std::size_t(frameSize + 1) * files.size());
    }
    Uint32 start = 0;
    OFString model;
    if (pd->getUncompressedFrame(ds, 0, start, volume.data() + offset, frameSize + 1, model)
            .bad()) {
      return -1;
    }
    offset += frameSize;
  }
  return double(offset);
}

// Runs f in a child; returns {seconds, peak RSS MiB} of the child.
std::pair<double, double> measure(const std::function<void()>& f) {
  int pipefd[2];
  if (::pipe(pipefd) != 0) {
    return {-1, -1};
  }
  const pid_t pid = ::fork();
  if (pid == 0) {
    ::close(pipefd[0]);
    const double t0 = now();
    f();
    const double dt = now() - t0;
    struct rusage ru {};
    ::getrusage(RUSAGE_SELF, &ru);
    const double result[2] = {dt, double(ru.ru_maxrss) / 1024.0};
    if (::write(pipefd[1], result, sizeof result) != sizeof result) {
      _exit(1);
    }
    _exit(0);
  }
  ::close(pipefd[1]);
  double result[2] = {-1, -1};
  if (::read(pipefd[0], result, sizeof result) != sizeof result) {
    result[0] = result[1] = -1;
  }
  ::close(pipefd[0]);
  int status = 0;
  ::waitpid(pid, &status, 0);
  return {result[0], result[1]};
}

}  // namespace

int main(int argc, char** argv) {
  fs::path dir = fs::temp_directory_path() / "delineate-dicom-threads-bench";
  std::size_t nx = 512, ny = 512, nz = 200;
  int repeat = 3;
  std::vector<unsigned> threadCounts = {1, 2};
  fs::path loadOnly;
  for (int a = 1; a + 1 < argc; a += 2) {
    const std::string key = argv[a], value = argv[a + 1];
    if (key == "--load") {
      loadOnly = value;
    } else if (key == "--dir") {
      dir = value;
    } else if (key == "--size") {
      std::sscanf(value.c_str(), "%zux%zux%zu", &nx, &ny, &nz);
    } else if (key == "--repeat") {
      repeat = std::max(1, std::stoi(value));
    } else if (key == "--threads") {
      threadCounts.clear();
      for (std::size_t p = 0; p < value.size();) {
        const std::size_t q = value.find(',', p);
        threadCounts.push_back(unsigned(std::stoul(value.substr(p, q - p))));
        p = q == std::string::npos ? value.size() : q + 1;
      }
    }
  }
  if (!loadOnly.empty()) {
    // --load DIR: one timed load of an existing series (for profilers), no JSON.
    DicomSeries series;
    series.files = filesOf(loadOnly);
    DicomLoadOptions options;
    options.threads = threadCounts.back();
    NullProgress p;
    const double t0 = now();
    const auto v = loadDicomSeries(series, p, options);
    std::printf("%zu slices, %u threads: %.3f s\n", v->geometry().size[2], options.threads,
                now() - t0);
    return 0;
  }
  json out;
  out["volume"] = std::to_string(nx) + "x" + std::to_string(ny) + "x" + std::to_string(nz);
  out["raw_mib"] = double(nx * ny * nz * 2) / (1 << 20);
  out["hardware_threads"] = std::thread::hardware_concurrency();
  try {
    const std::vector<DicomTransferSyntax> syntaxes = {
        DicomTransferSyntax::ExplicitLittleEndian, DicomTransferSyntax::JpegLsLossless,
        DicomTransferSyntax::Rle, DicomTransferSyntax::JpegLossless};
    const std::string tag =
        std::to_string(nx) + "x" + std::to_string(ny) + "x" + std::to_string(nz) + "-";
    {
      // Write the series first and free the volume: forked children must not inherit it (their
      // peak RSS would count it).
      std::shared_ptr<const Volume> ct;
      NullProgress progress;
      for (auto syntax : syntaxes) {
        const fs::path folder = dir / (tag + std::to_string(int(syntax)));
        if (!fs::exists(folder)) {
          if (!ct) {
            ct = makeCt(nx, ny, nz);
          }
          DicomWriteOptions options;
          options.syntax = syntax;
          writeDicomSeries(*ct, folder, options, progress);
        }
      }
    }
    for (auto syntax : syntaxes) {
      const fs::path folder = dir / (tag + std::to_string(int(syntax)));
      DicomSeries series;
      series.files = filesOf(folder);
      json row;
      std::uintmax_t bytes = 0;
      for (const auto& f : series.files) {
        bytes += fs::file_size(f);
      }
      row["files_mib"] = double(bytes) / (1 << 20);
      // Warm the page cache once.
      measure([&] { floorDecode(series.files); });
      double best = 1e9, rss = 0;
      for (int r = 0; r < repeat; ++r) {
        const auto [t, m] = measure([&] { floorDecode(series.files); });
        if (t < best) {
          best = t;
          rss = m;
        }
      }
      row["floor_dcmtk_1_thread_s"] = best;
      row["floor_peak_rss_mib"] = rss;
      for (unsigned threads : threadCounts) {
        double tbest = 1e9, trss = 0;
        for (int r = 0; r < repeat; ++r) {
          const auto [t, m] = measure([&] {
            DicomLoadOptions options;
            options.threads = threads;
            NullProgress p;
            loadDicomSeries(series, p, options);
          });
          if (t < tbest) {
            tbest = t;
            trss = m;
          }
        }
        row["ours_" + std::to_string(threads) + "_threads_s"] = tbest;
        row["ours_" + std::to_string(threads) + "_threads_peak_rss_mib"] = trss;
        row["ours_" + std::to_string(threads) + "_threads_ms_per_slice"] =
            1000 * tbest / double(nz);
      }
      out[toString(syntax)] = row;
    }
  } catch (const Error& e) {
    std::fprintf(stderr, "%s\n", e.what());
    return 1;
  }
  std::printf("%s\n", out.dump(2).c_str());
  return 0;
}
