#include "app/gui/pacs/PacsFeature.h"

#include <QAction>
#include <QMenu>

#include "app/gui/CommandRegistry.h"
#include "app/gui/editing/EditSession.h"
#include "app/gui/editing/EditingFeature.h"
#include "app/gui/pacs/DicomNodesPage.h"
#include "app/gui/pacs/PriorFetcher.h"
#include "app/gui/pacs/SendToPacsDialog.h"
#include "app/gui/pacs/StorageListener.h"
#include "app/gui/pacs/StudyBrowserDialog.h"
#include "app/gui/preferences/PreferencesDialog.h"
#include "app/gui/upload/DeidentificationPage.h"

namespace delineate::app {

PacsFeature::PacsFeature(QWidget* window, CommandRegistry* commands, EditingFeature* editing)
    : QObject(window),
      window_(window),
      commands_(commands),
      editing_(editing),
      listener_(new StorageListener(StudyBrowserDialog::studyFolder(), this)) {
  connect(listener_, &StorageListener::stateChanged, this, &PacsFeature::showListenerState);
  connect(listener_, &StorageListener::receivedMore, this, [this](std::size_t total) {
    Q_EMIT statusMessage(
        tr("%n instance(s) received into the study cache (File > Query PACS…, "
           "This computer).",
           nullptr, int(total)));
  });
  // Once the window listens to statusMessage, so that a port in use is said.
  QMetaObject::invokeMethod(listener_, &StorageListener::apply, Qt::QueuedConnection);
  editing_->addPreferencesPage(tr("DICOM nodes"), [this] {
    page_ = new DicomNodesPage;
    connect(page_, &DicomNodesPage::listenerChanged, listener_, &StorageListener::apply);
    showListenerState();
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
  connect(commands_->add(QStringLiteral("file.earlierStudies"),
                         tr("&Earlier studies of this patient…")),
          &QAction::triggered, this, &PacsFeature::showEarlierStudies);
}

PacsFeature::~PacsFeature() {
  delete dialog_;
  delete browser_;
}

void PacsFeature::populateFileMenu(QMenu* menu) {
  menu->addAction(commands_->action(QStringLiteral("file.queryPacs")));
  menu->addAction(commands_->action(QStringLiteral("file.earlierStudies")));
  menu->addAction(commands_->action(QStringLiteral("file.sendToPacs")));
}

SendToPacsDialog* PacsFeature::dialog() {
  if (dialog_ == nullptr) {
    dialog_ = new SendToPacsDialog(editing_->session(), window_);
    connect(dialog_, &SendToPacsDialog::nodesWanted, this, &PacsFeature::showNodesPage);
  }
  return dialog_;
}

void PacsFeature::showListenerState() {
  const QString text =
      listener_->listening() ? tr("Listening now, for anything sent to this AE title and port.")
      : listener_->problem().isEmpty() ? tr("Listening only while a C-MOVE runs.")
                                       : tr("Not listening: %1").arg(listener_->problem());
  if (page_ != nullptr) {
    page_->setListenerState(text);
  }
  if (!listener_->problem().isEmpty()) {
    Q_EMIT statusMessage(text);
  }
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
    // The first series opens as soon as it is complete; the others keep coming. A mammography
    // study opens whole, then with its priors.
    connect(browser_, &StudyBrowserDialog::seriesRetrieved, this,
            [this](const QString& folder, bool first) {
              if (first && !browser_->retrievingMammography()) {
                Q_EMIT openRequested(folder);
              }
            });
    connect(browser_, &StudyBrowserDialog::studyRetrieved, this, &PacsFeature::readMammography);
    PriorFetcher* priors = browser_->priors();
    connect(priors, &PriorFetcher::priorsReady, this,
            [this](const QString& uid, const QStringList& folders, const QString& message) {
              browser_->appendStatus(message);
              Q_EMIT statusMessage(message);
              if (uid == mammographyUid_ && !folders.isEmpty()) {
                Q_EMIT mammographyRequested(QStringList{mammographyFolder_} + folders, true);
              }
            });
    connect(priors, &PriorFetcher::failed, this, [this](const QString& message) {
      browser_->appendStatus(message);
      Q_EMIT statusMessage(message);
    });
  }
  return browser_;
}

void PacsFeature::readMammography(const RetrievedStudy& study) {
  if (!study.mammography) {
    return;
  }
  mammographyFolder_ = study.folder;
  mammographyUid_ = QString::fromStdString(study.study.studyInstanceUid);
  Q_EMIT mammographyRequested({study.folder}, false);
  browser_->priors()->fetch(study.node, study.access, study.study,
                            priorRule_ ? priorRule_() : core::mammo::PriorRule{});
}

bool PacsFeature::showEarlierStudies() {
  const auto current = currentStudy_ ? currentStudy_() : std::nullopt;
  if (!current || current->patientId.empty()) {
    Q_EMIT statusMessage(tr("Earlier studies: open a DICOM study with a patient ID first."));
    return false;
  }
  StudyBrowserDialog* d = studyBrowser();
  d->refresh();
  d->show();
  d->raise();
  d->searchEarlier(*current);
  return true;
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
