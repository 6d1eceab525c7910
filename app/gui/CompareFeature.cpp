#include "app/gui/CompareFeature.h"

#include <QAction>
#include <QDockWidget>
#include <QMainWindow>
#include <QMenu>

#include "app/gui/CommandRegistry.h"
#include "app/gui/CompareController.h"
#include "app/gui/CompareDock.h"
#include "app/gui/EditingFeature.h"
#include "app/gui/SurfaceController.h"
#include "viewers/ViewLayout.h"

namespace delineate::app {

CompareFeature::CompareFeature(QMainWindow* window, CommandRegistry* commands,
                               viewers::ViewLayout* views, EditingFeature* editing,
                               bool interactive)
    : QObject(window), commands_(commands) {
  controller_ =
      new CompareController(editing->session(), editing->ai(), views, editing->surfaces(), this);
  panel_ = new CompareDock(controller_, views->state(), interactive);
  dock_ = new QDockWidget(tr("Compare"), window);
  dock_->setObjectName(QStringLiteral("compareDock"));
  dock_->setWidget(panel_);
  window->addDockWidget(Qt::RightDockWidgetArea, dock_);
  dock_->hide();

  connect(commands_->add(QStringLiteral("analysis.compare"), tr("&Compare label maps…"),
                         QKeySequence(tr("Ctrl+Shift+C"))),
          &QAction::triggered, this, &CompareFeature::show);
  connect(commands_->add(QStringLiteral("analysis.nextWorstSlice"), tr("Next worst slice"),
                         QKeySequence(tr("N"))),
          &QAction::triggered, controller_, &CompareController::nextWorstSlice);
  connect(commands_->add(QStringLiteral("analysis.previousWorstSlice"), tr("Previous worst slice"),
                         QKeySequence(tr("Shift+N"))),
          &QAction::triggered, controller_, &CompareController::previousWorstSlice);
}

CompareFeature::~CompareFeature() = default;

void CompareFeature::populateMenu(QMenu* menu) {
  menu->addAction(commands_->action(QStringLiteral("analysis.compare")));
  menu->addAction(commands_->action(QStringLiteral("analysis.nextWorstSlice")));
  menu->addAction(commands_->action(QStringLiteral("analysis.previousWorstSlice")));
}

void CompareFeature::show() {
  dock_->show();
  dock_->raise();
}

}  // namespace delineate::app
