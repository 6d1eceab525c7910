#include "viewers/ViewLayout.h"

#include <QGridLayout>

#include "viewers/SliceView.h"
#include "viewers/VolumeView.h"

namespace delineate::viewers {

ViewLayout::ViewLayout(QWidget* parent)
    : QWidget(parent),
      state_(std::make_shared<ViewState>()),
      labelState_(std::make_shared<LabelDisplayState>()),
      markerState_(std::make_shared<MarkerState>()) {
  const SliceOrientation orientations[3] = {SliceOrientation::Axial, SliceOrientation::Coronal,
                                            SliceOrientation::Sagittal};
  for (int i = 0; i < 3; ++i) {
    slices_[i] = new SliceView(orientations[i], state_, this);
    slices_[i]->setLabelState(labelState_);
    slices_[i]->setMarkerState(markerState_);
    connect(slices_[i], &SliceView::pointerMoved, this, &ViewLayout::pointerMoved);
    connect(slices_[i], &SliceView::maximizeRequested, this, [this, i] { toggleMaximized(i); });
  }
  volumeView_ = new VolumeView(this);
  grid_ = new QGridLayout(this);
  grid_->setContentsMargins(0, 0, 0, 0);
  grid_->setSpacing(2);
  setStyleSheet(QStringLiteral("background-color: #202020;"));
  arrange();
}

ViewLayout::~ViewLayout() = default;

bool ViewLayout::setLayoutName(const QString& name) {
  if (!layoutNames().contains(name)) {
    return false;
  }
  beforeMaximize_.clear();
  if (name != layout_) {
    layout_ = name;
    arrange();
    Q_EMIT layoutChanged(layout_);
  }
  return true;
}

void ViewLayout::setSingleView(int index) {
  single_ = std::clamp(index, 0, 3);
  if (layout_ == QLatin1String("1x1")) {
    arrange();
  }
}

void ViewLayout::toggleMaximized(int index) {
  if (layout_ == QLatin1String("1x1") && !beforeMaximize_.isEmpty()) {
    const QString back = beforeMaximize_;
    setLayoutName(back);
    return;
  }
  const QString previous = layout_;
  single_ = index;
  setLayoutName(QStringLiteral("1x1"));
  arrange();
  beforeMaximize_ = previous == QLatin1String("1x1") ? QString() : previous;
}

void ViewLayout::setVolume(core::VolumePtr volume) {
  state_->setVolume(volume);
  volumeView_->setVolume(std::move(volume));
}

void ViewLayout::setFrame(core::VolumePtr frame) {
  state_->setFrame(frame);
  volumeView_->setFrame(std::move(frame));
}

QList<QWidget*> ViewLayout::visibleViews() const {
  QList<QWidget*> all{slices_[0], slices_[1], slices_[2], volumeView_};
  if (layout_ == QLatin1String("1x1")) {
    return {all[single_]};
  }
  if (layout_ == QLatin1String("1x3")) {
    return {slices_[0], slices_[1], slices_[2]};
  }
  return all;
}

bool ViewLayout::allViewsRendered() const {
  for (QWidget* w : visibleViews()) {
    if (auto* s = qobject_cast<SliceView*>(w);
        s != nullptr && !(s->hasRenderedVolume() && s->hasRenderedLabels())) {
      return false;
    }
    if (auto* v = qobject_cast<VolumeView*>(w);
        v != nullptr && !(v->hasRenderedVolume() && v->hasRenderedSurfaces())) {
      return false;
    }
  }
  return true;
}

bool ViewLayout::allViewsShowImage() const {
  for (QWidget* w : visibleViews()) {
    if (auto* s = qobject_cast<SliceView*>(w); s != nullptr && !s->hasRenderedVolume()) {
      return false;
    }
    if (auto* v = qobject_cast<VolumeView*>(w); v != nullptr && !v->hasShownVolume()) {
      return false;
    }
  }
  return true;
}

void ViewLayout::setToolRouter(ToolEventRouter* router) {
  for (SliceView* s : slices_) {
    s->setToolRouter(router);
  }
}

void ViewLayout::resetViews() {
  for (SliceView* s : slices_) {
    s->resetView();
  }
  volumeView_->resetCamera();
}

void ViewLayout::arrange() {
  QList<QWidget*> all{slices_[0], slices_[1], slices_[2], volumeView_};
  for (QWidget* w : all) {
    grid_->removeWidget(w);
  }
  const QList<QWidget*> shown = visibleViews();
  for (QWidget* w : all) {
    w->setVisible(shown.contains(w));
  }
  for (int r = 0; r < 2; ++r) {
    grid_->setRowStretch(r, 0);
    grid_->setColumnStretch(r, 0);
  }
  grid_->setColumnStretch(2, 0);
  if (layout_ == QLatin1String("1x1")) {
    grid_->addWidget(shown[0], 0, 0);
    grid_->setRowStretch(0, 1);
    grid_->setColumnStretch(0, 1);
  } else if (layout_ == QLatin1String("1x3")) {
    for (int i = 0; i < 3; ++i) {
      grid_->addWidget(slices_[i], 0, i);
      grid_->setColumnStretch(i, 1);
    }
    grid_->setRowStretch(0, 1);
  } else {
    grid_->addWidget(slices_[0], 0, 0);
    grid_->addWidget(slices_[2], 0, 1);
    grid_->addWidget(slices_[1], 1, 0);
    grid_->addWidget(volumeView_, 1, 1);
    grid_->setRowStretch(0, 1);
    grid_->setRowStretch(1, 1);
    grid_->setColumnStretch(0, 1);
    grid_->setColumnStretch(1, 1);
  }
}

}  // namespace delineate::viewers
