// MammoFindingsController: the AI findings list (a dock beside the reading view).
#include <QAction>
#include <QDockWidget>
#include <QMainWindow>

#include "app/gui/CommandRegistry.h"
#include "app/gui/mammo/MammoFeature.h"
#include "app/gui/mammo/MammoFindingsController.h"
#include "app/gui/mammo/MammoFindingsPanel.h"
#include "viewers/mammo/MammoReadingView.h"
#include "viewers/mammo/MammoViewport.h"

namespace delineate::app {

namespace cm = core::mammo;

QDockWidget* MammoFindingsController::createListDock(QMainWindow* window) {
  panel_ = new MammoFindingsPanel(window);
  listDock_ = new QDockWidget(tr("AI findings"), window);
  listDock_->setObjectName(QStringLiteral("mammoFindingsDock"));
  listDock_->setWidget(panel_);
  window->addDockWidget(Qt::RightDockWidgetArea, listDock_);
  listDock_->hide();
  connect(commands_->add(QStringLiteral("mammo.findings.list"), tr("AI findings list")),
          &QAction::triggered, this, [this] {
            listDock_->show();
            listDock_->raise();
          });
  connect(this, &MammoFindingsController::findingsChanged, this,
          &MammoFindingsController::refreshPanel);
  connect(panel_, &MammoFindingsPanel::markActivated, this,
          [this](const QString& imageId, int mark) { showMark(imageId.toStdString(), mark); });
  refreshPanel();
  return listDock_;
}

void MammoFindingsController::refreshPanel() {
  if (panel_ == nullptr) {
    return;
  }
  const auto viewName = [this](const std::string& imageId) {
    for (const cm::MammoView& v : feature_->files().views) {
      if (cm::namesImage(v, imageId)) {
        QString name = QStringLiteral("%1 %2").arg(QString::fromLatin1(cm::toString(v.laterality)),
                                                   QString::fromLatin1(cm::toString(v.view)));
        if (v.studyUid != feature_->hanging().currentStudy) {
          name += tr(" (prior)");
        }
        return name;
      }
    }
    return QString::fromStdString(imageId);
  };
  panel_->show(findings_, viewName, feature_->view()->state()->optionalMarksShown(), concealed_);
}

bool MammoFindingsController::showMark(const std::string& imageId, int markIndex) {
  if (!findings_) {
    return false;
  }
  const std::string canonical = canonicalImageId(imageId);
  for (const cm::ImageFindings& image : findings_->images) {
    if (image.imageId == canonical && markIndex >= 0 &&
        static_cast<std::size_t>(markIndex) < image.marks.size() &&
        image.marks[static_cast<std::size_t>(markIndex)].intent == cm::RenderingIntent::Optional &&
        !feature_->view()->state()->optionalMarksShown()) {
      commands_->action(QStringLiteral("mammo.findings.optionalMarks"))->setChecked(true);
    }
  }
  return highlightMark(imageId, markIndex);
}

void MammoFindingsController::showCurrentFrame() {
  if (!findings_ || current_ < 0) {
    return;
  }
  const MarkRef r = order_[static_cast<std::size_t>(current_)];
  const cm::ImageFindings& image = findings_->images[r.image];
  const cm::FindingMark& m = image.marks[r.mark];
  if (!m.frame) {
    return;
  }
  viewers::MammoReadingView* view = feature_->view();
  for (int i = 0; i < view->viewportCount(); ++i) {
    viewers::MammoViewport* port = view->viewport(i);
    if (port->image() && port->frameCount() > 1 &&
        (port->image()->sopInstanceUid == image.imageId || port->image()->id == image.imageId)) {
      port->setFrame(*m.frame);
      view->followStack(port);
    }
  }
}

}  // namespace delineate::app
