#pragma once
// "Evaluate dataset": a non-modal dialog that evaluates a folder of test label maps against a
// folder of reference label maps (core::evaluateDataset, off the GUI thread with progress and
// Cancel), shows a sortable per-case table and a summary per label, and exports the CSV / JSON
// reports of delineate-cli eval. Double-clicking a measured case asks for its compare view.
#include <QDialog>
#include <memory>

class QCheckBox;
class QDoubleSpinBox;
class QLabel;
class QLineEdit;
class QProgressBar;
class QPushButton;
class QSortFilterProxyModel;
class QTableView;

namespace delineate::core {
struct DatasetEvaluation;
}

namespace delineate::app {

class EvaluationCaseModel;
class EvaluationSummaryModel;
class JobRunner;

class DatasetEvaluationDialog : public QDialog {
  Q_OBJECT

 public:
  // `interactive` false: file choosers are never opened (tests).
  explicit DatasetEvaluationDialog(QWidget* parent = nullptr, bool interactive = true);
  ~DatasetEvaluationDialog() override;

  void setFolders(const QString& referenceFolder, const QString& testFolder);
  // Starts the evaluation of the chosen folders (the Run button); false, with the reason shown,
  // when a folder is not chosen.
  bool run();
  // Asks the running evaluation to stop (the Cancel button).
  void cancel();
  bool running() const;
  // The last evaluation that finished; nullptr before one did or while a new one runs.
  const core::DatasetEvaluation* lastEvaluation() const { return last_.get(); }
  // The status line: progress, "Cancelled", or the error naming the folder or file.
  QString message() const;

  // Write the reports with the core writers; false, with the error naming the file shown, when
  // that fails or nothing was evaluated yet.
  bool exportCsv(const QString& path);
  bool exportJson(const QString& path);

  QLineEdit* referenceEdit() const { return reference_; }
  QLineEdit* testEdit() const { return test_; }
  QLineEdit* labelsEdit() const { return labels_; }
  QDoubleSpinBox* toleranceSpin() const { return tolerance_; }
  QCheckBox* resampleCheck() const { return resample_; }
  QPushButton* runButton() const { return runButton_; }
  QPushButton* cancelButton() const { return cancelButton_; }
  QPushButton* exportCsvButton() const { return exportCsv_; }
  QPushButton* exportJsonButton() const { return exportJson_; }
  QProgressBar* progressBar() const { return progress_; }
  // The per-case rows (EvaluationCaseModel's columns) and the view's sorted order of them.
  EvaluationCaseModel* caseModel() const { return caseModel_; }
  QSortFilterProxyModel* caseProxy() const { return caseProxy_; }
  QTableView* caseView() const { return caseView_; }
  EvaluationSummaryModel* summaryModel() const { return summaryModel_; }
  QTableView* summaryView() const { return summaryView_; }

 Q_SIGNALS:
  // A measured case's row was double-clicked: its first reference and test file and the row's
  // label, by name and by its value in the reference (empty and 0 for a case without labels).
  // Not emitted for a case missing one side.
  void caseActivated(const QString& referencePath, const QString& testPath,
                     const QString& labelName, int labelValue);
  // The evaluation ended: ok, or failed / cancelled (message() says which).
  void finished(bool ok);

 private:
  QWidget* createForm();
  QWidget* createResults();
  void chooseFolder(QLineEdit* edit, const QString& title);
  void chooseExport(bool json);
  void activateRow(const QModelIndex& proxyIndex);
  void setRunning(bool running);
  void showMessage(const QString& text, bool error);
  void showResult(core::DatasetEvaluation evaluation);

  bool interactive_;
  JobRunner* jobs_;
  std::unique_ptr<core::DatasetEvaluation> last_;
  QLineEdit* reference_;
  QLineEdit* test_;
  QLineEdit* labels_;
  QDoubleSpinBox* tolerance_;
  QCheckBox* resample_;
  QPushButton* runButton_;
  QPushButton* cancelButton_;
  QProgressBar* progress_;
  QLabel* message_;
  EvaluationCaseModel* caseModel_;
  QSortFilterProxyModel* caseProxy_;
  QTableView* caseView_;
  EvaluationSummaryModel* summaryModel_;
  QTableView* summaryView_;
  QPushButton* exportCsv_;
  QPushButton* exportJson_;
};

}  // namespace delineate::app
