#include "core/metrics/ReaderAgreement.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include "core/Error.h"
#include "core/metrics/PairEvaluation.h"

namespace delineate::core {

namespace {

ReaderMatrices& matricesFor(ReaderAgreement& a, const std::string& label, std::size_t n) {
  for (ReaderMatrices& m : a.labels) {
    if (m.label == label) {
      return m;
    }
  }
  const double nan = std::numeric_limits<double>::quiet_NaN();
  ReaderMatrices m;
  m.label = label;
  m.dice.assign(n, std::vector<double>(n, nan));
  m.hd95.assign(n, std::vector<double>(n, nan));
  for (std::size_t i = 0; i < n; ++i) {
    m.dice[i][i] = 1;
    m.hd95[i][i] = 0;
  }
  a.labels.push_back(std::move(m));
  return a.labels.back();
}

nlohmann::json agreementNumber(double v) {
  if (std::isnan(v)) {
    return nullptr;
  }
  if (std::isinf(v)) {
    return "inf";
  }
  return v;
}

}  // namespace

double ReaderMatrices::meanPairDice() const {
  double sum = 0;
  int n = 0;
  for (std::size_t i = 0; i < dice.size(); ++i) {
    for (std::size_t j = i + 1; j < dice.size(); ++j) {
      if (!std::isnan(dice[i][j])) {
        sum += dice[i][j];
        ++n;
      }
    }
  }
  return n > 0 ? sum / n : std::numeric_limits<double>::quiet_NaN();
}

ReaderAgreement readerAgreement(const std::vector<const LabelMap*>& readers,
                                const std::vector<std::string>& names, ProgressSink& progress) {
  if (readers.size() < 2) {
    throw Error(ErrorKind::InvalidInput, "reader agreement",
                "it needs at least two readers' label maps");
  }
  const std::size_t n = readers.size();
  ReaderAgreement out;
  for (std::size_t i = 0; i < n; ++i) {
    out.readers.push_back(i < names.size() ? names[i] : readers[i]->name());
  }
  const std::size_t pairs = n * (n - 1) / 2;
  std::size_t done = 0;
  for (std::size_t i = 0; i < n; ++i) {
    for (std::size_t j = i + 1; j < n; ++j) {
      SubProgress one(progress, double(done) / double(pairs), double(done + 1) / double(pairs));
      ++done;
      const PairEvaluation e = evaluatePair(*readers[i], *readers[j], {}, one);
      for (const LabelEvaluation& l : e.labels) {
        if (l.inNeither) {
          continue;
        }
        ReaderMatrices& m = matricesFor(out, l.name, n);
        m.dice[i][j] = m.dice[j][i] = l.metric(Metric::Dice);
        m.hd95[i][j] = m.hd95[j][i] = l.metric(Metric::Hd95Mm);
      }
    }
  }
  return out;
}

nlohmann::json ReaderAgreement::toJson() const {
  nlohmann::json list = nlohmann::json::array();
  for (const ReaderMatrices& m : labels) {
    nlohmann::json d = nlohmann::json::array(), h = nlohmann::json::array();
    for (std::size_t i = 0; i < m.dice.size(); ++i) {
      nlohmann::json rowD = nlohmann::json::array(), rowH = nlohmann::json::array();
      for (std::size_t j = 0; j < m.dice.size(); ++j) {
        rowD.push_back(agreementNumber(m.dice[i][j]));
        rowH.push_back(agreementNumber(m.hd95[i][j]));
      }
      d.push_back(rowD);
      h.push_back(rowH);
    }
    list.push_back({{"label", m.label},
                    {"mean_pair_dice", agreementNumber(m.meanPairDice())},
                    {"dice", d},
                    {"hd95_mm", h}});
  }
  return {{"readers", readers}, {"labels", list}};
}

}  // namespace delineate::core
