#include "app/gui/mammo/MammoToolBar.h"

#include <QAction>
#include <QComboBox>
#include <QLabel>
#include <QMainWindow>
#include <QMenu>
#include <QSlider>
#include <QToolBar>
#include <QToolButton>

#include "app/gui/CommandRegistry.h"
#include "app/gui/mammo/MammoFeature.h"
#include "viewers/mammo/MammoReadingState.h"
#include "viewers/mammo/MammoReadingView.h"
#include "viewers/mammo/MammoViewport.h"

namespace delineate::app {

namespace {

// The window presets of the first shown image: its windows, then its VOI LUT tables.
void fillWindowMenu(QMenu* menu, MammoFeature* feature) {
  menu->clear();
  viewers::MammoReadingView* view = feature->view();
  const viewers::MammoImage* image = nullptr;
  for (int i = 0; i < view->viewportCount() && image == nullptr; ++i) {
    if (view->viewport(i)->image()) {
      image = &*view->viewport(i)->image();
    }
  }
  QAction* reset = menu->addAction(QObject::tr("Each image's own default"));
  QObject::connect(reset, &QAction::triggered, view->state(),
                   [view] { view->state()->setWindow(std::nullopt); });
  if (image == nullptr || !image->pyramid) {
    return;
  }
  const core::VolumeInfo& info = image->pyramid->volume()->info();
  menu->addSeparator();
  for (const auto& w : info.windows) {
    QAction* a = menu->addAction(QStringLiteral("%1 (W %2 L %3)")
                                     .arg(QString::fromStdString(w.name))
                                     .arg(w.width, 0, 'f', 0)
                                     .arg(w.center, 0, 'f', 0));
    QObject::connect(a, &QAction::triggered, view->state(), [view, w] {
      view->state()->setWindow(viewers::MammoWindow{w.center, w.width, -1});
    });
  }
  for (std::size_t i = 0; i < info.voiLuts.size(); ++i) {
    QAction* a = menu->addAction(
        QObject::tr("VOI LUT: %1").arg(QString::fromStdString(info.voiLuts[i].name)));
    const int index = static_cast<int>(i);
    QObject::connect(a, &QAction::triggered, view->state(), [view, index] {
      view->state()->setWindow(viewers::MammoWindow{0, 1, index});
    });
  }
}

}  // namespace

QList<QToolBar*> createMammoToolBars(QMainWindow* window, MammoFeature* feature,
                                     CommandRegistry* commands) {
  auto* reading = new QToolBar(QObject::tr("Mammography"), window);
  QToolBar* bar = reading;
  bar->setObjectName(QStringLiteral("mammoToolBar"));
  window->addToolBar(Qt::TopToolBarArea, bar);

  auto* layouts = new QComboBox(bar);
  layouts->setObjectName(QStringLiteral("mammoLayoutCombo"));
  for (const auto& p : feature->protocols().protocols) {
    layouts->addItem(QString::fromStdString(p.name.empty() ? p.id : p.name),
                     QString::fromStdString(p.id));
  }
  layouts->setToolTip(QObject::tr("Hanging protocol (Page Down / Page Up step through them)"));
  bar->addWidget(layouts);
  QObject::connect(layouts, &QComboBox::activated, feature, [feature, layouts](int i) {
    feature->setLayout(layouts->itemData(i).toString());
  });
  QObject::connect(feature, &MammoFeature::layoutChanged, layouts, [layouts](const QString& id) {
    layouts->setCurrentIndex(layouts->findData(id));
  });
  bar->addAction(commands->action("mammo.previousLayout"));
  bar->addAction(commands->action("mammo.nextLayout"));
  bar->addSeparator();
  for (const char* id : {"mammo.fit", "mammo.oneToOne", "mammo.invert"}) {
    bar->addAction(commands->action(QString::fromLatin1(id)));
  }
  auto* windows = new QToolButton(bar);
  windows->setText(QObject::tr("Window"));
  auto* menu = new QMenu(windows);
  windows->setMenu(menu);
  windows->setPopupMode(QToolButton::InstantPopup);
  QObject::connect(menu, &QMenu::aboutToShow, menu,
                   [menu, feature] { fillWindowMenu(menu, feature); });
  bar->addWidget(windows);
  bar->addSeparator();
  for (const char* id : {"mammo.tool.pan", "mammo.tool.window", "mammo.tool.magnifier",
                         "mammo.tool.ruler", "mammo.tool.ellipse"}) {
    bar->addAction(commands->action(QString::fromLatin1(id)));
  }

  window->addToolBarBreak(Qt::TopToolBarArea);
  auto* ai = new QToolBar(QObject::tr("Mammography AI findings"), window);
  ai->setObjectName(QStringLiteral("mammoFindingsToolBar"));
  window->addToolBar(Qt::TopToolBarArea, ai);
  bar = ai;
  bar->addAction(commands->action("mammo.findings.detect"));
  bar->addAction(commands->action("mammo.findings.server"));
  bar->addAction(commands->action("mammo.findings.open"));
  bar->addAction(commands->action("mammo.findings.heatmap"));
  viewers::MammoReadingState* state = feature->view()->state();
  auto slider = [bar, state](const QString& name, const QString& tip, double value, bool opacity) {
    auto* label = new QLabel(name, bar);
    bar->addWidget(label);
    auto* s = new QSlider(Qt::Horizontal, bar);
    s->setObjectName(opacity ? QStringLiteral("heatmapOpacity")
                             : QStringLiteral("heatmapThreshold"));
    s->setRange(0, 100);
    s->setValue(static_cast<int>(value * 100));
    s->setMaximumWidth(90);
    s->setToolTip(tip);
    bar->addWidget(s);
    QObject::connect(s, &QSlider::valueChanged, state, [state, opacity](int v) {
      const double f = v / 100.0;
      state->setHeatmap(state->heatmapShown(), opacity ? f : state->heatmapOpacity(),
                        opacity ? state->heatmapThreshold() : f);
    });
  };
  slider(QObject::tr("Opacity"), QObject::tr("Heatmap opacity"), state->heatmapOpacity(), true);
  slider(QObject::tr("Threshold"), QObject::tr("Heatmap values under this are not drawn"),
         state->heatmapThreshold(), false);
  bar->addAction(commands->action("mammo.findings.marks"));
  bar->addAction(commands->action("mammo.findings.previousMark"));
  bar->addAction(commands->action("mammo.findings.nextMark"));
  return {reading, ai};
}

}  // namespace delineate::app
