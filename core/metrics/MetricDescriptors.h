#pragma once
// The one table of the per-label evaluation metrics: id (CSV column, JSON key), name, unit, which
// way is better, and the decimals tables show. Every table, CSV, JSON and printout reads a metric
// by its `Metric`, never by position: a metric added to the table moves no column.
#include <array>
#include <cstddef>

namespace delineate::core {

enum class Metric : std::size_t {
  Dice,
  Jaccard,
  Sensitivity,
  Precision,
  VolumeRefMl,
  VolumeTestMl,
  VolumeDiffMl,
  VolumeDiffPct,
  HausdorffMm,
  Hd95Mm,
  AssdMm,
  SurfaceDice,
};

struct MetricDescriptor {
  Metric metric;
  const char* id;    // "hd95_mm"
  const char* name;  // "HD95"
  const char* unit;  // "mm", "ml", "%", "" for a ratio
  bool higherIsBetter;
  int decimals;
};

inline constexpr std::array<MetricDescriptor, 12> kMetricDescriptors{{
    {Metric::Dice, "dice", "Dice", "", true, 4},
    {Metric::Jaccard, "jaccard", "Jaccard", "", true, 4},
    {Metric::Sensitivity, "sensitivity", "Sensitivity", "", true, 4},
    {Metric::Precision, "precision", "Precision", "", true, 4},
    {Metric::VolumeRefMl, "volume_ref_ml", "Vol ref", "ml", true, 2},
    {Metric::VolumeTestMl, "volume_test_ml", "Vol test", "ml", true, 2},
    {Metric::VolumeDiffMl, "volume_diff_ml", "Vol diff", "ml", false, 2},
    {Metric::VolumeDiffPct, "volume_diff_pct", "Vol diff", "%", false, 1},
    {Metric::HausdorffMm, "hd_mm", "HD", "mm", false, 2},
    {Metric::Hd95Mm, "hd95_mm", "HD95", "mm", false, 2},
    {Metric::AssdMm, "assd_mm", "ASSD", "mm", false, 2},
    {Metric::SurfaceDice, "surface_dice", "Surface Dice", "", true, 4},
}};

// Where `m` is in the table (and in every per-label metrics array).
constexpr std::size_t index(Metric m) {
  return static_cast<std::size_t>(m);
}
constexpr const MetricDescriptor& descriptor(Metric m) {
  return kMetricDescriptors[index(m)];
}

// The table is in the enum's order: checked when this header compiles.
consteval bool descriptorsInOrder() {
  for (std::size_t i = 0; i < kMetricDescriptors.size(); ++i) {
    if (index(kMetricDescriptors[i].metric) != i) {
      return false;
    }
  }
  return true;
}
static_assert(descriptorsInOrder(), "kMetricDescriptors must follow the order of Metric");

}  // namespace delineate::core
