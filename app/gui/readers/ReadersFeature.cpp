#include "app/gui/readers/ReadersFeature.h"

#include <QAction>
#include <QDockWidget>
#include <QMainWindow>
#include <QMenu>
#include <QScrollArea>

#include "app/gui/CommandRegistry.h"
#include "app/gui/editing/EditingFeature.h"
#include "app/gui/readers/ReadersController.h"
#include "app/gui/readers/ReadersDock.h"

namespace delineate::app {

ReadersFeature::ReadersFeature(QMainWindow* window, CommandRegistry* commands,
                               viewers::ViewLayout* views, EditingFeature* editing)
    : QObject(window), commands_(commands) {
  controller_ = new ReadersController(editing->session(), editing->jobs(), editing->files(),
                                      editing->corrections(), views, this);
  panel_ = new ReadersDock(controller_, editing->session());
  auto* scroll = new QScrollArea;
  scroll->setWidgetResizable(true);
  scroll->setWidget(panel_);
  dock_ = new QDockWidget(tr("Readers"), window);
  dock_->setObjectName(QStringLiteral("readersDock"));
  dock_->setWidget(scroll);
  window->addDockWidget(Qt::RightDockWidgetArea, dock_);
  dock_->hide();

  connect(commands_->add(QStringLiteral("review.readers"), tr("&Readers and adjudication…"),
                         QKeySequence(tr("Ctrl+Shift+R"))),
          &QAction::triggered, this, &ReadersFeature::show);
  connect(commands_->add(QStringLiteral("review.nextDisagreement"), tr("Next disagreement region"),
                         QKeySequence(tr("J"))),
          &QAction::triggered, controller_, &ReadersController::nextRegion);
  connect(commands_->add(QStringLiteral("review.previousDisagreement"),
                         tr("Previous disagreement region"), QKeySequence(tr("Shift+J"))),
          &QAction::triggered, controller_, &ReadersController::previousRegion);
}

ReadersFeature::~ReadersFeature() = default;

void ReadersFeature::populateMenu(QMenu* menu) {
  menu->addAction(commands_->action(QStringLiteral("review.readers")));
  menu->addAction(commands_->action(QStringLiteral("review.nextDisagreement")));
  menu->addAction(commands_->action(QStringLiteral("review.previousDisagreement")));
}

void ReadersFeature::show() {
  dock_->show();
  dock_->raise();
}

}  // namespace delineate::app
