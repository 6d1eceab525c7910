#pragma once
// Edit > Preferences… (Ctrl+,): the settings a user changes for the whole workstation, kept in
// the user's settings and applied at once. Today: the undo budget (steps and memory). The AI
// servers and their de-identification are set in the AI panel.
#include <QDialog>

class QSpinBox;

namespace delineate::app {

struct Preferences {
  int undoSteps = 200;
  int undoMegabytes = 512;

  static Preferences load();  // from QSettings, defaults where unset or out of range
  void save() const;
};

class PreferencesDialog : public QDialog {
  Q_OBJECT

 public:
  explicit PreferencesDialog(QWidget* parent = nullptr);

  // Shows `p` in the fields.
  void setPreferences(const Preferences& p);
  Preferences preferences() const;
  QSpinBox* undoStepsBox() const { return undoSteps_; }
  QSpinBox* undoMegabytesBox() const { return undoMegabytes_; }

 Q_SIGNALS:
  // OK or Apply: the preferences were saved and are to be applied.
  void applied(const delineate::app::Preferences& preferences);

 private:
  void apply();

  QSpinBox* undoSteps_;
  QSpinBox* undoMegabytes_;
};

}  // namespace delineate::app
