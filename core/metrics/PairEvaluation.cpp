#include "core/metrics/PairEvaluation.h"

#include <algorithm>
#include <limits>

#include "core/metrics/LabelComparison.h"
#include "core/metrics/LabelMatching.h"

namespace delineate::core {

namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

LabelEvaluation labelEvaluation(const MatchedLabel& matched, const LabelMetrics* m) {
  LabelEvaluation e;
  e.name = matched.name;
  e.referenceValue = matched.referenceValue;
  e.testValue = matched.testValue;
  e.value = matched.value;
  e.metrics.fill(kNaN);
  if (!m) {
    e.note = "in neither label scheme";
    e.inNeither = true;
    return e;
  }
  if (m->counts.reference == 0 && m->counts.test == 0) {
    e.note = "empty in both";
    e.inNeither = true;
  } else if (m->counts.reference == 0) {
    e.note = "empty in the reference";
  } else if (m->counts.test == 0) {
    e.note = "empty in the test";
  }
  const OverlapMeasures& o = m->overlap;
  const auto set = [&e](Metric metric, double value) { e.metrics[index(metric)] = value; };
  set(Metric::Dice, o.dice);
  set(Metric::Jaccard, o.jaccard);
  set(Metric::Sensitivity, o.sensitivity);
  set(Metric::Precision, o.precision);
  set(Metric::VolumeRefMl, o.referenceMl);
  set(Metric::VolumeTestMl, o.testMl);
  set(Metric::VolumeDiffMl, o.volumeDifferenceMl);
  set(Metric::VolumeDiffPct, o.volumeDifferencePercent);
  if (m->surface) {
    set(Metric::HausdorffMm, m->surface->hausdorffMm);
    set(Metric::Hd95Mm, m->surface->hausdorffPercentileMm);
    set(Metric::AssdMm, m->surface->averageSymmetricMm);
    set(Metric::SurfaceDice, m->surface->surfaceDice);
  }
  return e;
}

}  // namespace

PairEvaluation evaluatePair(const LabelMap& reference, const LabelMap& test,
                            const PairEvaluationOptions& options, ProgressSink& progress) {
  PairEvaluation result;
  const LabelMatching matching =
      matchLabels(reference, options.referenceHasTable, test, options.testHasTable, options.labels);
  result.matchedByName = matching.byName;
  result.notes = matching.notes;
  result.renumberedTest = renumberTest(test, matching);

  ComparisonOptions comparison;
  comparison.toleranceMm = options.toleranceMm;
  for (const MatchedLabel& l : matching.labels) {
    if (l.value != 0) {
      comparison.labels.push_back(l.value);
    }
  }
  std::vector<LabelMetrics> metrics;
  if (!comparison.labels.empty()) {
    metrics = compareLabelMaps(reference, result.renumberedTest ? *result.renumberedTest : test,
                               comparison, progress);
  } else {
    result.notes.push_back("no labels to compare");
  }
  for (const MatchedLabel& l : matching.labels) {
    const auto it = std::find_if(metrics.begin(), metrics.end(), [&](const LabelMetrics& m) {
      return l.value && m.label == l.value;
    });
    result.labels.push_back(labelEvaluation(l, it != metrics.end() ? &*it : nullptr));
  }
  return result;
}

}  // namespace delineate::core
