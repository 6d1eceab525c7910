#pragma once
// The per-case table of a dataset evaluation: one row per case and label (one row with an empty
// label for a case that was not measured), its status, Dice, HD95, ASSD, surface Dice, volume
// difference and notes. Numbers carry their exact value as sort data (Qt::UserRole; NaN when
// missing); failed cases are tinted. Each row knows its case and label in the evaluation.
#include <QStandardItemModel>

namespace delineate::core {
struct DatasetEvaluation;
}

namespace delineate::app {

class EvaluationCaseModel : public QStandardItemModel {
  Q_OBJECT

 public:
  enum Column {
    kCaseColumn,
    kLabelColumn,
    kStatusColumn,
    kDiceColumn,
    kHd95Column,
    kAssdColumn,
    kSurfaceDiceColumn,
    kVolumeDiffPctColumn,
    kNoteColumn,
    kColumnCount
  };
  static constexpr int kSortRole = Qt::UserRole;            // double for numbers, else text
  static constexpr int kCaseIndexRole = Qt::UserRole + 1;   // index into evaluation.cases
  static constexpr int kLabelIndexRole = Qt::UserRole + 2;  // into the case's labels; -1: none
  static constexpr int kFailedRole = Qt::UserRole + 3;      // bool: the case was not measured

  explicit EvaluationCaseModel(QObject* parent = nullptr);

  // Rebuilds the rows; an empty evaluation clears them.
  void setEvaluation(const core::DatasetEvaluation& evaluation);
  void clearRows();

  // The case and label of a row of this model (-1 when out of range or no label).
  int caseIndex(int row) const;
  int labelIndex(int row) const;

 private:
  void setHeaders();
};

}  // namespace delineate::app
