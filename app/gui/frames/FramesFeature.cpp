#include "app/gui/frames/FramesFeature.h"

#include <QAction>
#include <QDockWidget>
#include <QMainWindow>
#include <QMenu>
#include <array>
#include <cmath>

#include "app/gui/CommandRegistry.h"
#include "app/gui/editing/EditingFeature.h"
#include "app/gui/frames/FrameBar.h"
#include "app/gui/frames/FrameCurveChart.h"
#include "core/model/FrameSeries.h"
#include "viewers/ViewLayout.h"
#include "viewers/ViewState.h"

namespace delineate::app {

FramesFeature::FramesFeature(QMainWindow* window, CommandRegistry* commands,
                             viewers::ViewLayout* views, EditingFeature* editing)
    : QObject(window),
      window_(window),
      commands_(commands),
      views_(views),
      editing_(editing),
      bar_(new FrameBar(window)),
      curve_(new FrameCurveChart(window)),
      curveDock_(new QDockWidget(tr("Frame curve"), window)) {
  window_->addToolBar(Qt::BottomToolBarArea, bar_);
  connect(bar_, &FrameBar::frameRequested, this, &FramesFeature::showFrame);
  curveDock_->setObjectName(QStringLiteral("frameCurveDock"));
  curveDock_->setWidget(curve_);
  window_->addDockWidget(Qt::BottomDockWidgetArea, curveDock_);
  curveDock_->hide();
  connect(curve_, &FrameCurveChart::frameClicked, this, &FramesFeature::showFrame);
  views_->state()->addObserver([this](unsigned) { updateCurve(); });
}

void FramesFeature::populateMenu(QMenu* menu) {
  menu->addAction(commands_->add(QStringLiteral("view.nextFrame"), tr("Next frame"),
                                 QKeySequence(tr("Alt+Right"))));
  menu->addAction(commands_->add(QStringLiteral("view.previousFrame"), tr("Previous frame"),
                                 QKeySequence(tr("Alt+Left"))));
  QAction* play = commands_->add(QStringLiteral("view.playFrames"), tr("Play frames"),
                                 QKeySequence(tr("Alt+P")));
  play->setCheckable(true);
  menu->addAction(play);
  connect(commands_->action(QStringLiteral("view.nextFrame")), &QAction::triggered, this,
          [this] { bar_->step(1); });
  connect(commands_->action(QStringLiteral("view.previousFrame")), &QAction::triggered, this,
          [this] { bar_->step(-1); });
  connect(play, &QAction::triggered, this, [this] { bar_->setPlaying(!bar_->playing()); });
  imageShown(image_);
}

void FramesFeature::imageShown(const core::VolumePtr& image) {
  image_ = image;
  const bool frames = image_ && image_->info().frames;
  bar_->setSeries(frames ? image_->info().frames : nullptr, frames ? image_->info().frameIndex : 0);
  for (const char* id : {"view.nextFrame", "view.previousFrame", "view.playFrames"}) {
    if (QAction* a = commands_->action(QString::fromLatin1(id))) {
      a->setEnabled(frames);
    }
  }
  if (frames && !curveDock_->isVisible()) {
    curveDock_->show();
    window_->resizeDocks({curveDock_}, {170}, Qt::Vertical);  // the views keep most of the height
  } else if (!frames) {
    curveDock_->hide();
  }
  updateCurve();
}

void FramesFeature::showFrame(std::size_t frame) {
  if (!image_ || !image_->info().frames) {
    return;
  }
  const auto series = image_->info().frames;
  if (frame >= series->count() || frame == image_->info().frameIndex) {
    bar_->setFrame(image_->info().frameIndex);
    return;
  }
  image_ = series->frame(frame);
  Q_EMIT frameShown(image_);
  editing_->frameShown(image_);  // label maps, undo and tools stay on the shared grid
  views_->setFrame(image_);
  bar_->setFrame(frame);
}

void FramesFeature::updateCurve() {
  if (!image_ || !image_->info().frames) {
    curve_->show(nullptr, {}, 0);
    return;
  }
  const core::ImageGeometry& g = image_->geometry();
  const core::Vec3 ijk = g.worldToIndex(views_->state()->cursor());
  std::array<std::size_t, 3> voxel{};
  for (int a = 0; a < 3; ++a) {
    const double v = std::round(ijk[a]);
    if (v < 0 || v >= static_cast<double>(g.size[a])) {
      return;  // the cursor is outside the image
    }
    voxel[a] = static_cast<std::size_t>(v);
  }
  curve_->show(image_->info().frames, voxel, image_->info().frameIndex);
}

}  // namespace delineate::app
