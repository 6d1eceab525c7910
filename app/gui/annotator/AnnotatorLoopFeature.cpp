#include "app/gui/annotator/AnnotatorLoopFeature.h"

#include <QAction>
#include <QCheckBox>
#include <QComboBox>
#include <QDockWidget>
#include <QMenu>

#include "app/gui/CommandRegistry.h"
#include "app/gui/MainWindow.h"
#include "app/gui/annotator/AnnotatorLoop.h"
#include "app/gui/annotator/AnnotatorLoopDock.h"

namespace delineate::app {

AnnotatorLoopFeature::AnnotatorLoopFeature(MainWindow* window, CommandRegistry* commands)
    : QObject(window), commands_(commands) {
  loop_ = new AnnotatorLoop(window, this);
  panel_ = new AnnotatorLoopDock(loop_);
  dock_ = new QDockWidget(tr("Annotator loop"), window);
  dock_->setObjectName(QStringLiteral("annotatorLoopDock"));
  dock_->setWidget(panel_);
  window->addDockWidget(Qt::RightDockWidgetArea, dock_);
  dock_->hide();
  connect(dock_, &QDockWidget::visibilityChanged, loop_, &AnnotatorLoop::setWatching);

  connect(commands_->add(QStringLiteral("ai.nextSample"), tr("&Next sample"),
                         QKeySequence(tr("Ctrl+Shift+N"))),
          &QAction::triggered, this, [this] {
            show();
            loop_->nextSample(panel_->strategyCombo()->currentText());
          });
  connect(commands_->add(QStringLiteral("ai.submitLabel"), tr("&Submit label"),
                         QKeySequence(tr("Ctrl+Shift+U"))),
          &QAction::triggered, this, [this] {
            show();
            loop_->submit(panel_->trainAfterSubmitBox()->isChecked(),
                          panel_->trainerCombo()->currentText());
          });
  connect(commands_->add(QStringLiteral("ai.training"), tr("&Training…"),
                         QKeySequence(tr("Ctrl+Shift+T"))),
          &QAction::triggered, this, &AnnotatorLoopFeature::show);
}

AnnotatorLoopFeature::~AnnotatorLoopFeature() {
  delete dock_;  // its panel reads the loop, which goes with this feature
}

void AnnotatorLoopFeature::populateMenu(QMenu* menu) {
  menu->addAction(commands_->action(QStringLiteral("ai.nextSample")));
  menu->addAction(commands_->action(QStringLiteral("ai.submitLabel")));
  menu->addAction(commands_->action(QStringLiteral("ai.training")));
}

void AnnotatorLoopFeature::show() {
  dock_->show();
  dock_->raise();
}

}  // namespace delineate::app
