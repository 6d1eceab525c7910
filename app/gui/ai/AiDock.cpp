#include "app/gui/ai/AiDock.h"

#include <QCheckBox>
#include <QComboBox>
#include <QGridLayout>
#include <QHBoxLayout>
#include <QInputDialog>
#include <QLabel>
#include <QMessageBox>
#include <QPushButton>
#include <QToolButton>
#include <QVBoxLayout>

#include "app/gui/ai/AiController.h"
#include "app/gui/ai/LabelMappingDialog.h"
#include "app/gui/ai/ServerSignIn.h"
#include "app/gui/ai/SignInDialog.h"
#include "app/gui/shell/JobProgressWidget.h"
#include "app/plugins/PluginHost.h"

namespace delineate::app {

AiDock::AiDock(AiController* ai, bool interactive, QWidget* parent)
    : QWidget(parent), ai_(ai), interactive_(interactive) {
  setObjectName(QStringLiteral("aiPanel"));
  backends_ = new QComboBox(this);
  backends_->setObjectName(QStringLiteral("aiBackend"));
  auto* add = new QToolButton(this);
  add->setText(tr("+"));
  add->setToolTip(tr("Add a MONAI Label server (URL)"));
  auto* refresh = new QToolButton(this);
  refresh->setText(tr("⟳"));
  refresh->setToolTip(tr("Ask the server for its models again"));
  status_ = new QLabel(this);
  status_->setObjectName(QStringLiteral("aiStatus"));
  status_->setWordWrap(true);
  deidentify_ = new QCheckBox(tr("De-identify before sending"), this);
  deidentify_->setObjectName(QStringLiteral("aiDeidentify"));
  deidentify_->setToolTip(
      tr("Images that may show identifying text in their pixels (Burned In Annotation YES, or "
         "absent from ultrasound, secondary capture, ...) are not sent to this server. Turn off "
         "only for a server trusted with identifiable images. File names and headers sent never "
         "carry identifiers."));
  message_ = new QLabel(this);
  message_->setObjectName(QStringLiteral("aiMessage"));
  message_->setWordWrap(true);
  message_->setStyleSheet(QStringLiteral("color: #b35900;"));
  message_->hide();
  models_ = new QComboBox(this);
  models_->setObjectName(QStringLiteral("aiModel"));
  runOnClick_ = new QCheckBox(tr("Run on every click"), this);
  runOnClick_->setChecked(ai_->runOnClick());
  refine_ = new QCheckBox(tr("Refine the selected segment"), this);
  refine_->setObjectName(QStringLiteral("aiRefine"));
  refine_->setChecked(ai_->refineSegment());
  refine_->setToolTip(
      tr("Start from the segment's voxels and correct them with clicks and prompts (built-in "
         "engine, nnInteractive); Accept then also removes what the proposal left out"));
  run_ = new QPushButton(tr("Run"), this);
  accept_ = new QPushButton(tr("Accept"), this);
  accept_->setObjectName(QStringLiteral("aiAccept"));
  accept_->setToolTip(
      tr("Merge the proposal into the active segment (one undo step; the "
         "paint-over policy and locks apply)"));
  reject_ = new QPushButton(tr("Reject"), this);
  freeze_ = new QPushButton(tr("Freeze"), this);
  freeze_->setCheckable(true);
  freeze_->setToolTip(tr("New results may only add to the slice of the last click"));
  clear_ = new QPushButton(tr("Clear clicks"), this);
  labels_ = new QPushButton(tr("Labels…"), this);
  labels_->setToolTip(tr("Where Accept puts each label of this model's proposals"));
  timings_ = new QLabel(this);
  timings_->setObjectName(QStringLiteral("aiTimings"));
  timings_->setWordWrap(true);
  auto* hint = new QLabel(
      tr("<b>AI clicks</b> (A): click inside the structure, Shift+click outside it. <b>AI "
         "box</b> (D), <b>scribble</b> (S), <b>lasso</b> (O): draw on any slice, Shift for "
         "outside; T on the slice where the boxed structure ends (built-in engine). Ctrl+Z "
         "takes back the last one."),
      this);
  hint->setObjectName(QStringLiteral("aiHint"));
  hint->setWordWrap(true);

  auto* serverRow = new QHBoxLayout;
  serverRow->addWidget(backends_, 1);
  serverRow->addWidget(refresh);
  serverRow->addWidget(add);
  auto* buttons = new QGridLayout;
  buttons->addWidget(run_, 0, 0);
  buttons->addWidget(clear_, 0, 1);
  buttons->addWidget(accept_, 1, 0);
  buttons->addWidget(reject_, 1, 1);
  buttons->addWidget(freeze_, 2, 0);
  buttons->addWidget(labels_, 2, 1);
  auto* layout = new QVBoxLayout(this);
  layout->addLayout(serverRow);
  layout->addWidget(status_);
  layout->addWidget(deidentify_);
  layout->addWidget(message_);
  layout->addWidget(models_);
  layout->addWidget(runOnClick_);
  layout->addWidget(refine_);
  layout->addLayout(buttons);
  layout->addWidget(hint);
  layout->addWidget(timings_);
  // A request under way (an automatic model uploads the whole image; a slow server): its stage,
  // progress and Cancel. Shown only while one runs.
  layout->addWidget(new JobProgressWidget(ai_->inferJobs(), this));
  layout->addWidget(new JobProgressWidget(ai_->infoJobs(), this));
  auto* signingIn = new JobProgressWidget(ai_->serverSignIn()->jobs(), this);
  signingIn->setObjectName(QStringLiteral("signInProgress"));
  layout->addWidget(signingIn);
  layout->addStretch(1);

  connect(backends_, &QComboBox::activated, ai_, &AiController::setBackend);
  connect(add, &QToolButton::clicked, this, &AiDock::addServer);
  connect(refresh, &QToolButton::clicked, ai_, &AiController::refresh);
  connect(models_, &QComboBox::activated, this, [this](int) {
    ai_->setModel(models_->currentText());
    updateButtons();
  });
  connect(runOnClick_, &QCheckBox::toggled, ai_, &AiController::setRunOnClick);
  connect(refine_, &QCheckBox::toggled, ai_, &AiController::setRefineSegment);
  connect(run_, &QPushButton::clicked, ai_, &AiController::run);
  connect(accept_, &QPushButton::clicked, ai_, &AiController::accept);
  connect(reject_, &QPushButton::clicked, ai_, &AiController::reject);
  connect(freeze_, &QPushButton::toggled, ai_, &AiController::setFrozen);
  connect(clear_, &QPushButton::clicked, ai_, &AiController::clearClicks);
  connect(labels_, &QPushButton::clicked, this, [this] { editLabels(); });
  connect(ai_, &AiController::backendsChanged, this, &AiDock::rebuildBackends);
  connect(ai_, &AiController::modelsChanged, this, &AiDock::rebuildModels);
  connect(ai_, &AiController::statusChanged, this, [this](const QString& status) {
    status_->setText(status);
    updateDeidentify();
  });
  connect(deidentify_, &QCheckBox::clicked, this, &AiDock::setDeidentify);
  // Shown until the next request starts: an image held back stays explained.
  connect(ai_, &AiController::failed, this, [this](const QString& m) {
    message_->setText(m);
    message_->show();
  });
  connect(ai_, &AiController::busyChanged, message_, [this](bool busy) {
    if (busy) {
      message_->hide();
    }
  });
  connect(ai_, &AiController::proposalChanged, this, [this] {
    timings_->setText(ai_->timingsText());
    if (!ai_->frozen()) {
      freeze_->setChecked(false);
    }
    updateButtons();
  });
  connect(ai_, &AiController::busyChanged, this, &AiDock::updateButtons);
  connect(ai_, &AiController::signInRequired, this, &AiDock::askSignIn);
  rebuildBackends();
  rebuildModels();
  status_->setText(ai_->backends()[static_cast<std::size_t>(ai_->backendIndex())].status);
}

void AiDock::rebuildBackends() {
  const QSignalBlocker block(backends_);
  backends_->clear();
  for (const AiController::Backend& b : ai_->backends()) {
    backends_->addItem(b.name);
  }
  backends_->setCurrentIndex(ai_->backendIndex());
  updateDeidentify();
}

void AiDock::updateDeidentify() {
  const AiController::Backend& b = ai_->backends()[static_cast<std::size_t>(ai_->backendIndex())];
  const QSignalBlocker block(deidentify_);
  // The built-in engine sends nothing: nothing to set.
  deidentify_->setEnabled(!b.entry.isEmpty());
  deidentify_->setChecked(b.entry.isEmpty() || b.deidentify);
}

void AiDock::setDeidentify(bool on) {
  const int index = ai_->backendIndex();
  if (on || !interactive_) {
    ai_->setDeidentify(index, on);
    return;
  }
  deidentify_->setChecked(true);  // until the user confirms
  auto* box = new QMessageBox(
      QMessageBox::Warning, tr("Send identifiable images?"),
      tr("Images that may show patient names or other identifiers in their pixels will be sent "
         "to %1. Do this only for a server inside the hospital that may hold identifiable "
         "images.")
          .arg(ai_->backends()[static_cast<std::size_t>(index)].name),
      QMessageBox::Yes | QMessageBox::Cancel, this);
  box->setDefaultButton(QMessageBox::Cancel);
  box->setAttribute(Qt::WA_DeleteOnClose);
  connect(box, &QMessageBox::buttonClicked, this, [this, box, index](QAbstractButton* button) {
    if (box->standardButton(button) == QMessageBox::Yes) {
      ai_->setDeidentify(index, false);
      updateDeidentify();
    }
  });
  box->open();  // window-modal without a nested event loop
}

void AiDock::rebuildModels() {
  const QSignalBlocker block(models_);
  models_->clear();
  models_->addItems(ai_->models());
  models_->setCurrentText(ai_->model());
  updateButtons();
}

void AiDock::updateButtons() {
  const bool proposal = ai_->hasProposal();
  accept_->setEnabled(proposal);
  reject_->setEnabled(proposal || ai_->busy());
  freeze_->setEnabled(proposal);
  run_->setEnabled(ai_->connected() && !ai_->model().isEmpty());
  labels_->setEnabled(!ai_->modelLabelNames().empty());
}

LabelMappingDialog* AiDock::editLabels() {
  const std::vector<std::string> labels = ai_->modelLabelNames();
  if (labels.empty()) {
    return nullptr;
  }
  const QString model = ai_->model();
  auto* dialog = new LabelMappingDialog(model, labels, ai_->activeSegmentNames(),
                                        ai_->labelRules(model), this);
  dialog->setAttribute(Qt::WA_DeleteOnClose);
  connect(dialog, &QDialog::accepted, this,
          [this, dialog, model] { ai_->setLabelRules(model, dialog->rules()); });
  dialog->open();  // window-modal without a nested event loop
  return dialog;
}

void AiDock::addServer() {
  if (!interactive_) {
    return;
  }
  bool ok = false;
  const QStringList kinds = AiController::serverKinds();
  if (kinds.isEmpty()) {
    status_->setText(tr("No server plugin is installed (searched %1)")
                         .arg(PluginHost::application().directories().join(QStringLiteral(", "))));
    return;
  }
  QStringList names;
  for (const QString& k : kinds) {
    names << AiController::serverKindName(k);
  }
  const QString name =
      QInputDialog::getItem(this, tr("Add an AI server"), tr("Server type:"), names, 0, false, &ok);
  if (!ok) {
    return;
  }
  const QString kind = kinds[int(names.indexOf(name))];
  const QString url =
      QInputDialog::getText(this, tr("Add a %1 server").arg(name), tr("Server URL:"),
                            QLineEdit::Normal, QStringLiteral("http://"), &ok);
  if (ok && !url.trimmed().isEmpty()) {
    ai_->addServer(url.trimmed(), kind);
  }
}

void AiDock::askSignIn(const QString& url, const QString& reason) {
  if (!interactive_) {
    return;  // the status line already says that the server wants a sign-in
  }
  if (signIn_) {
    signIn_->reasonLabel()->setText(reason);  // one dialog per dock
    return;
  }
  signIn_ = new SignInDialog(url, ai_->serverSignIn()->user(url), reason, this);
  signIn_->setAttribute(Qt::WA_DeleteOnClose);
  SignInDialog* dialog = signIn_;
  connect(dialog, &QDialog::accepted, this, [this, dialog, url] {
    ai_->signIn(url, dialog->user(), dialog->password(), dialog->rememberPassword());
  });
  dialog->open();  // window-modal, without a nested event loop: the GUI keeps running
}

}  // namespace delineate::app
