// A T1-weighted brain MR phantom: scalp, skull, CSF, folded cortex, white matter, lateral
// ventricles with temporal horns, and a hippocampus (head + body) in each medial temporal lobe.
#include <algorithm>
#include <cmath>

#include "core/sample/SampleCase.h"
#include "core/sample/SampleIdentity.h"
#include "core/sample/SampleRandom.h"
#include "core/sample/SampleVolumes.h"

namespace delineate::core::sample {

namespace {

enum BrainLabel : std::uint16_t {
  kBackground = 0,
  kWhiteMatter = 1,
  kGreyMatter = 2,
  kVentricles = 3,
  kLeftHippoHead = 4,
  kLeftHippoBody = 5,
  kRightHippoHead = 6,
  kRightHippoBody = 7,
};

// T1 signal of each tissue (arbitrary scanner units).
constexpr float kScalp = 620, kSkull = 70, kCsf = 170, kGrey = 420, kWhite = 640, kHippo = 450;

std::vector<Segment> brainSegments() {
  const CodedConcept anatomical{"91723000", "SCT", "Anatomical Structure"};
  const CodedConcept left{"7771000", "SCT", "Left"};
  const CodedConcept right{"24028007", "SCT", "Right"};
  const CodedConcept hippocampus{"5366003", "SCT", "Hippocampus"};
  std::vector<Segment> s(7);
  s[0] = {kWhiteMatter, "White matter",
          "",           {245, 245, 245},
          anatomical,   {"68523003", "SCT", "Cerebral white matter"},
          {},           "MANUAL",
          true,         false};
  s[1] = {kGreyMatter, "Grey matter",
          "",          {230, 190, 140},
          anatomical,  {"40146001", "SCT", "Cerebral cortex"},
          {},          "MANUAL",
          true,        false};
  s[2] = {kVentricles, "Lateral ventricles",
          "",          {90, 140, 230},
          anatomical,  {"66720007", "SCT", "Lateral ventricle"},
          {},          "MANUAL",
          true,        false};
  s[3] = {kLeftHippoHead,
          "Left hippocampus head",
          "",
          {220, 80, 60},
          anatomical,
          hippocampus,
          left,
          "MANUAL",
          true,
          false};
  s[4] = {kLeftHippoBody,
          "Left hippocampus body",
          "",
          {250, 170, 60},
          anatomical,
          hippocampus,
          left,
          "MANUAL",
          true,
          false};
  s[5] = {kRightHippoHead,
          "Right hippocampus head",
          "",
          {60, 180, 90},
          anatomical,
          hippocampus,
          right,
          "MANUAL",
          true,
          false};
  s[6] = {kRightHippoBody,
          "Right hippocampus body",
          "",
          {80, 200, 200},
          anatomical,
          hippocampus,
          right,
          "MANUAL",
          true,
          false};
  return s;
}

}  // namespace

SampleCase makeBrainMr(std::uint64_t seed) {
  const ImageGeometry g = centredGeometry({160, 192, 144}, {1.0, 1.0, 1.2});
  const std::size_t n = g.voxelCount();
  std::vector<float> signal(n, 0.0f);
  std::vector<std::uint16_t> labels(n, kBackground);

  // LPS: +x patient left, +y posterior, +z superior.
  const Ellipsoid head{{0, 2, -4}, {72, 92, 80}};
  const Ellipsoid skullInner{{0, 2, -1}, {64, 84, 71}};
  const Ellipsoid brain{{0, 3, 2}, {60, 80, 64}};
  const Ellipsoid ventL{{9, 4, 14}, {5.5, 24, 8}};
  const Ellipsoid ventR{{-9, 4, 14}, {5.5, 24, 8}};
  // Hippocampi sit deep in the medial temporal lobes, head anterior and bulbous, body posterior.
  const Ellipsoid hippoHead[2] = {{{26, -8, -20}, {7, 9, 6}}, {{-26, -8, -20}, {7, 9, 6}}};
  const Ellipsoid hippoBody[2] = {{{24, 11, -16}, {4.5, 12, 4.5}},
                                  {{-24, 11, -16}, {4.5, 12, 4.5}}};
  const Ellipsoid temporalHorn[2] = {{{31, 3, -11.5}, {2.2, 15, 1.8}},
                                     {{-31, 3, -11.5}, {2.2, 15, 1.8}}};
  const std::uint16_t headLabel[2] = {kLeftHippoHead, kRightHippoHead};
  const std::uint16_t bodyLabel[2] = {kLeftHippoBody, kRightHippoBody};

  for (std::size_t k = 0; k < g.size[2]; ++k) {
    for (std::size_t j = 0; j < g.size[1]; ++j) {
      for (std::size_t i = 0; i < g.size[0]; ++i) {
        const Vec3 p = voxelCentre(g, i, j, k);
        const std::size_t idx = i + g.size[0] * (j + g.size[1] * k);
        if (head.normalizedRadius(p) > 1.0) {
          continue;
        }
        float v = kScalp;
        std::uint16_t lab = kBackground;
        const double dSkull = skullInner.signedDistance(p);
        if (dSkull > 0 && dSkull < 6.5) {
          v = kSkull;
        } else if (dSkull <= 0) {
          v = kCsf;
          const double dBrain = brain.signedDistance(p);
          if (dBrain < 0) {
            // Gyri: sulci follow the zero sheets of a smooth random field and reach ~15 mm
            // deep, each lined by grey matter; a 3 mm cortical ribbon covers the surface.
            const double field = fractalNoise(seed + 11, p[0] / 16.0, p[1] / 16.0, p[2] / 16.0, 2);
            const double depthFactor = std::clamp(1.0 + dBrain / 16.0, 0.0, 1.0);
            if (std::abs(field) < 0.035 * depthFactor && dBrain > -15) {
              v = kCsf;  // sulcus
            } else if (dBrain > -3.2 || (std::abs(field) < 0.13 * depthFactor && dBrain > -18)) {
              v = kGrey;
              lab = kGreyMatter;
            } else {
              v = kWhite;
              lab = kWhiteMatter;
            }
            if (ventL.normalizedRadius(p) < 1.0 || ventR.normalizedRadius(p) < 1.0) {
              v = kCsf - 15;
              lab = kVentricles;
            }
            for (int side = 0; side < 2; ++side) {
              if (temporalHorn[side].normalizedRadius(p) < 1.0) {
                v = kCsf;
                lab = kBackground;
              }
              if (hippoBody[side].normalizedRadius(p) < 1.0) {
                v = kHippo;
                lab = bodyLabel[side];
              }
              if (hippoHead[side].normalizedRadius(p) < 1.0) {
                v = kHippo;
                lab = headLabel[side];
              }
            }
          }
        }
        signal[idx] = v;
        labels[idx] = lab;
      }
    }
  }
  blur121(signal, g.size);

  // Smooth receive-coil bias and Rician-like noise (magnitude of complex Gaussian noise).
  for (std::size_t k = 0; k < g.size[2]; ++k) {
    for (std::size_t j = 0; j < g.size[1]; ++j) {
      for (std::size_t i = 0; i < g.size[0]; ++i) {
        const std::size_t idx = i + g.size[0] * (j + g.size[1] * k);
        const Vec3 p = voxelCentre(g, i, j, k);
        const double bias = 1.0 + 0.06 * (p[1] / 96.0) - 0.04 * (p[2] / 86.0);
        const double re = signal[idx] * bias + 10.0 * hashGaussian(hashCombine(seed, idx, 1));
        const double im = 10.0 * hashGaussian(hashCombine(seed, idx, 2));
        signal[idx] = static_cast<float>(std::sqrt(re * re + im * im));
      }
    }
  }

  SampleSeriesIdentity id;
  id.patientName = "DELINEATE^BRAIN";
  id.patientId = "DLN-0001";
  id.birthDate = "19580314";
  id.sex = "F";
  id.studyKey = "brain-mr";
  id.studyDate = "20260310";
  id.studyDescription = "MR BRAIN WITHOUT CONTRAST";
  id.accession = "ACC0001";
  id.seriesKey = "t1";
  id.seriesNumber = 3;
  id.seriesDescription = "T1 3D sagittal-equivalent axial 1mm";
  id.modality = "MR";
  VolumeInfo info = sampleInfo(seed, id);
  info.windows = {{"T1 brain", 420, 760}};

  SampleCase c;
  c.name = "brain-mr";
  VolumeInfo labelInfo = info;
  labelInfo.seriesDescription = "Ground truth";
  c.image = int16Volume(g, signal, std::move(info));
  c.labels = labelVolume(g, std::move(labels), std::move(labelInfo));
  c.segments = brainSegments();
  return c;
}

}  // namespace delineate::core::sample
