#include "annotation/review/PairComparison.h"

#include <algorithm>
#include <cmath>

#include "core/metrics/AgreementSlices.h"

namespace delineate::annotation {

PairComparison comparePair(const std::shared_ptr<const core::LabelMap>& reference,
                           const std::shared_ptr<const core::LabelMap>& test,
                           const core::PairEvaluationOptions& options, std::uint16_t label,
                           core::ProgressSink& progress) {
  PairComparison r;
  core::SubProgress measuring(progress, 0.0, 0.8);
  r.evaluation = core::evaluatePair(*reference, *test, options, measuring);
  r.compared = test;
  if (r.evaluation.renumberedTest) {
    r.compared = std::make_shared<const core::LabelMap>(std::move(*r.evaluation.renumberedTest));
    r.evaluation.renumberedTest.reset();
  }
  core::SubProgress agreeing(progress, 0.8, 0.9);
  core::Agreement agreement = core::agreementMap(*reference, *r.compared, label, agreeing);
  r.agreement = std::move(agreement.map);
  r.counts = agreement.counts;
  core::SubProgress slicing(progress, 0.9, 1.0);
  r.sliceDice = core::agreementSliceDice(*r.agreement, slicing);
  for (const core::LabelEvaluation& l : r.evaluation.labels) {
    if (l.value != 0 && (label == 0 || l.value == label)) {
      r.shownLabels.push_back(l.value);
      const double hd95 = l.metric(core::Metric::Hd95Mm);
      if (std::isfinite(hd95)) {
        r.distanceRangeMm = std::max(r.distanceRangeMm, hd95);
      }
    }
  }
  return r;
}

std::optional<int> stepInOrder(const std::vector<int>& order, int current, int delta) {
  const auto at = std::find(order.begin(), order.end(), current);
  const long position = at == order.end() ? (delta > 0 ? 0 : -1) : (at - order.begin()) + delta;
  if (position < 0 || position >= static_cast<long>(order.size())) {
    return std::nullopt;
  }
  return order[std::size_t(position)];
}

core::DatasetEvaluation asOneCaseEvaluation(const core::PairEvaluation& evaluation,
                                            const std::string& name) {
  core::DatasetEvaluation dataset;
  core::CaseEvaluation c;
  c.name = name;
  c.matchedByName = evaluation.matchedByName;
  c.notes = evaluation.notes;
  c.labels = evaluation.labels;
  dataset.cases.push_back(std::move(c));
  dataset.summary = core::summarizeCases(dataset.cases);
  return dataset;
}

}  // namespace delineate::annotation
