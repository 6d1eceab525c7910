#include "app/gui/PacsFeature.h"

#include <QAction>
#include <QMenu>

#include "app/gui/CommandRegistry.h"
#include "app/gui/DeidentificationPage.h"
#include "app/gui/DicomNodesPage.h"
#include "app/gui/EditSession.h"
#include "app/gui/EditingFeature.h"
#include "app/gui/PreferencesDialog.h"
#include "app/gui/SendToPacsDialog.h"
#include "app/gui/StudyBrowserDialog.h"

namespace delineate::app {

PacsFeature::PacsFeature(QWidget* window, CommandRegistry* commands, EditingFeature* editing)
    : QObject(window), window_(window), commands_(commands), editing_(editing) {
  editing_->addPreferencesPage(tr("DICOM nodes"), [this] {
    page_ = new DicomNodesPage;
    connect(page_, &DicomNodesPage::nodesChanged, this, [this] {
      if (dialog_ != nullptr) {
        dialog_->refresh();
      }
      if (browser_ != nullptr) {
        browser_->refresh();
      }
    });
    return page_;
  });
  editing_->addPreferencesPage(tr("De-identification"), [] { return new DeidentificationPage; });
  connect(commands_->add(QStringLiteral("file.queryPacs"), tr("&Query PACS…"),
                         QKeySequence(tr("Ctrl+Alt+O"))),
          &QAction::triggered, this, &PacsFeature::showStudyBrowser);
  connect(commands_->add(QStringLiteral("file.sendToPacs"), tr("Send to &PACS…")),
          &QAction::triggered, this, &PacsFeature::showDialog);
}

PacsFeature::~PacsFeature() {
  delete dialog_;
  delete browser_;
}

void PacsFeature::populateFileMenu(QMenu* menu) {
  menu->addAction(commands_->action(QStringLiteral("file.queryPacs")));
  menu->addAction(commands_->action(QStringLiteral("file.sendToPacs")));
}

SendToPacsDialog* PacsFeature::dialog() {
  if (dialog_ == nullptr) {
    dialog_ = new SendToPacsDialog(editing_->session(), window_);
    connect(dialog_, &SendToPacsDialog::nodesWanted, this, &PacsFeature::showNodesPage);
  }
  return dialog_;
}

void PacsFeature::showNodesPage() {
  PreferencesDialog* d = editing_->preferencesDialog();
  d->showPage(QStringLiteral("nodes"));
  d->show();
  d->raise();
}

StudyBrowserDialog* PacsFeature::studyBrowser() {
  if (browser_ == nullptr) {
    browser_ = new StudyBrowserDialog(window_);
    connect(browser_, &StudyBrowserDialog::nodesWanted, this, &PacsFeature::showNodesPage);
    // The first series opens as soon as it is complete; the others keep coming.
    connect(browser_, &StudyBrowserDialog::seriesRetrieved, this,
            [this](const QString& folder, bool first) {
              if (first) {
                Q_EMIT openRequested(folder);
              }
            });
  }
  return browser_;
}

void PacsFeature::showStudyBrowser() {
  StudyBrowserDialog* d = studyBrowser();
  d->refresh();
  d->show();
  d->raise();
}

void PacsFeature::showDialog() {
  SendToPacsDialog* d = dialog();
  d->refresh();
  d->show();
  d->raise();
}

}  // namespace delineate::app
