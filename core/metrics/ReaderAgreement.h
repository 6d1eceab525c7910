#pragma once
// How far readers agree with each other: for every label, the readers x readers matrices of Dice
// and HD95 (each pair measured once, as PairEvaluation measures a reference and a test; the
// matrices are symmetric, Dice 1 and HD95 0 on the diagonal). Labels pair up by segment name when
// the maps have segment tables, else by value. A reader without the label gives NaN (Dice 0 where
// the other has it). docs/metrics.md, "Agreement between readers".
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "core/jobs/ProgressSink.h"
#include "core/model/LabelMap.h"

namespace delineate::core {

struct ReaderMatrices {
  std::string label;                      // the segment name
  std::vector<std::vector<double>> dice;  // [i][j]
  std::vector<std::vector<double>> hd95;  // mm; infinity when one side is empty
  // The mean of the off-diagonal Dice (each pair once): one figure for the label.
  double meanPairDice() const;
};

struct ReaderAgreement {
  std::vector<std::string> readers;
  std::vector<ReaderMatrices> labels;
  nlohmann::json toJson() const;
};

// Throws Error(InvalidInput) for fewer than two readers or another grid (named); CancelledError.
ReaderAgreement readerAgreement(const std::vector<const LabelMap*>& readers,
                                const std::vector<std::string>& names, ProgressSink& progress);

}  // namespace delineate::core
