#pragma once
// The compare view's panel: pick reference and test (any two label maps of the image, or the AI
// proposal), the label and the surface Dice tolerance; toggle the agreement classes of the
// overlay; a sortable per-label metrics table; the per-slice Dice plot of a chosen view with
// previous/next worst slice; export of the table (CSV) and the plot (PNG). The logic is
// CompareController's.
#include <QWidget>

class QCheckBox;
class QComboBox;
class QDoubleSpinBox;
class QLabel;
class QPushButton;
class QTableWidget;

namespace delineate::core {
class LabelMap;
}

namespace delineate::viewers {
class ViewState;
}

namespace delineate::app {

class CompareController;
class SliceDiceChart;

class CompareDock : public QWidget {
  Q_OBJECT

 public:
  CompareDock(CompareController* controller, std::shared_ptr<viewers::ViewState> viewState,
              bool interactive, QWidget* parent = nullptr);
  ~CompareDock() override;

  QComboBox* referenceCombo() const { return reference_; }
  QComboBox* testCombo() const { return test_; }
  QComboBox* labelCombo() const { return label_; }
  QComboBox* viewCombo() const { return view_; }
  QCheckBox* classCheck(int agreementClass) const { return classes_[agreementClass - 1]; }
  QCheckBox* hideMapsCheck() const { return hideMaps_; }
  QPushButton* compareButton() const { return compareButton_; }
  QTableWidget* table() const { return table_; }
  SliceDiceChart* chart() const { return chart_; }
  QLabel* summaryLabel() const { return summary_; }
  QLabel* worstLabel() const { return worst_; }

  // Compares the chosen maps (the Compare button).
  void compare();
  // Chooses two of the session's maps, the label (its reference value; 0: all labels) and the
  // tolerance (negative: the one shown), then compares; false with the reason when a map is not
  // one of the sources or the comparison cannot start.
  bool compareMaps(const core::LabelMap& reference, const core::LabelMap& test, int labelValue,
                   const QString& labelName, double toleranceMm, QString* error = nullptr);
  // Shows a message under the controls (e.g. why a command could not run).
  void showError(const QString& message);
  // Writes the table / the plot; false with a message naming the file when it fails.
  bool exportTable(const QString& path, QString* error = nullptr);
  bool exportPlot(const QString& path, QString* error = nullptr);

 private:
  void rebuildSources();
  void showResult();
  void updatePlot();
  void updateWorstText();
  void chooseTableFile();
  void choosePlotFile();

  CompareController* compare_;
  std::shared_ptr<viewers::ViewState> viewState_;
  int viewObserver_ = 0;
  bool interactive_;
  QComboBox* reference_;
  QComboBox* test_;
  QComboBox* label_;
  QCheckBox* byName_;
  QDoubleSpinBox* tolerance_;
  QPushButton* compareButton_;
  QPushButton* clearButton_;
  QCheckBox* classes_[4];
  QCheckBox* hideMaps_;
  QLabel* summary_;
  QTableWidget* table_;
  QComboBox* view_;
  QLabel* worst_;
  SliceDiceChart* chart_;
  QLabel* message_;
};

}  // namespace delineate::app
