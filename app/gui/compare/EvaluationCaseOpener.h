#pragma once
// Opens one case of a dataset evaluation in the compare view (a double-click in the "Evaluate
// dataset" dialog): the case's image — found beside the label folders (core::findCaseImage), else
// the reference label file itself shown as the image — then the reference and test label maps,
// then the comparison of the chosen label. Steps chain on the window's and the label files'
// signals; a step that fails (or a different image shown meanwhile) ends the chain with
// failed(). A DICOM SEG case needs its source series open already: its segments are imported
// onto it.
#include <QObject>
#include <QString>

namespace delineate::core {
class LabelMap;
}

namespace delineate::app {

class MainWindow;

class EvaluationCaseOpener : public QObject {
  Q_OBJECT

 public:
  struct Case {
    QString referencePath;
    QString testPath;
    QString labelName;  // empty / 0: all labels
    int labelValue = 0;
    double toleranceMm = 1.0;
    bool resample = false;  // a test on another grid is resampled without asking
  };

  explicit EvaluationCaseOpener(MainWindow* window);

  void open(const Case& c);
  bool busy() const { return step_ != Step::Idle; }
  // The image the case is shown on (the found image, or the reference label file).
  QString imagePath() const { return imagePath_; }

 Q_SIGNALS:
  void opened();
  void failed(const QString& message);

 private:
  enum class Step { Idle, Image, Reference, Test };
  void openLabels();
  void openNext(const QString& path);
  void labelOpened();
  void compare();
  void fail(const QString& message);
  const core::LabelMap* newestMap() const;

  MainWindow* window_;
  Case case_;
  QString imagePath_;
  Step step_ = Step::Idle;
  const core::LabelMap* reference_ = nullptr;
  const core::LabelMap* test_ = nullptr;
};

}  // namespace delineate::app
