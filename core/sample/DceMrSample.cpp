#include "core/sample/DceMrSample.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>

#include "core/io/DicomSeriesWriter.h"
#include "core/model/Volume.h"
#include "core/sample/SampleIdentity.h"
#include "core/sample/SampleRandom.h"

namespace delineate::core::sample {

namespace {

constexpr std::size_t kColumns = 128, kRows = 128, kSlices = 16;

// Relative signal of each tissue at time t (s): 1 before the contrast arrives.
double lesionCurve(double t) {  // fast wash-in, then wash-out (type III)
  return 1 + 1.6 * (1 - std::exp(-t / 50)) * (1 - 0.0009 * t);
}
double glandCurve(double t) {  // slow, persistent (type I)
  return 1 + 0.45 * t / 420;
}
double vesselCurve(double t) {  // the bolus passes first
  return 1 + 2.2 * (t / 45) * std::exp(1 - t / 45);
}

VolumePtr timePoint(std::uint64_t seed, int point, const VolumeInfo& info) {
  ImageGeometry g;
  g.size = {kColumns, kRows, kSlices};
  g.spacing = {1.4, 1.4, 3.0};
  g.origin = {-90, -60, -20};
  auto voxels = std::make_shared<VoxelBuffer>(ScalarType::Int16, g.voxelCount());
  auto* p = voxels->as<std::int16_t>();
  const double t = kDceSecondsPerTimePoint * point;
  for (std::size_t k = 0; k < kSlices; ++k) {
    for (std::size_t j = 0; j < kRows; ++j) {
      for (std::size_t i = 0; i < kColumns; ++i) {
        const Vec3 w = g.indexToWorld({double(i), double(j), double(k)});
        // A breast: half an ellipsoid in front of the chest wall (y < 20 mm).
        const double bx = w[0] / 75, by = (w[1] - 20) / 70, bz = w[2] / 28;
        double s = 0;
        if (by < 0 && bx * bx + by * by + bz * bz < 1) {
          const double gland = valueNoise(seed, w[0] / 12, w[1] / 12, w[2] / 12);
          s = gland > 0.1 ? 320 * glandCurve(t) : 170;  // fibroglandular tissue in fat
          const double lx = w[0] + 20, ly = w[1] + 15, lz = w[2] - 2;
          if (lx * lx + ly * ly + lz * lz < 9 * 9) {
            s = 300 * lesionCurve(t);
          }
          const double vx = w[0] - 30, vy = w[1] + 5;
          if (vx * vx + vy * vy < 2.5 * 2.5) {
            s = 250 * vesselCurve(t);
          }
        } else if (w[1] >= 20 && w[1] < 40) {
          s = 90;  // pectoral muscle
        }
        s += 12 * hashGaussian(hashCombine(seed, static_cast<std::int64_t>(i + kColumns * j),
                                           static_cast<std::int64_t>(k), point));
        p[i + kColumns * (j + kRows * k)] =
            static_cast<std::int16_t>(std::clamp(std::lround(s), 0l, 4095l));
      }
    }
  }
  return std::make_shared<const Volume>(g, voxels, info);
}

}  // namespace

void writeDceMrSeries(const std::filesystem::path& folder, std::uint64_t seed) {
  SampleSeriesIdentity id;
  id.patientName = "Sample^Dynamic";
  id.patientId = "SAMPLE-DCE-1";
  id.birthDate = "19680920";
  id.sex = "F";
  id.studyKey = "breast-mr-2026";
  id.studyDate = "20260415";
  id.studyDescription = "MR BREAST DCE";
  id.accession = "SAMPLE-DCE-2026";
  id.seriesKey = "dce";
  id.seriesNumber = 5;
  id.seriesDescription = "DCE T1 dynamic, 8 time points";
  id.modality = "MR";
  const VolumeInfo info = sampleInfo(seed, id);
  NullProgress quiet;
  for (int point = 0; point < kDceTimePoints; ++point) {
    DicomWriteOptions options;
    char prefix[16];
    std::snprintf(prefix, sizeof prefix, "t%02d_", point + 1);
    options.filePrefix = prefix;
    options.instanceKey = "t" + std::to_string(point + 1) + "/";
    options.firstInstanceNumber = static_cast<std::size_t>(point) * kSlices + 1;
    const int seconds = static_cast<int>(kDceSecondsPerTimePoint) * point;
    char time[16];
    std::snprintf(time, sizeof time, "10%02d%02d", 12 + seconds / 60, seconds % 60);
    options.attributes = {{"TemporalPositionIdentifier", std::to_string(point + 1)},
                          {"NumberOfTemporalPositions", std::to_string(kDceTimePoints)},
                          {"AcquisitionTime", time},
                          {"ContentTime", time}};
    writeDicomSeries(*timePoint(seed, point, info), folder, options, quiet);
  }
}

}  // namespace delineate::core::sample
