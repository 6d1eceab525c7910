#include "app/gui/preferences/PreferencesDialog.h"

#include <QComboBox>
#include <QDialogButtonBox>
#include <QFormLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QSpinBox>
#include <QTabWidget>
#include <QVBoxLayout>

#include "app/gui/ai/AiServersPage.h"

namespace delineate::app {

namespace {

QLabel* note(const QString& text, QWidget* parent) {
  auto* label = new QLabel(text, parent);
  label->setWordWrap(true);
  return label;
}

}  // namespace

PreferencesDialog::PreferencesDialog(AiController* ai, QWidget* parent)
    : QDialog(parent), pages_(new QTabWidget(this)) {
  setObjectName(QStringLiteral("preferencesDialog"));
  setWindowTitle(tr("Preferences"));
  pages_->setUsesScrollButtons(false);  // the dialog is as wide as every page's title
  pages_->addTab(generalPage(), tr("General"));
  pages_->addTab(editingPage(), tr("Editing"));
  if (ai != nullptr) {
    servers_ = new AiServersPage(ai, this);
    pages_->addTab(servers_, tr("AI servers"));
  }
  pages_->addTab(renderingPage(), tr("3D rendering"));
  auto* buttons = new QDialogButtonBox(
      QDialogButtonBox::Ok | QDialogButtonBox::Apply | QDialogButtonBox::Cancel, this);
  auto* layout = new QVBoxLayout(this);
  layout->addWidget(pages_);
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

QWidget* PreferencesDialog::generalPage() {
  auto* page = new QWidget(this);
  page->setObjectName(QStringLiteral("general"));
  theme_ = new QComboBox(page);
  theme_->setObjectName(QStringLiteral("theme"));
  theme_->addItem(tr("Follow the desktop"), toString(ThemeMode::FollowDesktop));
  theme_->addItem(tr("Light"), toString(ThemeMode::Light));
  theme_->addItem(tr("Dark"), toString(ThemeMode::Dark));
  autosave_ = new QSpinBox(page);
  autosave_->setObjectName(QStringLiteral("autosaveMinutes"));
  autosave_->setRange(0, Preferences::kMaxAutosaveMinutes);
  autosave_->setSuffix(tr(" min"));
  autosave_->setSpecialValueText(tr("Never"));
  auto* form = new QFormLayout(page);
  form->addRow(tr("Theme"), theme_);
  form->addRow(note(tr("Following the desktop, the window turns light or dark when the desktop "
                       "does. The image views keep their black background either way."),
                    page));
  form->addRow(tr("Autosave label maps every"), autosave_);
  form->addRow(note(tr("Saves the label map you are editing to its file (where it was opened or "
                       "last saved) while it has unsaved changes. Every edit is also journaled "
                       "on disk, so a crash loses nothing either way."),
                    page));
  readerName_ = new QLineEdit(page);
  readerName_->setObjectName(QStringLiteral("readerName"));
  readerName_->setPlaceholderText(QString::fromLocal8Bit(qgetenv("USER")));
  form->addRow(tr("Your name as a reader"), readerName_);
  form->addRow(note(tr("Kept with every label map you make (its correction record, the readers "
                       "view, your label on an AI server). Signed in to an AI server, the name "
                       "you signed in with is used there instead; left empty, your login name."),
                    page));
  return page;
}

QWidget* PreferencesDialog::editingPage() {
  auto* page = new QWidget(this);
  page->setObjectName(QStringLiteral("editing"));
  undoSteps_ = new QSpinBox(page);
  undoSteps_->setRange(Preferences::kMinUndoSteps, Preferences::kMaxUndoSteps);
  undoSteps_->setSuffix(tr(" steps"));
  undoMegabytes_ = new QSpinBox(page);
  undoMegabytes_->setRange(Preferences::kMinUndoMegabytes, Preferences::kMaxUndoMegabytes);
  undoMegabytes_->setSingleStep(64);
  undoMegabytes_->setSuffix(tr(" MB"));
  auto* form = new QFormLayout(page);
  form->addRow(tr("Undo keeps at most"), undoSteps_);
  form->addRow(tr("and at most"), undoMegabytes_);
  form->addRow(note(tr("The oldest steps are dropped first when either limit is reached. "
                       "Every edit is also journaled on disk for crash recovery."),
                    page));
  return page;
}

QWidget* PreferencesDialog::renderingPage() {
  auto* page = new QWidget(this);
  page->setObjectName(QStringLiteral("rendering"));
  quality_ = new QComboBox(page);
  quality_->setObjectName(QStringLiteral("volumeQuality"));
  quality_->addItem(tr("Fast"), viewers::toString(viewers::VolumeQuality::Fast));
  quality_->addItem(tr("Balanced"), viewers::toString(viewers::VolumeQuality::Balanced));
  quality_->addItem(tr("Best"), viewers::toString(viewers::VolumeQuality::Best));
  auto* form = new QFormLayout(page);
  form->addRow(tr("3D volume rendering quality"), quality_);
  form->addRow(note(tr("Fast casts half as many samples per ray and one ray per 2×2 screen "
                       "pixels; Best twice as many samples as Balanced. While you drag, the view "
                       "draws coarser and returns to this quality when you let go. Without a GPU "
                       "(a software OpenGL) the view ray-casts on the processor."),
                    page));
  return page;
}

void PreferencesDialog::insertPage(QWidget* page, const QString& title) {
  page->setParent(this);
  pages_->insertTab(pages_->count() - 1, page, title);
}

void PreferencesDialog::showPage(const QString& name) {
  for (int i = 0; i < pages_->count(); ++i) {
    if (pages_->widget(i)->objectName() == name) {
      pages_->setCurrentIndex(i);
    }
  }
}

void PreferencesDialog::setPreferences(const Preferences& p) {
  undoSteps_->setValue(p.undoSteps);
  undoMegabytes_->setValue(p.undoMegabytes);
  autosave_->setValue(p.autosaveMinutes);
  theme_->setCurrentIndex(theme_->findData(toString(p.theme)));
  quality_->setCurrentIndex(quality_->findData(viewers::toString(p.volumeQuality)));
  readerName_->setText(p.readerName);
}

Preferences PreferencesDialog::preferences() const {
  Preferences p;
  p.undoSteps = undoSteps_->value();
  p.undoMegabytes = undoMegabytes_->value();
  p.autosaveMinutes = autosave_->value();
  p.theme = themeModeFromString(theme_->currentData().toString());
  p.volumeQuality = viewers::volumeQualityFromString(quality_->currentData().toString());
  p.readerName = readerName_->text().trimmed();
  return p;
}

void PreferencesDialog::apply() {
  const Preferences p = preferences();
  p.save();
  Q_EMIT applied(p);
}

}  // namespace delineate::app
