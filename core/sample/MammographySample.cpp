// Screening mammography views (2-D, 12 bits stored in 16-bit words, MONOCHROME2: dense = bright):
// breast outline against the chest wall, skin line, fibroglandular texture, pectoral muscle on MLO,
// a spiculated mass in the left breast and a cluster of calcifications in the right breast.
#include <algorithm>
#include <cmath>
#include <numbers>

#include "core/sample/SampleCase.h"
#include "core/sample/SampleIdentity.h"
#include "core/sample/SampleRandom.h"
#include "core/sample/SampleVolumes.h"

namespace delineate::core::sample {

namespace {

enum MammoLabel : std::uint16_t { kMass = 1, kCalcification = 2 };
constexpr std::size_t kMammoColumns = 1280, kMammoRows = 1664;
constexpr double kPixel = 0.13;  // mm

std::vector<Segment> mammoSegments() {
  const CodedConcept abnormal{"49755003", "SCT", "Morphologically Abnormal Structure"};
  std::vector<Segment> s(2);
  s[0] = {kMass, "Mass",   "",   {255, 80, 80}, abnormal, {"4147007", "SCT", "Mass"},
          {},    "MANUAL", true, false};
  s[1] = {kCalcification,
          "Calcifications",
          "",
          {255, 220, 40},
          abnormal,
          {"18115005", "SCT", "Pathologic calcification"},
          {},
          "MANUAL",
          true,
          false};
  return s;
}

}  // namespace

SampleCase makeMammogram(std::uint64_t seed, const std::string& laterality, const std::string& view,
                         bool prior) {
  const bool right = laterality == "R";
  const bool mlo = view == "MLO";
  ImageGeometry g;
  g.size = {kMammoColumns, kMammoRows, 1};
  g.spacing = {kPixel, kPixel, 1.0};
  const std::size_t n = g.voxelCount();
  std::vector<float> px(n, 0.0f);
  std::vector<std::uint16_t> labels(n, 0);
  const std::uint64_t breastSeed = seed + (right ? 101 : 202);  // same breast in every exam

  const double height = kMammoRows * kPixel;
  const double v0 = mlo ? height * 0.56 : height * 0.5;
  const double a = mlo ? 122.0 : 108.0;  // nipple depth from the chest wall, mm
  const double b = mlo ? 98.0 : 84.0;
  // Lesion positions in (depth from chest wall, vertical offset from v0), mm.
  const double massU = 62, massV = mlo ? -34 : -22, massR = prior ? 4.5 : 7.5;
  const double calcU = 48, calcV = mlo ? 6 : 16;
  const bool hasMass = !right;
  const bool hasCalcs = right && !prior;

  for (std::size_t r = 0; r < kMammoRows; ++r) {
    for (std::size_t c = 0; c < kMammoColumns; ++c) {
      const std::size_t idx = r * kMammoColumns + c;
      const double u =
          (right ? static_cast<double>(kMammoColumns - 1 - c) : static_cast<double>(c)) * kPixel;
      const double v = static_cast<double>(r) * kPixel;
      double value = 70;
      const double rho = std::sqrt((u / a) * (u / a) + ((v - v0) / b) * ((v - v0) / b));
      const bool axillaryTail = mlo && v < v0 && u < 62;
      if (rho < 1.0 || axillaryTail) {
        const double thick = rho < 1.0 ? std::sqrt(1.0 - rho * rho) : 0.6;
        value = 820 + 520 * thick;
        // Fibroglandular tissue, denser behind the nipple and away from the skin.
        const double w = std::exp(-std::pow((u - 0.45 * a) / (0.45 * a), 2)) * thick;
        const double t = fractalNoise(breastSeed, u / 9.0, v / 9.0, 0.0, 4);
        value += 900 * w * std::clamp((t + 0.15) * 1.6, 0.0, 1.0);
        if (rho > 0.985 && rho < 1.0) {
          value += 160;  // skin line
        }
        if (mlo && u < 56 * (1.0 - v / 140.0)) {
          value = 2350 + 120 * fractalNoise(breastSeed + 5, u / 20.0, v / 20.0, 1.0, 2);
        }
        if (hasMass) {
          const double du = u - massU, dv = v - (v0 + massV);
          const double ang = std::atan2(dv, du);
          const double spic =
              1.0 + 0.22 * std::pow(std::abs(std::sin(7 * ang + 1.3)), 8) +
              0.08 * valueNoise(breastSeed + 9, std::cos(ang) * 3, std::sin(ang) * 3, 0);
          const double d = std::sqrt(du * du + dv * dv) / (massR * spic);
          if (d < 1.0) {
            labels[idx] = kMass;
          }
          value += 950 / (1.0 + std::exp((d - 1.0) * 9.0));
        }
      }
      px[idx] = static_cast<float>(value);
    }
  }
  if (hasCalcs) {
    // A cluster of 9 fine calcifications within ~6 mm.
    for (int k = 0; k < 9; ++k) {
      const double cu = calcU + 6 * (hashUniform(hashCombine(seed, k, 1)) - 0.5) * 2;
      const double cv = v0 + calcV + 6 * (hashUniform(hashCombine(seed, k, 2)) - 0.5) * 2;
      const double rad = 0.22 + 0.2 * hashUniform(hashCombine(seed, k, 3));
      const double cc = cu / kPixel, rr = cv / kPixel;
      const double col = right ? static_cast<double>(kMammoColumns - 1) - cc : cc;
      for (int dr = -4; dr <= 4; ++dr) {
        for (int dc = -4; dc <= 4; ++dc) {
          const long pr = std::lround(rr) + dr, pc = std::lround(col) + dc;
          if (pr < 0 || pc < 0 || pr >= static_cast<long>(kMammoRows) ||
              pc >= static_cast<long>(kMammoColumns)) {
            continue;
          }
          const double dist = std::hypot((pr - rr) * kPixel, (pc - col) * kPixel);
          if (dist < rad) {
            const std::size_t idx =
                static_cast<std::size_t>(pr) * kMammoColumns + static_cast<std::size_t>(pc);
            px[idx] += 1500;
            labels[idx] = kCalcification;
          }
        }
      }
    }
  }
  for (std::size_t idx = 0; idx < n; ++idx) {
    px[idx] =
        std::clamp(px[idx] + static_cast<float>(22.0 * hashGaussian(hashCombine(seed, idx, 11))),
                   0.0f, 4095.0f);
  }

  SampleSeriesIdentity id;
  id.patientName = "DELINEATE^MAMMO";
  id.patientId = "DLN-0003";
  id.birthDate = "19690707";
  id.sex = "F";
  id.studyKey = prior ? "screening-2024" : "screening-2026";
  id.studyDate = prior ? "20240428" : "20260502";
  id.studyDescription = "MAMMOGRAPHY SCREENING BILATERAL";
  id.accession = prior ? "ACC0003P" : "ACC0003";
  id.seriesKey = laterality + view;
  id.seriesNumber = (right ? 1 : 3) + (mlo ? 1 : 0);
  id.seriesDescription = laterality + " " + view;
  id.modality = "MG";
  VolumeInfo info = sampleInfo(seed, id);
  info.laterality = laterality;
  info.viewPosition = view;
  info.windows = {{"Default", 1750, 2600}};

  SampleCase out;
  out.name = laterality + "_" + view;
  VolumeInfo labelInfo = info;
  labelInfo.seriesDescription = "Ground truth " + laterality + " " + view;
  out.image = uint16Volume(g, px, std::move(info));
  out.labels = labelVolume(g, std::move(labels), std::move(labelInfo));
  out.segments = mammoSegments();
  return out;
}

}  // namespace delineate::core::sample
