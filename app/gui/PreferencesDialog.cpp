#include "app/gui/PreferencesDialog.h"

#include <QDialogButtonBox>
#include <QFormLayout>
#include <QGroupBox>
#include <QLabel>
#include <QPushButton>
#include <QSettings>
#include <QSpinBox>
#include <QVBoxLayout>

namespace delineate::app {

namespace {

constexpr int kMinSteps = 10, kMaxSteps = 5000;
constexpr int kMinMegabytes = 32, kMaxMegabytes = 16384;

int bounded(const QSettings& s, const char* key, int fallback, int low, int high) {
  bool ok = false;
  const int v = s.value(QString::fromLatin1(key)).toInt(&ok);
  return ok && v >= low && v <= high ? v : fallback;
}

}  // namespace

Preferences Preferences::load() {
  const QSettings s;
  Preferences p;
  p.undoSteps = bounded(s, "preferences/undoSteps", p.undoSteps, kMinSteps, kMaxSteps);
  p.undoMegabytes =
      bounded(s, "preferences/undoMegabytes", p.undoMegabytes, kMinMegabytes, kMaxMegabytes);
  return p;
}

void Preferences::save() const {
  QSettings s;
  s.setValue(QStringLiteral("preferences/undoSteps"), undoSteps);
  s.setValue(QStringLiteral("preferences/undoMegabytes"), undoMegabytes);
}

PreferencesDialog::PreferencesDialog(QWidget* parent) : QDialog(parent) {
  setObjectName(QStringLiteral("preferencesDialog"));
  setWindowTitle(tr("Preferences"));
  auto* editing = new QGroupBox(tr("Editing"), this);
  undoSteps_ = new QSpinBox(editing);
  undoSteps_->setRange(kMinSteps, kMaxSteps);
  undoSteps_->setSuffix(tr(" steps"));
  undoMegabytes_ = new QSpinBox(editing);
  undoMegabytes_->setRange(kMinMegabytes, kMaxMegabytes);
  undoMegabytes_->setSingleStep(64);
  undoMegabytes_->setSuffix(tr(" MB"));
  auto* form = new QFormLayout(editing);
  form->addRow(tr("Undo keeps at most"), undoSteps_);
  form->addRow(tr("and at most"), undoMegabytes_);
  auto* note = new QLabel(tr("The oldest steps are dropped first when either limit is reached. "
                             "Every edit is also journaled on disk for crash recovery."),
                          editing);
  note->setWordWrap(true);
  form->addRow(note);
  auto* servers = new QLabel(
      tr("AI servers, their sign-in and whether images are de-identified before they are sent "
         "are set in the AI panel."),
      this);
  servers->setWordWrap(true);
  auto* buttons = new QDialogButtonBox(
      QDialogButtonBox::Ok | QDialogButtonBox::Apply | QDialogButtonBox::Cancel, this);
  auto* layout = new QVBoxLayout(this);
  layout->addWidget(editing);
  layout->addWidget(servers);
  layout->addStretch(1);
  layout->addWidget(buttons);
  connect(buttons, &QDialogButtonBox::accepted, this, [this] {
    apply();
    accept();
  });
  connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
  connect(buttons->button(QDialogButtonBox::Apply), &QPushButton::clicked, this,
          &PreferencesDialog::apply);
  setPreferences(Preferences::load());
}

void PreferencesDialog::setPreferences(const Preferences& p) {
  undoSteps_->setValue(p.undoSteps);
  undoMegabytes_->setValue(p.undoMegabytes);
}

Preferences PreferencesDialog::preferences() const {
  Preferences p;
  p.undoSteps = undoSteps_->value();
  p.undoMegabytes = undoMegabytes_->value();
  return p;
}

void PreferencesDialog::apply() {
  const Preferences p = preferences();
  p.save();
  Q_EMIT applied(p);
}

}  // namespace delineate::app
