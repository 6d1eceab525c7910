#pragma once
// The summary table of a dataset evaluation, one row per label, from the core's
// SummaryStatistics (nothing recomputed): cases, mean ± SD, median and IQR (Q1–Q3) of Dice and
// HD95, mean ± SD of ASSD and surface Dice, and the values left out (infinite, undefined, empty
// in both). Each statistic's exact value is in Qt::UserRole of its cell.
#include <QStandardItemModel>

namespace delineate::core {
struct DatasetEvaluation;
}

namespace delineate::app {

class EvaluationSummaryModel : public QStandardItemModel {
  Q_OBJECT

 public:
  enum Column {
    kLabelColumn,
    kCasesColumn,
    kDiceMeanColumn,  // mean ± SD; UserRole: mean, UserRole + 1: SD
    kDiceMedianColumn,
    kDiceIqrColumn,  // IQR (Q1–Q3); UserRole: IQR, UserRole + 1: Q1, UserRole + 2: Q3
    kHd95MeanColumn,
    kHd95MedianColumn,
    kHd95IqrColumn,
    kAssdMeanColumn,
    kSurfaceDiceMeanColumn,
    kNoteColumn,
    kColumnCount
  };

  explicit EvaluationSummaryModel(QObject* parent = nullptr);

  void setEvaluation(const core::DatasetEvaluation& evaluation);
  void clearRows();
};

}  // namespace delineate::app
