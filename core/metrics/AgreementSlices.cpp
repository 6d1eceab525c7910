#include "core/metrics/AgreementSlices.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include "core/jobs/ParallelFor.h"

namespace delineate::core {

namespace {

using Counts = std::array<std::uint64_t, 5>;  // by agreement value 0..4 (0 unused)

double diceOf(const Counts& c) {
  const std::uint64_t any = c[1] + c[2] + c[3] + c[4];
  if (any == 0) {
    return std::numeric_limits<double>::quiet_NaN();
  }
  return 2.0 * double(c[1]) / double(2 * c[1] + c[2] + c[3] + 2 * c[4]);
}

}  // namespace

std::array<std::vector<double>, 3> agreementSliceDice(const LabelMap& agreement,
                                                      ProgressSink& progress) {
  const auto size = agreement.geometry().size;
  const std::size_t nx = size[0], ny = size[1], nz = size[2];
  const unsigned threads = std::max(1u, std::min<unsigned>(hardwareThreads(), unsigned(nz)));
  // Each chunk of k slices keeps its own i and j counts; k counts belong to one chunk each.
  std::vector<std::vector<Counts>> perI(threads, std::vector<Counts>(nx, Counts{}));
  std::vector<std::vector<Counts>> perJ(threads, std::vector<Counts>(ny, Counts{}));
  std::vector<Counts> perK(nz, Counts{});
  const std::uint16_t* voxels = agreement.data();
  parallelFor(threads, threads, progress, [&](std::size_t chunk) {
    const std::size_t k0 = nz * chunk / threads, k1 = nz * (chunk + 1) / threads;
    std::vector<Counts>& countsI = perI[chunk];
    std::vector<Counts>& countsJ = perJ[chunk];
    for (std::size_t k = k0; k < k1; ++k) {
      if (chunk == 0) {
        progress.report(double(k - k0) / double(std::max<std::size_t>(1, k1 - k0)),
                        "Dice per slice");
      }
      progress.throwIfCancelled();
      Counts& countsK = perK[k];
      for (std::size_t j = 0; j < ny; ++j) {
        const std::uint16_t* row = voxels + (k * ny + j) * nx;
        Counts& cj = countsJ[j];
        for (std::size_t i = 0; i < nx; ++i) {
          const std::uint16_t v = row[i];
          if (v == 0 || v > 4) {
            continue;
          }
          ++countsI[i][v];
          ++cj[v];
          ++countsK[v];
        }
      }
    }
  });
  std::array<std::vector<double>, 3> dice;
  dice[0].resize(nx);
  dice[1].resize(ny);
  dice[2].resize(nz);
  for (std::size_t i = 0; i < nx; ++i) {
    Counts c{};
    for (const auto& t : perI) {
      for (std::size_t v = 0; v < c.size(); ++v) {
        c[v] += t[i][v];
      }
    }
    dice[0][i] = diceOf(c);
  }
  for (std::size_t j = 0; j < ny; ++j) {
    Counts c{};
    for (const auto& t : perJ) {
      for (std::size_t v = 0; v < c.size(); ++v) {
        c[v] += t[j][v];
      }
    }
    dice[1][j] = diceOf(c);
  }
  for (std::size_t k = 0; k < nz; ++k) {
    dice[2][k] = diceOf(perK[k]);
  }
  return dice;
}

std::vector<int> worstSlicesFirst(const std::vector<double>& sliceDice) {
  std::vector<int> slices;
  for (std::size_t s = 0; s < sliceDice.size(); ++s) {
    if (std::isfinite(sliceDice[s])) {
      slices.push_back(int(s));
    }
  }
  std::stable_sort(slices.begin(), slices.end(), [&](int a, int b) {
    return sliceDice[std::size_t(a)] < sliceDice[std::size_t(b)];
  });
  return slices;
}

}  // namespace delineate::core
