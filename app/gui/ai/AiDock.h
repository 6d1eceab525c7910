#pragma once
// The AI panel: the backend (built-in engine or a MONAI Label server, with its connection
// status and its "de-identify before sending" setting), the model, "run on every click", Run /
// Accept / Reject / Freeze / Clear clicks, and the last request's timings (the server's and the
// client's own), and the last warning (an image held back, a server that failed). When a server
// wants signing in, the sign-in dialog (interactive only: otherwise the status line says so).
#include <QPointer>
#include <QWidget>

class QCheckBox;
class QComboBox;
class QLabel;
class QPushButton;

namespace delineate::app {
class LabelMappingDialog;
}

namespace delineate::app {

class AiController;
class SignInDialog;

class AiDock : public QWidget {
  Q_OBJECT

 public:
  AiDock(AiController* ai, bool interactive, QWidget* parent = nullptr);

  QComboBox* backendCombo() const { return backends_; }
  QComboBox* modelCombo() const { return models_; }
  QPushButton* acceptButton() const { return accept_; }
  QPushButton* labelsButton() const { return labels_; }
  // "Labels…": the dialog for the current model (shown; its OK stores the rules). Returned for
  // tests; deleted when closed.
  LabelMappingDialog* editLabels();
  QPushButton* rejectButton() const { return reject_; }
  QLabel* statusLabel() const { return status_; }
  QCheckBox* deidentifyBox() const { return deidentify_; }
  QLabel* messageLabel() const { return message_; }
  QLabel* timingsLabel() const { return timings_; }

 private:
  void rebuildBackends();
  void rebuildModels();
  void updateButtons();
  void addServer();
  void askSignIn(const QString& url, const QString& reason);
  void updateDeidentify();
  void setDeidentify(bool on);

  AiController* ai_;
  bool interactive_;
  QComboBox* backends_;
  QLabel* status_;
  QCheckBox* deidentify_;
  QLabel* message_;
  QComboBox* models_;
  QCheckBox* runOnClick_;
  QCheckBox* refine_;
  QPushButton* run_;
  QPushButton* accept_;
  QPushButton* reject_;
  QPushButton* freeze_;
  QPushButton* clear_;
  QPushButton* labels_;
  QLabel* timings_;
  QPointer<SignInDialog> signIn_;
};

}  // namespace delineate::app
