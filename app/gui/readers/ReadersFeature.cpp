#include "app/gui/readers/ReadersFeature.h"

#include <QAction>
#include <QComboBox>
#include <QDockWidget>
#include <QHBoxLayout>
#include <QLabel>
#include <QMainWindow>
#include <QMenu>
#include <QPointer>
#include <QPushButton>
#include <QScrollArea>
#include <QVBoxLayout>

#include "app/gui/CommandRegistry.h"
#include "app/gui/editing/EditSession.h"
#include "app/gui/editing/EditingFeature.h"
#include "app/gui/readers/ReadersController.h"
#include "app/gui/readers/ReadersDock.h"
#include "app/gui/readers/ReadersSideBySide.h"
#include "viewers/ViewLayout.h"

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

  // The readers side by side, below the views where there is width for a tile per reader.
  auto* sidePanel = new QWidget;
  auto* plane = new QComboBox;
  plane->setObjectName(QStringLiteral("sideBySidePlane"));
  plane->addItems({tr("Axial"), tr("Coronal"), tr("Sagittal")});
  side_ = new ReadersSideBySide(controller_, views->state(), sidePanel);
  auto* planeRow = new QHBoxLayout;
  planeRow->addWidget(new QLabel(tr("Each reader's version on the slice through the cursor:")));
  planeRow->addStretch(1);
  planeRow->addWidget(plane);
  auto* sideLayout = new QVBoxLayout(sidePanel);
  sideLayout->addLayout(planeRow);
  sideLayout->addWidget(side_, 1);
  connect(plane, &QComboBox::currentIndexChanged, side_,
          [this](int i) { side_->setPlane(ReadersSideBySide::Plane(i)); });
  connect(editing->session(), &EditSession::voxelsChanged, side_, qOverload<>(&QWidget::update));
  sideDock_ = new QDockWidget(tr("Readers side by side"), window);
  sideDock_->setObjectName(QStringLiteral("readersSideBySideDock"));
  sideDock_->setWidget(sidePanel);
  window->addDockWidget(Qt::BottomDockWidgetArea, sideDock_);
  sideDock_->hide();
  QAction* sideAction =
      commands_->add(QStringLiteral("review.sideBySide"), tr("Readers &side by side"));
  sideAction->setCheckable(true);
  connect(sideAction, &QAction::toggled, sideDock_, &QDockWidget::setVisible);
  // The action outlives the feature (the registry owns it); the feature and the dock go first.
  const QPointer<QAction> guarded(sideAction);
  connect(sideDock_, &QDockWidget::visibilityChanged, this, [guarded](bool visible) {
    if (guarded) {
      guarded->setChecked(visible);
    }
  });
  connect(panel_->sideBySideButton(), &QPushButton::clicked, this, [this] {
    sideDock_->show();
    sideDock_->raise();
  });

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
  menu->addAction(commands_->action(QStringLiteral("review.sideBySide")));
  menu->addAction(commands_->action(QStringLiteral("review.nextDisagreement")));
  menu->addAction(commands_->action(QStringLiteral("review.previousDisagreement")));
}

void ReadersFeature::show() {
  dock_->show();
  dock_->raise();
}

}  // namespace delineate::app
