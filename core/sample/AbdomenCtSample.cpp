// A portal-venous abdominal CT phantom in Hounsfield units: body wall and fat, spine, aorta and
// IVC, liver (patient right), spleen (patient left), both kidneys, lesions, lung bases, table, and
// a metal skin marker on the patient's LEFT anterior side.
#include <cmath>

#include "core/sample/SampleCase.h"
#include "core/sample/SampleIdentity.h"
#include "core/sample/SampleRandom.h"
#include "core/sample/SampleVolumes.h"

namespace delineate::core::sample {

namespace {

enum CtLabel : std::uint16_t {
  kLiver = 1,
  kSpleen = 2,
  kRightKidney = 3,
  kLeftKidney = 4,
  kLesion = 5
};

std::vector<Segment> ctSegments() {
  const CodedConcept anatomical{"91723000", "SCT", "Anatomical Structure"};
  const CodedConcept abnormal{"49755003", "SCT", "Morphologically Abnormal Structure"};
  const CodedConcept kidney{"64033007", "SCT", "Kidney"};
  std::vector<Segment> s(5);
  s[0] = {kLiver,   "Liver", "",   {221, 130, 101}, anatomical, {"10200004", "SCT", "Liver"}, {},
          "MANUAL", true,    false};
  s[1] = {kSpleen,  "Spleen", "",   {157, 108, 162}, anatomical, {"78961009", "SCT", "Spleen"}, {},
          "MANUAL", true,     false};
  s[2] = {kRightKidney,
          "Right kidney",
          "",
          {185, 102, 83},
          anatomical,
          kidney,
          {"24028007", "SCT", "Right"},
          "MANUAL",
          true,
          false};
  s[3] = {kLeftKidney,
          "Left kidney",
          "",
          {185, 102, 83},
          anatomical,
          kidney,
          {"7771000", "SCT", "Left"},
          "MANUAL",
          true,
          false};
  s[4] = {kLesion, "Lesions", "",   {255, 240, 60}, abnormal, {"52988006", "SCT", "Lesion"},
          {},      "MANUAL",  true, false};
  return s;
}

bool inCircle(double x, double y, double cx, double cy, double r) {
  return (x - cx) * (x - cx) + (y - cy) * (y - cy) < r * r;
}

}  // namespace

SampleCase makeAbdomenCt(std::uint64_t seed, const Size3& size) {
  const ImageGeometry g = centredGeometry(
      size, {384.0 / double(size[0]), 384.0 / double(size[1]), 240.0 / double(size[2])});
  const std::size_t n = g.voxelCount();
  std::vector<float> hu(n, -1000.0f);
  std::vector<std::uint16_t> labels(n, 0);

  const Ellipsoid liver{{-70, -5, 45}, {78, 82, 72}};
  const Ellipsoid spleen{{92, 40, 50}, {30, 45, 45}};
  const Ellipsoid kidneys[2] = {{{-68, 62, -25}, {26, 28, 55}}, {{68, 58, -15}, {26, 28, 55}}};
  const Ellipsoid lesions[3] = {
      {{-92, -22, 55}, {13, 13, 13}}, {{-52, 12, 18}, {7.5, 7.5, 7.5}}, {{72, 54, -38}, {9, 9, 9}}};
  const float lesionHu[3] = {15, 28, 8};
  const Ellipsoid lungs[2] = {{{-80, 35, 150}, {75, 80, 60}}, {{80, 35, 150}, {75, 80, 60}}};

  for (std::size_t k = 0; k < g.size[2]; ++k) {
    for (std::size_t j = 0; j < g.size[1]; ++j) {
      for (std::size_t i = 0; i < g.size[0]; ++i) {
        const Vec3 p = voxelCentre(g, i, j, k);
        const std::size_t idx = i + g.size[0] * (j + g.size[1] * k);
        const double x = p[0], y = p[1];
        float v = -1000;
        std::uint16_t lab = 0;
        // Patient table below the back.
        if (y > 138 && y < 146 && std::abs(x) < 170) {
          v = 250;
        }
        // Skin marker: a 2.5 mm metal wire along z, on the patient's left anterior skin.
        if (inCircle(x, y, 122, -78, 2.5)) {
          v = 2500;
        }
        // The trunk narrows toward the chest and the pelvis.
        const double taper = 1.0 - 0.1 * (p[2] / 120.0) * (p[2] / 120.0);
        const double bx = 165.0 * taper, by = 115.0 * taper;
        const double body = (x / bx) * (x / bx) + ((y - 12) / by) * ((y - 12) / by);
        if (body < 1.0) {
          const double depth = (1.0 - std::sqrt(body)) * by;  // mm below the skin, roughly
          if (depth < 14) {
            v = -105;  // subcutaneous fat
          } else if (depth < 24) {
            v = 52;  // abdominal wall muscle
          } else {
            // Bowel and mesenteric fat: a smooth mixture.
            const double t = fractalNoise(seed + 3, x / 18.0, y / 18.0, p[2] / 18.0, 3);
            v = t > 0.1 ? 30.0f : -85.0f;
            if (t > 0.45) {
              v = -950;  // bowel gas
            }
          }
          for (const auto& lung : lungs) {
            if (lung.normalizedRadius(p) < 1.0 && depth > 20) {
              v = -860;
            }
          }
          // Spine: vertebral body, canal, posterior muscles.
          if (inCircle(x, y, 0, 62, 21)) {
            v = inCircle(x, y, 0, 62, 17) ? 260.0f : 720.0f;
          }
          if (inCircle(x, y, 0, 92, 8)) {
            v = 12;
          } else if (inCircle(x, y, 0, 92, 12)) {
            v = 650;
          }
          if (inCircle(x, y, -38, 95, 22) || inCircle(x, y, 38, 95, 22)) {
            v = 55;  // paraspinal muscles
          }
          if (inCircle(x, y, 14, 36, 11)) {
            v = 165;  // aorta
          }
          if (inCircle(x, y, -24, 34, 12)) {
            v = 125;  // inferior vena cava
          }
          if (liver.normalizedRadius(p) < 1.0 && depth > 18) {
            v = 62;
            lab = kLiver;
          }
          if (spleen.normalizedRadius(p) < 1.0 && depth > 18) {
            v = 52;
            lab = kSpleen;
          }
          for (int s = 0; s < 2; ++s) {
            const double r = kidneys[s].normalizedRadius(p);
            if (r < 1.0) {
              v = r < 0.45 ? 15.0f : 155.0f;  // renal sinus fat/pelvis vs enhancing parenchyma
              lab = s == 0 ? kRightKidney : kLeftKidney;
            }
          }
          for (int l = 0; l < 3; ++l) {
            if (lesions[l].normalizedRadius(p) < 1.0) {
              v = lesionHu[l];
              lab = kLesion;
            }
          }
          // Lower ribs: arcs under the muscle wall every 22 mm, sparing the anterior midline.
          const double ribPhase = std::fmod(p[2] + 200.0, 22.0);
          if (p[2] > -30 && depth > 22 && depth < 29 && ribPhase < 8.0 &&
              !(std::abs(x) < 60 && y < 0)) {
            v = 620;
            lab = 0;
          }
        }
        hu[idx] = v;
        labels[idx] = lab;
      }
    }
  }
  blur121(hu, g.size);
  for (std::size_t idx = 0; idx < n; ++idx) {
    hu[idx] += static_cast<float>(11.0 * hashGaussian(hashCombine(seed, idx, 7)));
  }

  SampleSeriesIdentity id;
  id.patientName = "DELINEATE^ABDOMEN";
  id.patientId = "DLN-0002";
  id.birthDate = "19640921";
  id.sex = "M";
  id.studyKey = "abdomen-ct";
  id.studyDate = "20260412";
  id.studyDescription = "CT ABDOMEN WITH CONTRAST";
  id.accession = "ACC0002";
  id.seriesKey = "portal";
  id.seriesNumber = 2;
  id.seriesDescription = "Portal venous 2.5mm";
  id.modality = "CT";
  VolumeInfo info = sampleInfo(seed, id);
  info.windows = {
      {"Abdomen", 50, 400}, {"Liver", 80, 150}, {"Bone", 400, 1800}, {"Lung", -600, 1500}};

  SampleCase c;
  c.name = "abdomen-ct";
  VolumeInfo labelInfo = info;
  labelInfo.seriesDescription = "Ground truth";
  c.image = int16Volume(g, hu, std::move(info));
  c.labels = labelVolume(g, std::move(labels), std::move(labelInfo));
  c.segments = ctSegments();
  return c;
}

}  // namespace delineate::core::sample
