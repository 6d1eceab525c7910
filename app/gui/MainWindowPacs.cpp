// MainWindow's wiring of the PACS feature: what the study browser retrieves opens in the window
// (a mammography study in the reading view, again with its priors), its messages reach the status
// bar, and it learns the prior rule and the study shown.
#include <QStatusBar>

#include "app/gui/MainWindow.h"
#include "app/gui/mammo/MammoFeature.h"
#include "app/gui/pacs/PacsFeature.h"
#include "app/gui/reading/ShownStudy.h"

namespace delineate::app {

void MainWindow::connectPacs() {
  connect(pacs_, &PacsFeature::openRequested, this, &MainWindow::openPath);
  connect(pacs_, &PacsFeature::mammographyRequested, this,
          [this](const QStringList& folders, bool withPriors) {
            if (withPriors) {
              // Still reading that study: hung again with its priors.
              if (mammo_->active() && mammo_->paths().value(0) == folders.front()) {
                mammo_->open(folders, mammo_->priorLayout());
              }
            } else if (confirmDiscard()) {
              addRecent(folders.front());
              mammo_->open(folders);
            }
          });
  connect(pacs_, &PacsFeature::statusMessage, this,
          [this](const QString& text) { statusBar()->showMessage(text, 8000); });
  pacs_->setPriorRule([this] { return mammo_->protocols().priorRule(); });
  pacs_->setCurrentStudy([this] { return shownStudy(*mammo_, volume_); });
}

}  // namespace delineate::app
